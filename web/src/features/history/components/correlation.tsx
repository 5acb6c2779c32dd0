import { problemOf } from '../../../api/problem';
import { refusalMessage } from '../../../api/refusals';
import { FormAlert } from '../../../components/ui/form-alert';
import { useGetCorrelationQuery } from '../api/history-api';
import { EventTime } from './event-time';

const streamWords = (streamId: string, organizationId: string): string =>
  streamId === `organization-${organizationId}`
    ? 'this organization'
    : streamId.startsWith('billing-')
      ? 'billing ledger'
      : streamId;

export function Correlation({ organizationId, correlationId }: { organizationId: string; correlationId: string }) {
  const { currentData: data, error, isFetching } = useGetCorrelationQuery({ organizationId, correlationId });
  return (
    <div className="history-details" aria-busy={isFetching}>
      <FormAlert>{error !== undefined && refusalMessage(problemOf(error))}</FormAlert>
      {data === undefined ? (
        !error && <p className="muted">Loading…</p>
      ) : data.entries.length === 0 ? (
        <p className="muted">No event of this organization carries this correlation id.</p>
      ) : (
        <ol className="rows" aria-label={`Events of correlation ${correlationId}`}>
          {data.entries.map((entry) => (
            <li className="row" key={`${entry.streamId}@${String(entry.revision)}`}>
              <div className="row__main">
                <span className="row__title">{entry.description}</span>
                <span className="row__detail">
                  <EventTime at={entry.recordedAt} /> · {entry.actorName} ·{' '}
                  {streamWords(entry.streamId, organizationId)}, revision {String(entry.revision)}
                </span>
              </div>
            </li>
          ))}
        </ol>
      )}
      {data?.hasMore && <p className="muted">Only the first {data.entries.length} events are shown.</p>}
    </div>
  );
}
