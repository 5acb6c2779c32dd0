import { problemOf } from '../../../api/problem';
import { useWebhookDeliveriesQuery, type WebhookEndpoint } from '../api/webhooks-api';
import { formatTime, formatUtc, webhookRefusal } from '../webhook-words';

/** The endpoint's health while the page is looked at: the newest delivery, read again every 10 s. */
const HEALTH_POLL_MS = 10_000;

function When({ at }: { at: string }) {
  return (
    <time dateTime={at} title={formatUtc(at)}>
      {formatTime(at)}
    </time>
  );
}

/** "Turned off: …" first: while off, the newest delivery is history, not health. */
export function EndpointHealth({ organizationId, endpoint }: { organizationId: string; endpoint: WebhookEndpoint }) {
  const { data, error } = useWebhookDeliveriesQuery(
    { organizationId, webhookId: endpoint.id },
    { pollingInterval: HEALTH_POLL_MS, skipPollingIfUnfocused: true },
  );
  const newest = data?.deliveries[0];
  if (!endpoint.enabled) {
    return (
      <p className="webhook-health webhook-health--off">
        {endpoint.disabledReason === null
          ? 'Turned off. Nothing is sent until it is turned on again.'
          : `Turned off: ${endpoint.disabledReason}`}
      </p>
    );
  }
  if (error !== undefined)
    return <p className="webhook-health webhook-health--failed">{webhookRefusal(problemOf(error))}</p>;
  if (data === undefined) return <p className="webhook-health muted">Reading the deliveries…</p>;
  if (newest === undefined) return <p className="webhook-health muted">No deliveries yet.</p>;
  if (newest.outcome === 'delivered') {
    return (
      <p className="webhook-health webhook-health--ok">
        Last delivery: {newest.eventType}, answered {newest.status ?? 'in time'} on <When at={newest.at} />.
      </p>
    );
  }
  return (
    <p className="webhook-health webhook-health--failed">
      Failing: {newest.eventType}, attempt {newest.attempt} on <When at={newest.at} />. {newest.reason ?? ''}
      {newest.nextAttemptAt !== undefined && (
        <>
          {' '}
          Next attempt on <When at={newest.nextAttemptAt} />.
        </>
      )}
    </p>
  );
}
