import { problemOf } from '../../../api/problem';
import { refusalMessage } from '../../../api/refusals';
import { FormAlert } from '../../../components/ui/form-alert';
import { useGetChangesQuery } from '../api/history-api';
import type { Position } from '../../../api/contract';
import { ChangeList } from './change-list';
import { EventTime } from './event-time';
import { StateSummary } from './state-summary';

export function EventDetails({ organizationId, revision }: { organizationId: string; revision: Position }) {
  const {
    currentData: data,
    error,
    isFetching,
  } = useGetChangesQuery({ organizationId, point: { asOfRevision: revision } });
  const shown = data;
  return (
    <div className="history-details" aria-busy={isFetching}>
      <FormAlert>{error !== undefined && refusalMessage(problemOf(error))}</FormAlert>
      {shown === undefined ? (
        !error && <p className="muted">Loading revision {String(revision)}…</p>
      ) : (
        <>
          <p className="history-details__event">{shown.entry.description}</p>
          <p className="row__detail">
            <EventTime at={shown.entry.recordedAt} /> · {shown.entry.actorName} · revision{' '}
            {String(shown.entry.revision)}
          </p>
          <h3 className="history-details__heading">What changed</h3>
          <ChangeList changes={shown.changes} />
          <h3 className="history-details__heading">State after it</h3>
          <StateSummary state={shown.state} label={`State after revision ${String(revision)}`} />
        </>
      )}
    </div>
  );
}
