import { problemOf } from '../../../api/problem';
import { refusalMessage } from '../../../api/refusals';
import { FormAlert } from '../../../components/ui/form-alert';
import { useGetChangesQuery } from '../api/history-api';
import { formatLocalTime } from '../history-time';
import { EventTime } from './event-time';
import { StateSummary } from './state-summary';

export function StateAsOf({ organizationId, instant }: { organizationId: string; instant: string }) {
  const { currentData: data, error, isFetching } = useGetChangesQuery({ organizationId, point: { asOf: instant } });
  const problem = error === undefined ? undefined : problemOf(error);
  return (
    <div className="history-details" aria-busy={isFetching}>
      <FormAlert>
        {problem !== undefined &&
          (problem.code === 'NOT_FOUND'
            ? `${formatLocalTime(instant)} is before the organization existed.`
            : refusalMessage(problem))}
      </FormAlert>
      {data !== undefined && !error && (
        <>
          <p className="row__detail">
            The last event by then: revision {String(data.entry.revision)}, {data.entry.description} (
            <EventTime at={data.entry.recordedAt} />
            ).
          </p>
          <h3 className="history-details__heading">State then</h3>
          <StateSummary state={data.state} label={`State as of ${formatLocalTime(instant)}`} />
        </>
      )}
    </div>
  );
}
