// One endpoint's deliveries: where it is in its organization's history, who is sending, and what its receiver
// answered. Every append is at the revision the sender read, so a node that lost its claim cannot record over the
// node that took it; the delivery log is this stream read backwards.
import type { Decider } from '../decider.js';
import { mailClaimDuty, type MailClaim, type MailDuty } from '../mail/mail-claim.js';

/**
 * Where an endpoint is: every event up to `position` of the log is done (delivered or passed over), and `revision`
 * is the organization's revision there. The organization's events are read after `revision`, its members' own
 * events (sign-ins, factors, sessions) after `position`, and sent merged in the log's order.
 */
export type WebhookCursor = { revision: bigint; position: bigint };
export type WebhookCursorData = { revision: string; position: string };
export const cursorData = ({ revision, position }: WebhookCursor): WebhookCursorData => ({
  revision: revision.toString(),
  position: position.toString(),
});
export const cursorOf = ({ revision, position }: WebhookCursorData): WebhookCursor => ({
  revision: BigInt(revision),
  position: BigInt(position),
});
/** Before the organization's first event. */
export const WEBHOOK_CURSOR_START: WebhookCursor = { revision: -1n, position: -1n };

export const webhookDeliveriesStreamPrefix = 'webhook-deliveries-';
export const webhookDeliveriesStream = (endpointId: string): string => `${webhookDeliveriesStreamPrefix}${endpointId}`;

/** A sender holds an endpoint this long after its last record; a node that stopped is taken over after it. */
export const WEBHOOK_CLAIM_MS = 30_000;
export const WEBHOOK_FIRST_RETRY_MS = 5_000;
export const WEBHOOK_MAX_RETRY_MS = 10 * 3_600_000;
/** Failing this long since the first failure of one event, the endpoint is disabled. */
export const WEBHOOK_GIVE_UP_MS = 3 * 24 * 3_600_000;
/** The receiver's answer kept in the delivery log, in characters. */
export const WEBHOOK_EXCERPT_CHARS = 200;

export type WebhookAttempt = {
  /** The event's revision in its own stream, its position and id. */
  revision: string;
  position: string;
  eventId: string;
  eventType: string;
  /** Events sent in the request (a batching format); the others' fields are its last event's. */
  count?: number;
  /** The cursor once it is delivered. */
  upTo: WebhookCursorData;
  attempt: number;
  /** Null: no answer (refused, timed out, not a public address). */
  status: number | null;
  ms: number;
  excerpt: string;
  sender: string;
  at: string;
};

export type WebhookDeliveryClaimed = { type: 'WebhookDeliveryClaimed'; data: { sender: string; at: string } };
export type WebhookDelivered = { type: 'WebhookDelivered'; data: WebhookAttempt };
export type WebhookDeliveryFailed = {
  type: 'WebhookDeliveryFailed';
  data: WebhookAttempt & { reason: string; nextAttemptAt: string };
};
/** The cursor moved back for a replay asked for on the endpoint (WebhookReplayRequested). */
export type WebhookReplayStarted = {
  type: 'WebhookReplayStarted';
  data: { replayId: string; after: WebhookCursorData; sender: string; at: string };
};
/** Events of types the endpoint does not take, passed over in one record. */
export type WebhookEventsSkipped = {
  type: 'WebhookEventsSkipped';
  data: { upTo: WebhookCursorData; sender: string; at: string };
};

export type WebhookDeliveryEvent =
  WebhookDeliveryClaimed | WebhookDelivered | WebhookDeliveryFailed | WebhookReplayStarted | WebhookEventsSkipped;

export type WebhookDeliveryState = {
  claim: MailClaim | undefined;
  /** Undefined: nothing done yet (the endpoint's `startAfter`). */
  doneUpTo: WebhookCursor | undefined;
  replayId: string | null;
  /** The event at the head of the line while its receiver fails. */
  failing: { eventId: string; attempts: number; firstFailedAt: string; nextAttemptAt: string } | null;
  lastAttempt: WebhookAttempt | null;
};

export const noWebhookDeliveries: WebhookDeliveryState = {
  claim: undefined,
  doneUpTo: undefined,
  replayId: null,
  failing: null,
  lastAttempt: null,
};

/**
 * A delivery that leaves the cursor where it was (an event whose `entitlements.changed` follows it) keeps a failure.
 */
const moves = (done: WebhookCursor | undefined, upTo: WebhookCursorData): boolean =>
  done === undefined || BigInt(upTo.position) > done.position;

export function evolveWebhookDeliveries(
  state: WebhookDeliveryState,
  event: WebhookDeliveryEvent,
): WebhookDeliveryState {
  switch (event.type) {
    case 'WebhookDeliveryClaimed':
      return { ...state, claim: { sender: event.data.sender, claimedAt: event.data.at } };
    case 'WebhookDelivered':
      return {
        ...state,
        claim: { sender: event.data.sender, claimedAt: event.data.at },
        doneUpTo: cursorOf(event.data.upTo),
        failing: moves(state.doneUpTo, event.data.upTo) ? null : state.failing,
        lastAttempt: event.data,
      };
    case 'WebhookDeliveryFailed': {
      const { eventId } = event.data;
      const firstFailedAt = state.failing?.eventId === eventId ? state.failing.firstFailedAt : event.data.at;
      return {
        ...state,
        claim: { sender: event.data.sender, claimedAt: event.data.at },
        failing: { eventId, attempts: event.data.attempt, firstFailedAt, nextAttemptAt: event.data.nextAttemptAt },
        lastAttempt: event.data,
      };
    }
    case 'WebhookReplayStarted':
      return {
        ...state,
        claim: { sender: event.data.sender, claimedAt: event.data.at },
        doneUpTo: cursorOf(event.data.after),
        replayId: event.data.replayId,
        failing: null,
      };
    case 'WebhookEventsSkipped':
      return {
        ...state,
        claim: { sender: event.data.sender, claimedAt: event.data.at },
        doneUpTo: cursorOf(event.data.upTo),
      };
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

/** Doubling from 5 s after the first failure (5, 10, 20, 40 s...), at most 10 h apart. */
export function webhookRetryDelayMs(failedAttempts: number): number {
  return Math.min(WEBHOOK_FIRST_RETRY_MS * 2 ** Math.max(failedAttempts - 1, 0), WEBHOOK_MAX_RETRY_MS);
}

export const webhookGivenUp = (state: WebhookDeliveryState, now: Date): boolean =>
  state.failing !== null && now.getTime() - Date.parse(state.failing.firstFailedAt) >= WEBHOOK_GIVE_UP_MS;

export const webhookSenderDuty = (state: WebhookDeliveryState, sender: string, now: Date): MailDuty =>
  mailClaimDuty(false, state.claim, sender, now, WEBHOOK_CLAIM_MS);

export type TriedDelivery = {
  attempt: Omit<WebhookAttempt, 'attempt' | 'at' | 'sender'>;
  ok: boolean;
  reason: string;
  at: Date;
};

export type WebhookDeliveryCommand =
  | { type: 'ClaimWebhookDeliveries'; data: { sender: string; at: Date } }
  /** A run of attempts in the order they were made, each at its own time: only the last may have failed. */
  | { type: 'RecordWebhookAttempts'; data: { tried: readonly TriedDelivery[]; sender: string; at: Date } }
  | { type: 'StartWebhookReplay'; data: { replayId: string; after: WebhookCursor; sender: string; at: Date } }
  | { type: 'SkipWebhookEvents'; data: { upTo: WebhookCursor; sender: string; at: Date } };

export function decideWebhookDeliveries(
  command: WebhookDeliveryCommand,
  state: WebhookDeliveryState,
): WebhookDeliveryEvent[] {
  const at = command.data.at.toISOString();
  const sender = command.data.sender;
  // A sender records only while the endpoint is its own: decided again after losing a race, it records nothing.
  if (command.type === 'ClaimWebhookDeliveries') {
    return webhookSenderDuty(state, sender, command.data.at).kind === 'claim'
      ? [{ type: 'WebhookDeliveryClaimed', data: { sender, at } }]
      : [];
  }
  if (state.claim?.sender !== sender) return [];
  switch (command.type) {
    case 'RecordWebhookAttempts': {
      const events: WebhookDeliveryEvent[] = [];
      let failing = state.failing;
      let done = state.doneUpTo;
      for (const { attempt: tried, ok, reason, at: triedAt } of command.data.tried) {
        const attempt = failing?.eventId === tried.eventId ? failing.attempts + 1 : 1;
        const data: WebhookAttempt = { ...tried, attempt, sender, at: triedAt.toISOString() };
        if (ok) {
          events.push({ type: 'WebhookDelivered', data });
          if (moves(done, tried.upTo)) failing = null;
          done = cursorOf(tried.upTo);
          continue;
        }
        const nextAttemptAt = new Date(triedAt.getTime() + webhookRetryDelayMs(attempt)).toISOString();
        events.push({ type: 'WebhookDeliveryFailed', data: { ...data, reason, nextAttemptAt } });
        break;
      }
      return events;
    }
    case 'StartWebhookReplay':
      return [
        {
          type: 'WebhookReplayStarted',
          data: { replayId: command.data.replayId, after: cursorData(command.data.after), sender, at },
        },
      ];
    case 'SkipWebhookEvents':
      return state.doneUpTo !== undefined && state.doneUpTo.position >= command.data.upTo.position
        ? []
        : [{ type: 'WebhookEventsSkipped', data: { upTo: cursorData(command.data.upTo), sender, at } }];
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}

export const webhookDeliveriesDecider: Decider<WebhookDeliveryState, WebhookDeliveryCommand, WebhookDeliveryEvent> = {
  streamOf: webhookDeliveriesStream,
  initialState: noWebhookDeliveries,
  evolve: evolveWebhookDeliveries,
  decide: decideWebhookDeliveries,
};

export const foldWebhookDeliveries = (events: readonly WebhookDeliveryEvent[]): WebhookDeliveryState =>
  events.reduce(evolveWebhookDeliveries, noWebhookDeliveries);
