import type { Position } from '../../../api/contract';
import type { TimelineEntry } from '../api/history-contract';
import { EventTime } from './event-time';

type TimelineProps = {
  entries: readonly TimelineEntry[];
  selected: Position | undefined;
  onSelect: (entry: TimelineEntry) => void;
  onOpenCorrelation: (correlationId: string) => void;
};

export function Timeline({ entries, selected, onSelect, onOpenCorrelation }: TimelineProps) {
  return (
    <ol className="rows history-timeline" aria-label="Events, newest first">
      {entries.map((entry) => {
        const isSelected = selected !== undefined && String(selected) === String(entry.revision);
        return (
          <li
            className={`row history-entry${isSelected ? ' history-entry--selected' : ''}`}
            key={String(entry.revision)}
            aria-current={isSelected || undefined}
          >
            <div className="row__main">
              <button
                type="button"
                className="history-entry__title"
                aria-pressed={isSelected}
                onClick={() => onSelect(entry)}
              >
                {entry.description}
              </button>
              <span className="row__detail">
                <EventTime at={entry.recordedAt} /> · {entry.actorName} · revision {String(entry.revision)}
              </span>
              {entry.correlationId !== null && (
                <span className="row__detail">
                  <button
                    type="button"
                    className="link-button history-entry__correlation"
                    onClick={() => onOpenCorrelation(entry.correlationId as string)}
                  >
                    Correlation {entry.correlationId}
                  </button>
                </span>
              )}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
