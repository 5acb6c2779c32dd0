import '../webhooks.css';
import type { Organization } from '../../../api/contract';
import { problemOf } from '../../../api/problem';
import { PageHeader } from '../../../components/layout/page-header';
import { Section } from '../../../components/layout/section';
import { FormAlert } from '../../../components/ui/form-alert';
import { useListWebhooksQuery } from '../api/webhooks-api';
import { webhookRefusal } from '../webhook-words';
import { AddEndpointForm } from './add-endpoint-form';
import { EndpointList } from './endpoint-list';

/** An organization has at most this many endpoints (the server decides; the page only says it). */
const MOST_ENDPOINTS = 10;

const countText = (count: number): string =>
  count === 0
    ? 'None yet: add one below.'
    : `${count} of ${MOST_ENDPOINTS} endpoints. Each gets every event it takes, in the history’s order.`;

/** Owners and admins (the route says so to everyone else). */
export function Webhooks({ organization }: { organization: Organization }) {
  const { data, error, fulfilledTimeStamp } = useListWebhooksQuery(organization.id);
  const endpoints = data?.endpoints ?? [];
  return (
    <>
      <PageHeader title="Webhooks">
        {organization.name}’s history, sent as it happens to your own systems: a receiver of yours, Splunk or Datadog.
      </PageHeader>
      <div className="stack">
        <Section title="Endpoints" description={data === undefined ? undefined : countText(endpoints.length)}>
          <FormAlert>{error !== undefined && webhookRefusal(problemOf(error))}</FormAlert>
          {data === undefined && error === undefined && (
            <p className="muted" role="status">
              Reading the endpoints…
            </p>
          )}
          {endpoints.length > 0 && (
            <EndpointList organizationId={organization.id} endpoints={endpoints} readAt={fulfilledTimeStamp ?? 0} />
          )}
        </Section>
        <Section
          title="Add endpoint"
          description="A receiver of yours gets every event signed as Standard Webhooks says, with a secret shown once when the endpoint is added. Splunk and Datadog get them in batches, with their own token."
        >
          <AddEndpointForm organization={organization} />
        </Section>
      </div>
    </>
  );
}
