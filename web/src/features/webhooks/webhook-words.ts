// The Webhooks page's words: the catalogue's event types as people say them, the formats, refusals, times with their
// zone, a test event's outcome.
import type { Problem } from '../../api/contract';
import { refusalMessage } from '../../api/refusals';
import type { BatchingFormat, WebhookFormat, WebhookTestResult } from './api/webhooks-api';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@libs/domain/webhooks/webhook-catalogue';

export { WEBHOOK_EVENT_TYPES, type WebhookEventType };

/** docs/webhooks.md, The event types. */
export const EVENT_TYPE_NAMES: Record<WebhookEventType, string> = {
  'organization.created': 'Organization created',
  'plan.changed': 'Plan changed or ended',
  'addon.purchased': 'Add-on purchased',
  'addon.cancelled': 'Add-on cancelled',
  'member.added': 'Member added',
  'member.removed': 'Member removed',
  'member.role_changed': 'Member’s role changed',
  'site.added': 'Site added',
  'site.removed': 'Site removed',
  'domain.added': 'Domain added',
  'domain.removed': 'Domain removed',
  'sso.changed': 'Single sign-on changed',
  'signin_policy.changed': 'Two-step sign-in required or not',
  'traffic.threshold_reached': 'Traffic at 80% or 100% of the month’s allowance',
  'person.erased': 'A person’s data erased',
  'signin.succeeded': 'A member signed in',
  'signin.failed': 'A member’s sign-in failed',
  'factor.added': 'A member added a second factor',
  'factor.removed': 'A member’s second factor removed',
  'session.revoked': 'A member’s session ended',
  'entitlements.changed': 'Entitlements changed (with the OFREP ETag)',
};

/** docs/webhooks.md, Splunk and Datadog; in the order the add form offers them. */
export const FORMAT_NAMES: Record<WebhookFormat, string> = {
  standard: 'Standard Webhooks (signed JSON)',
  'splunk-hec': 'Splunk HTTP Event Collector',
  datadog: 'Datadog logs',
};

export const WEBHOOK_FORMATS = Object.keys(FORMAT_NAMES) as WebhookFormat[];

/** The product's own name for what it gave the customer. */
export const TOKEN_NAMES: Record<BatchingFormat, string> = {
  'splunk-hec': 'Splunk HEC token',
  datadog: 'Datadog API key',
};

export const isBatching = (format: WebhookFormat): format is BatchingFormat => format !== 'standard';

/** A batching format's token left out, or refused by the server. */
export const tokenRefusal = (format: BatchingFormat): string =>
  `Enter the ${TOKEN_NAMES[format]} that Chorus sends with each batch.`;

export const ALL_EVENTS = '*';

export const takesAll = (events: readonly string[]): boolean => events.includes(ALL_EVENTS);

/** "All events", or the types by their names in the catalogue's order. */
export const eventsText = (events: readonly string[]): string => (takesAll(events) ? 'All events' : events.join(', '));

const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium' });

/** "25 Nov 2026, 10:00:05", in the browser's time zone (the UTC instant goes in a title). */
export const formatTime = (iso: string): string => dateTime.format(new Date(iso));

/** As `formatTime`, in the zone named (the replay form's choice). */
export const formatTimeIn = (iso: string, timeZone: string): string =>
  new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone }).format(new Date(iso));

/** "2026-11-25 10:00:05 UTC" */
export const formatUtc = (iso: string): string => `${new Date(iso).toISOString().slice(0, 19).replace('T', ' ')} UTC`;

/** The browser's own zone by name ("Europe/Berlin"), as the replay form says it. */
export const localTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** How far `timeZone`'s wall clock is ahead of UTC at `ms`, in milliseconds. */
function offsetAt(ms: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(ms));
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    Number(parts.find((candidate) => candidate.type === type)?.value ?? 0);
  const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  return wall - Math.floor(ms / 1_000) * 1_000;
}

/**
 * A `datetime-local` value read as a wall clock in the zone named ("Europe/Berlin", "UTC"): the instant, or undefined.
 */
export function instantOf(value: string, timeZone: string): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/.exec(value);
  if (match === null) return undefined;
  const [year, month, day, hour, minute, second = '0', fraction = '0'] = match.slice(1);
  const wall = Date.UTC(
    Number(year),
    Number(month) - 1,
    Number(day),
    Number(hour),
    Number(minute),
    Number(second),
    Number(fraction.padEnd(3, '0')),
  );
  if (Number.isNaN(wall)) return undefined;
  // The offset at the guess, then at the result: right on both sides of a change to or from summer time.
  const first = wall - offsetAt(wall, timeZone);
  const instant = wall - offsetAt(first, timeZone);
  return new Date(instant).toISOString();
}

/** "35 ms", "1.2 s" */
export const formatDuration = (ms: number): string =>
  ms < 1_000 ? `${Math.round(ms)} ms` : `${(ms / 1_000).toFixed(1)} s`;

/** "Test event delivered: your endpoint answered 200 in 45 ms.", or why not in the server's own sentence. */
export function testEventText(result: WebhookTestResult): string {
  if (result.delivered) {
    const took = formatDuration(result.ms);
    return result.status === null
      ? `Test event delivered in ${took}.`
      : `Test event delivered: your endpoint answered ${result.status} in ${took}.`;
  }
  const reason =
    result.reason !== ''
      ? result.reason
      : result.status === null
        ? 'No answer.'
        : `The receiver answered ${result.status}.`;
  return `Test event not delivered: ${reason}`;
}

const firstPointer = (problem: Problem): string | undefined => {
  const errors = Array.isArray(problem.errors) ? (problem.errors as { pointer?: unknown }[]) : [];
  const pointer = errors.map((error) => error.pointer).find((value): value is string => typeof value === 'string');
  return pointer === undefined ? undefined : pointer.replace(/^#\//, '').split('/')[0];
};

const details = (problem: Problem): string =>
  [
    problem.detail,
    ...(Array.isArray(problem.errors)
      ? (problem.errors as { detail?: unknown }[]).map((error) => String(error.detail ?? ''))
      : []),
  ].join(' ');

/** The field a refusal is about: the form marks it. */
export function refusedField(problem: Problem | null): string | undefined {
  if (problem === null || problem.code !== 'VALIDATION_FAILED') return undefined;
  return firstPointer(problem);
}

const FIELD_WORDS: Record<string, string> = {
  url: 'Enter the endpoint’s full address, starting with https:// or http://, like https://hooks.example.com/chorus.',
  events: 'Choose at least one event type, or All events.',
  description: 'Keep the description to 500 characters.',
  token: 'Enter the token that Chorus sends with each batch.',
  fromPosition: 'Enter a position: a whole number, like 1042.',
  fromTime: 'Enter a date and time.',
};

/** Every refusal of the webhook routes in words; anything else as the console says it everywhere. */
export function webhookRefusal(problem: Problem): string {
  switch (problem.code) {
    case 'LIMIT_EXCEEDED': {
      const count = Number(problem.count ?? problem.limit);
      return `This organization has ${Number.isFinite(count) ? count : 'all the'} endpoints, the most it can have. Delete one first.`;
    }
    case 'VALIDATION_FAILED': {
      const field = firstPointer(problem);
      const said = details(problem);
      if (field === 'url' && /user name or password/.test(said)) {
        return 'Leave the user name and password out of the URL: it is recorded in the history, which others can read. If your receiver needs a token, put it in the path.';
      }
      const address = /(\S+) is not a public address/.exec(said)?.[1];
      if (field === 'url' && address !== undefined)
        return `${address} is not a public address: webhooks are sent only to public addresses.`;
      return (field === undefined ? undefined : FIELD_WORDS[field]) ?? refusalMessage(problem);
    }
    case 'NOT_FOUND':
      return problem.entity === 'webhook'
        ? 'This endpoint is no longer there: it was deleted. The list is up to date now.'
        : refusalMessage(problem);
    case 'FORBIDDEN':
      return 'Only owners and admins manage webhooks.';
    default:
      return refusalMessage(problem);
  }
}
