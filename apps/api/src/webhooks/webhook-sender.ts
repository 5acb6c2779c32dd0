// What goes over the wire. `standard`: one request per event, signed as Standard Webhooks says (`webhook-id` is the
// event's own id, the same at every endpoint and on every retry, so a receiver can deduplicate; `webhook-timestamp`
// the time of sending, so a replayed old event still verifies; `webhook-signature` one `v1,` HMAC-SHA256 per secret
// that signs now). `splunk-hec` and `datadog`: the history's sentences in a batch, as those products' intake APIs
// take them, with their own authentication header.
import { createHmac } from 'node:crypto';
import { ProviderFetchError, type ProviderFetch } from '#identity';
import { WEBHOOK_EXCERPT_CHARS, type WebhookCursor, type WebhookEvent, type WebhookFormat } from '#domain';
import type { RecordedEvent } from '#event-store';

/** Events in one request of a batching format. */
export const BATCH = 50;

/** An event as a receiver sees it: the common fields, then the type's own. */
export function payloadFields(
  event: RecordedEvent,
  organizationId: string,
  webhook: WebhookEvent,
  description: string,
): WebhookPayload {
  const { actor, correlationId } = event.metadata;
  const place = { position: jsonNumber(event.position), revision: jsonNumber(event.revision) };
  const data = { organizationId, ...place, actor, correlationId, event: event.type, description, ...webhook.data };
  return { type: webhook.type, timestamp: event.recordedAt, data };
}

/** What one request of a batching format takes, never ending between an event and its entitlements.changed. */
export function wholeBatch(items: readonly Outgoing[]): Outgoing[] {
  const batch = items.slice(0, BATCH);
  return batch.at(-1)?.pairedWithNext === true ? items.slice(0, BATCH + 1) : batch;
}

/** The webhook-id of an organization event's entitlements.changed: the event's own id and this. */
export const ENTITLEMENTS_ID_SUFFIX = '.entitlements';

export type Outgoing = {
  id: string;
  event: RecordedEvent;
  payload: WebhookPayload | undefined;
  upTo: WebhookCursor;
  pairedWithNext: boolean;
};

const jsonNumber = (value: bigint): number | string =>
  value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();

/** One history event as receivers see it: `{type, timestamp, data}`. */
export type WebhookPayload = {
  type: string;
  timestamp: string;
  data: Record<string, unknown> & { organizationId: string; description: string };
};

export type SendOutcome = {
  ok: boolean;
  status: number | null;
  ms: number;
  excerpt: string;
  reason: string;
  gone: boolean;
};

export type Request = { headers: Record<string, string>; body: string };

export function signatures(keys: readonly Buffer[], id: string, timestampSeconds: number, body: string): string {
  const signed = `${id}.${timestampSeconds}.${body}`;
  return keys.map((key) => `v1,${createHmac('sha256', key).update(signed).digest('base64')}`).join(' ');
}

export function standardRequest(keys: readonly Buffer[], id: string, payload: WebhookPayload, nowMs: number): Request {
  const body = JSON.stringify(payload);
  const timestamp = Math.floor(nowMs / 1000);
  return {
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatures(keys, id, timestamp, body),
    },
    body,
  };
}

/** Splunk's HTTP Event Collector (`/services/collector/event`): one JSON object per event, one after the other. */
export function splunkHecRequest(token: string, payloads: readonly WebhookPayload[]): Request {
  const body = payloads
    .map(({ type, timestamp, data }) =>
      JSON.stringify({
        time: Date.parse(timestamp) / 1000,
        source: 'chorus',
        sourcetype: 'chorus:history',
        event: { type, ...data },
      }),
    )
    .join('\n');
  return { headers: { 'content-type': 'application/json', authorization: `Splunk ${token}` }, body };
}

/** Datadog's log intake (`/api/v2/logs`): a JSON array of logs, the sentence as each one's message. */
export function datadogRequest(token: string, payloads: readonly WebhookPayload[]): Request {
  const logs = payloads.map(({ type, timestamp, data }) => ({
    ddsource: 'chorus',
    service: 'chorus',
    ddtags: `organization:${data.organizationId},event:${type}`,
    date: timestamp,
    message: data.description,
    chorus: { type, ...data },
  }));
  return { headers: { 'content-type': 'application/json', 'dd-api-key': token }, body: JSON.stringify(logs) };
}

export function batchRequest(
  format: Exclude<WebhookFormat, 'standard'>,
  token: string,
  payloads: readonly WebhookPayload[],
): Request {
  return format === 'splunk-hec' ? splunkHecRequest(token, payloads) : datadogRequest(token, payloads);
}

export async function send(
  fetch: ProviderFetch,
  url: string,
  request: Request,
  now: () => number,
): Promise<SendOutcome> {
  const started = now();
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'user-agent': 'Chorus-Webhooks/1', ...request.headers },
      body: request.body,
    });
    const ms = now() - started;
    const excerpt = (await response.text()).slice(0, WEBHOOK_EXCERPT_CHARS);
    const { status } = response;
    if (status >= 200 && status < 300) return { ok: true, status, ms, excerpt, reason: '', gone: false };
    const reason =
      status === 410
        ? 'The receiver answered 410 Gone: the endpoint is disabled.'
        : status >= 300 && status < 400
          ? `The receiver answered ${status}: redirects are not followed; give the URL it redirects to.`
          : `The receiver answered ${status}.`;
    return { ok: false, status, ms, excerpt, reason, gone: status === 410 };
  } catch (error) {
    const reason = error instanceof ProviderFetchError ? error.message : `No answer: ${(error as Error).message}`;
    return { ok: false, status: null, ms: now() - started, excerpt: '', reason, gone: false };
  }
}
