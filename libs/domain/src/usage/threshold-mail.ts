// A mail to an organization's owners about one of its events (a traffic threshold reached, a failed payment,
// a trial ending): sent once, whichever node sends it. Its own stream per event (`threshold-mail-<event id>`
// for thresholds, `owner-mail-<event id>` for the others) records who claimed it (mail-claim.ts) and that it went out.
import { mailClaimDuty, type MailClaim, type MailDuty } from '../mail/mail-claim.js';

export const thresholdMailStreamPrefix = 'threshold-mail-';
/** The mail owed for one TrafficThresholdReached event, named by that event's id. */
export const thresholdMailStream = (reachedEventId: string): string => `${thresholdMailStreamPrefix}${reachedEventId}`;

/** The mail owed for any other organization event the owners are told about (a failed payment, a trial ending). */
export const ownerMailStream = (eventType: string, eventId: string): string =>
  eventType === 'TrafficThresholdReached' ? thresholdMailStream(eventId) : `owner-mail-${eventId}`;

export type ThresholdMailClaimed = { type: 'ThresholdMailClaimed'; data: { organizationId: string; sender: string; at: string } };
/** `to`: the owners it went to; none when the organization had no owner with an address (nothing to send). */
export type ThresholdMailSent = { type: 'ThresholdMailSent'; data: { organizationId: string; to: string[]; at: string } };
export type ThresholdMailEvent = ThresholdMailClaimed | ThresholdMailSent;

export type ThresholdMailState = { claim: MailClaim | undefined; sent: boolean };

export const initialThresholdMailState = (): ThresholdMailState => ({ claim: undefined, sent: false });

export function evolveThresholdMail(state: ThresholdMailState, event: ThresholdMailEvent): ThresholdMailState {
  switch (event.type) {
    case 'ThresholdMailClaimed':
      return { ...state, claim: { sender: event.data.sender, claimedAt: event.data.at } };
    case 'ThresholdMailSent':
      return { ...state, sent: true };
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

/** Who sends the mail now, as `sender` sees it at `now`. */
export const thresholdMailDuty = (state: ThresholdMailState, sender: string, now: Date, claimMs: number): MailDuty =>
  mailClaimDuty(state.sent, state.claim, sender, now, claimMs);

/** What `sender` records before sending: its claim, when the duty is to claim; nothing otherwise. */
export function decideThresholdMailClaim(
  state: ThresholdMailState,
  request: { organizationId: string; sender: string; now: Date; claimMs: number },
): ThresholdMailEvent[] {
  const duty = thresholdMailDuty(state, request.sender, request.now, request.claimMs);
  return duty.kind === 'claim' ? [{ type: 'ThresholdMailClaimed', data: { organizationId: request.organizationId, sender: request.sender, at: request.now.toISOString() } }] : [];
}
