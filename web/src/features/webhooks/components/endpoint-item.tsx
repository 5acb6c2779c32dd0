import { useId, useState } from 'react';
import { problemOf } from '../../../api/problem';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { useSendTestWebhookEventMutation, type WebhookEndpoint } from '../api/webhooks-api';
import { FORMAT_NAMES, eventsText, formatTime, formatUtc, testEventText, webhookRefusal } from '../webhook-words';
import { DeliveryLog } from './delivery-log';
import { EndpointHealth } from './endpoint-health';
import { ReplayForm } from './replay-form';
import { SecretOnce } from '../../../components/ui/secret-once';

export type EndpointActions = {
  /** Each answers whether it was done; a refusal is the list's to show. */
  setEnabled: (endpoint: WebhookEndpoint, enabled: boolean) => Promise<boolean>;
  remove: (endpoint: WebhookEndpoint) => Promise<boolean>;
  rotate: (endpoint: WebhookEndpoint) => Promise<{ secret: string; previousSecretValidUntil: string } | null>;
};

type Panel = 'deliveries' | 'replay' | null;
type Asking = 'delete' | 'rotate' | null;
/** The last test event's outcome in words; `excerpt`: the start of a failing receiver's answer. */
type Tested = { delivered: boolean; text: string; excerpt: string };

/** `readAt`: when the list was read (the previous secret's overlap is said while it lasted then). */
type EndpointItemProps = {
  organizationId: string;
  endpoint: WebhookEndpoint;
  readAt: number;
  busy: boolean;
  actions: EndpointActions;
  rowId: string;
};

export function EndpointItem({ organizationId, endpoint, readAt, busy, actions, rowId }: EndpointItemProps) {
  const [panel, setPanel] = useState<Panel>(null);
  const [asking, setAsking] = useState<Asking>(null);
  const [working, setWorking] = useState(false);
  const [secret, setSecret] = useState<{ secret: string; until: string } | null>(null);
  const [sendTestEvent, { isLoading: sending }] = useSendTestWebhookEventMutation();
  const [tested, setTested] = useState<Tested | null>(null);
  const panelId = useId();
  const rotatedUntil =
    endpoint.secretRotatedUntil !== null && Date.parse(endpoint.secretRotatedUntil) > readAt
      ? endpoint.secretRotatedUntil
      : null;
  const toggle = (next: Exclude<Panel, null>) => setPanel((current) => (current === next ? null : next));

  async function confirm() {
    setWorking(true);
    try {
      if (asking === 'delete') await actions.remove(endpoint);
      if (asking === 'rotate') {
        const rotated = await actions.rotate(endpoint);
        if (rotated !== null) setSecret({ secret: rotated.secret, until: rotated.previousSecretValidUntil });
      }
    } finally {
      setWorking(false);
      setAsking(null);
    }
  }

  async function sendTest() {
    // Emptied first, so the same outcome twice is announced twice.
    setTested(null);
    try {
      const result = await sendTestEvent({ organizationId, webhookId: endpoint.id }).unwrap();
      setTested({
        delivered: result.delivered,
        text: testEventText(result),
        excerpt: result.delivered ? '' : result.excerpt,
      });
    } catch (error) {
      setTested({ delivered: false, text: `Test event not sent: ${webhookRefusal(problemOf(error))}`, excerpt: '' });
    }
  }

  return (
    <li className="webhook" id={rowId} tabIndex={-1} aria-labelledby={`${rowId}-url`}>
      <div className="webhook__head">
        <div className="webhook__main">
          <span className="row__title">
            <span className="webhook__url" id={`${rowId}-url`}>
              {endpoint.url}
            </span>
            <span className={`tag ${endpoint.enabled ? 'tag--verified' : 'tag--unverified'}`}>
              {endpoint.enabled ? 'On' : 'Off'}
            </span>
          </span>
          {endpoint.description !== '' && (
            <span className="row__detail webhook__description">{endpoint.description}</span>
          )}
          <span className="row__detail">Events: {eventsText(endpoint.events)}</span>
          <span className="row__detail">Format: {FORMAT_NAMES[endpoint.format]}</span>
          <EndpointHealth organizationId={organizationId} endpoint={endpoint} />
          {rotatedUntil !== null && (
            <span className="row__detail">
              The previous secret signs too until{' '}
              <time dateTime={rotatedUntil} title={formatUtc(rotatedUntil)}>
                {formatTime(rotatedUntil)}
              </time>
              .
            </span>
          )}
        </div>
        <div className="webhook__actions">
          <button
            type="button"
            className="link-button"
            aria-expanded={panel === 'deliveries'}
            aria-controls={panelId}
            onClick={() => toggle('deliveries')}
          >
            Deliveries<span className="visually-hidden"> to {endpoint.url}</span>
          </button>
          {/* Both words take the same place, so nothing beside the button moves while it sends. */}
          <button
            type="button"
            className="link-button webhook__test"
            disabled={sending}
            onClick={() => void sendTest()}
          >
            <span
              className={sending ? 'webhook__test-words webhook__test-words--away' : 'webhook__test-words'}
              aria-hidden={sending || undefined}
            >
              Send test event<span className="visually-hidden"> to {endpoint.url}</span>
            </span>
            <span
              className={sending ? 'webhook__test-words' : 'webhook__test-words webhook__test-words--away'}
              aria-hidden={!sending || undefined}
            >
              Sending…
            </span>
          </button>
          <button
            type="button"
            className="link-button"
            aria-expanded={panel === 'replay'}
            aria-controls={panelId}
            onClick={() => toggle('replay')}
          >
            Replay from…<span className="visually-hidden"> to {endpoint.url}</span>
          </button>
          {/* A batching format's deliveries carry the product's token, not a signature. */}
          {endpoint.format === 'standard' && (
            <button type="button" className="link-button" onClick={() => setAsking('rotate')}>
              New secret<span className="visually-hidden"> for {endpoint.url}</span>
            </button>
          )}
          <button
            type="button"
            className="link-button"
            disabled={busy}
            onClick={() => void actions.setEnabled(endpoint, !endpoint.enabled)}
          >
            {endpoint.enabled ? 'Turn off' : 'Turn on'}
            <span className="visually-hidden"> {endpoint.url}</span>
          </button>
          <button type="button" className="link-button link-button--danger" onClick={() => setAsking('delete')}>
            Delete<span className="visually-hidden"> {endpoint.url}</span>
          </button>
        </div>
        <div className="webhook-test" role="status">
          {tested !== null && (
            <p className={`webhook-test__result webhook-test__result--${tested.delivered ? 'delivered' : 'failed'}`}>
              {tested.text}
              {tested.excerpt !== '' && (
                <span className="webhook-test__excerpt">
                  <span className="visually-hidden">Its answer: </span>
                  {tested.excerpt}
                </span>
              )}
            </p>
          )}
        </div>
      </div>
      {secret !== null && (
        <SecretOnce
          title={`New signing secret for ${endpoint.url}`}
          secret={secret.secret}
          onDone={() => setSecret(null)}
        >
          <p>
            Shown only now. The old secret keeps working for 24 hours, until {formatTime(secret.until)}: both sign every
            delivery until then, so put the new one in your receiver before that.
          </p>
        </SecretOnce>
      )}
      {panel === 'deliveries' && <DeliveryLog organizationId={organizationId} endpoint={endpoint} id={panelId} />}
      {panel === 'replay' && (
        <ReplayForm organizationId={organizationId} endpoint={endpoint} id={panelId} onClose={() => setPanel(null)} />
      )}
      {asking === 'delete' && (
        <ConfirmDialog
          title={`Delete ${endpoint.url}?`}
          confirm="Delete"
          busy={working}
          onConfirm={() => void confirm()}
          onCancel={() => setAsking(null)}
        >
          Nothing more is sent to it, and its secrets are erased. Its delivery log goes with it. To send there again,
          add it again: it gets a new secret.
        </ConfirmDialog>
      )}
      {asking === 'rotate' && (
        <ConfirmDialog
          title={`Make a new secret for ${endpoint.url}?`}
          confirm="Make a new secret"
          busy={working}
          onConfirm={() => void confirm()}
          onCancel={() => setAsking(null)}
        >
          The new secret is shown once. The current one keeps signing deliveries for 24 hours too, so your receiver can
          switch to the new one without losing a delivery.
        </ConfirmDialog>
      )}
    </li>
  );
}
