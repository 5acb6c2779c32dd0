import type { Organization } from '../../../api/contract';
import { useGetNotificationRecipientsQuery } from '../../../api/organization-api';
import { problemOf } from '../../../api/problem';
import { refusalMessage } from '../../../api/refusals';
import { Section } from '../../../components/layout/section';

/** Seed section 6. */
function rule(organization: Organization): string {
  if (!organization.chorus) return 'Chorus is off, so Chorus notifies no one.';
  if (organization.chorusDetails.parallelUse === true)
    return 'Chorus runs in parallel with Classic, so only members marked as Chorus users are notified.';
  return 'Chorus is on without parallel use, so every member is notified.';
}

export function NotificationRecipients({ organization }: { organization: Organization }) {
  const { data, error, isLoading } = useGetNotificationRecipientsQuery(organization.id);
  return (
    <Section title="Notification recipients" description={rule(organization)}>
      {isLoading && <p className="muted">Loading…</p>}
      {error !== undefined && <p className="muted">{refusalMessage(problemOf(error))}</p>}
      {data !== undefined &&
        (data.recipients.length === 0 ? (
          <p className="muted">Nobody is notified.</p>
        ) : (
          <ul className="plain-list">
            {data.recipients.map((recipient) => (
              <li key={recipient.userId}>{recipient.email}</li>
            ))}
          </ul>
        ))}
    </Section>
  );
}
