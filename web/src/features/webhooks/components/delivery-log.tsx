import { useState } from 'react';
import { problemOf } from '../../../api/problem';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { useWebhookDeliveriesQuery, type WebhookDelivery, type WebhookEndpoint } from '../api/webhooks-api';
import { formatDuration, formatTime, formatUtc, webhookRefusal } from '../webhook-words';

/** While the log is open, it is read again this often: a delivery shows without a reload. */
const LOG_POLL_MS = 5_000;
const PAGE = 25;

function Answer({ delivery }: { delivery: WebhookDelivery }) {
  if (delivery.status === null) return <span className="webhook-status webhook-status--failed">No answer</span>;
  return <span className={`webhook-status webhook-status--${delivery.outcome}`}>{delivery.status}</span>;
}

/**
 * The newest first, 25 at a time: time, event, attempt, the receiver's status and time to answer, why it failed, what
 * it said.
 */
export function DeliveryLog({
  organizationId,
  endpoint,
  id,
}: {
  organizationId: string;
  endpoint: WebhookEndpoint;
  id: string;
}) {
  const { data, error, isFetching, refetch } = useWebhookDeliveriesQuery(
    { organizationId, webhookId: endpoint.id },
    { pollingInterval: LOG_POLL_MS, skipPollingIfUnfocused: true },
  );
  const [shown, setShown] = useState(PAGE);
  const deliveries = data?.deliveries ?? [];
  return (
    <div className="webhook-panel" id={id} aria-busy={isFetching}>
      <div className="webhook-panel__head">
        <h3 className="webhook-panel__title">Deliveries</h3>
        <Button type="button" variant="secondary" className="button--small" onClick={() => void refetch()}>
          Check again
        </Button>
      </div>
      <p className="field__hint">
        The last 1,000 attempts, newest first; read again every 5 seconds while this is open. Times are in your time
        zone.
      </p>
      <FormAlert>{error !== undefined && webhookRefusal(problemOf(error))}</FormAlert>
      {data !== undefined && deliveries.length === 0 && (
        <p className="empty">Nothing sent yet: a delivery shows here once the next event happens.</p>
      )}
      {deliveries.length > 0 && (
        <table className="webhook-log">
          <caption className="visually-hidden">Deliveries to {endpoint.url}</caption>
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Event</th>
              <th scope="col">Attempt</th>
              <th scope="col">Answer</th>
              <th scope="col">Took</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.slice(0, shown).map((delivery) => (
              <tr key={`${delivery.eventId}-${delivery.attempt}-${delivery.at}`}>
                <td data-label="Time">
                  <time dateTime={delivery.at} title={formatUtc(delivery.at)}>
                    {formatTime(delivery.at)}
                  </time>
                </td>
                <td data-label="Event">
                  <div>
                    <code className="webhook-log__type">{delivery.eventType}</code>{' '}
                    <span className="webhook-log__position">position {delivery.position}</span>
                  </div>
                </td>
                <td data-label="Attempt">{delivery.attempt}</td>
                <td data-label="Answer">
                  <Answer delivery={delivery} />
                </td>
                <td data-label="Took">{formatDuration(delivery.ms)}</td>
                <td data-label="Details" className="webhook-log__details">
                  <div>
                    {delivery.outcome === 'failed' && (
                      <span className="webhook-log__reason">{delivery.reason ?? 'Not delivered.'} </span>
                    )}
                    {delivery.excerpt !== '' && <q className="webhook-log__excerpt">{delivery.excerpt}</q>}
                    {delivery.outcome === 'delivered' && delivery.excerpt === '' && (
                      <span className="muted">Delivered, with an empty answer</span>
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {deliveries.length > shown && (
        <div className="form__actions">
          <Button
            type="button"
            variant="secondary"
            className="button--small"
            onClick={() => setShown((count) => count + PAGE)}
          >
            Show older deliveries
          </Button>
        </div>
      )}
    </div>
  );
}
