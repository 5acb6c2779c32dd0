import type { Organization } from '../../../api/contract';
import { problemOf } from '../../../api/problem';
import { refusalMessage } from '../../../api/refusals';
import { PageHeader } from '../../../components/layout/page-header';
import { Section } from '../../../components/layout/section';
import { FormAlert } from '../../../components/ui/form-alert';
import { formatDateTime } from '../../../lib/date-time';
import { useGetHistoryQuery } from '../api/history-api';
import { describeActor, describeEvent } from '../describe-event';

const PAGE = 50;

/** The organization's most recent events, newest first (the audit explorer replaces this page). */
export function History({ organization }: { organization: Organization }) {
  const revision = Number(organization.revision);
  const fromRevision = Math.max(0, revision - PAGE + 1);
  const { data, error, isLoading } = useGetHistoryQuery({ organizationId: organization.id, fromRevision, limit: PAGE });
  const events = [...(data?.events ?? [])].reverse();
  const emails = new Map([
    ...organization.members.map((member) => [member.userId, member.email] as const),
    ...(data?.events ?? []).filter((event) => event.type === 'MemberAdded').map((event) => [String(event.data.userId), String(event.data.email)] as const),
  ]);
  return (
    <>
      <PageHeader title="History">Every change to {organization.name}, as recorded, newest first.</PageHeader>
      <Section title="Recent events" description={fromRevision > 0 ? `The ${PAGE} most recent of ${revision + 1} events.` : `All ${revision + 1} events.`}>
        <FormAlert>{error !== undefined && refusalMessage(problemOf(error))}</FormAlert>
        {isLoading && <p className="muted">Loading the history…</p>}
        <ol className="rows timeline" aria-label="Events, newest first">
          {events.map((event) => (
            <li className="row" key={event.id}>
              <div className="row__main">
                <span className="row__title">{describeEvent(event, emails)}</span>
                <span className="row__detail">
                  <time dateTime={event.recordedAt}>{formatDateTime(event.recordedAt)}</time> · {describeActor(event.metadata.actor, organization.members)} · revision {String(event.revision)}
                </span>
              </div>
            </li>
          ))}
        </ol>
      </Section>
    </>
  );
}
