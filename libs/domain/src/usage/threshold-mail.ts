// A mail to an organization's owners about one of its events: sent once, whichever node sends it.
import type { Decider } from '../decider.js';
import { mailClaimDuty, type MailClaim, type MailDuty } from '../mail/mail-claim.js';

export const thresholdMailStreamPrefix = 'threshold-mail-';
export const thresholdMailStream = (reachedEventId: string): string => `${thresholdMailStreamPrefix}${reachedEventId}`;

export const ownerMailStream = (eventType: string, eventId: string): string =>
  eventType === 'TrafficThresholdReached' ? thresholdMailStream(eventId) : `owner-mail-${eventId}`;

export type ThresholdMailClaimed = {
  type: 'ThresholdMailClaimed';
  data: { organizationId: string; sender: string; at: string };
};
/** `to` may be empty: no owner had an address. */
export type ThresholdMailSent = {
  type: 'ThresholdMailSent';
  data: { organizationId: string; to: string[]; at: string };
};
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

export const thresholdMailDuty = (state: ThresholdMailState, sender: string, now: Date, claimMs: number): MailDuty =>
  mailClaimDuty(state.sent, state.claim, sender, now, claimMs);

export function decideThresholdMailClaim(
  state: ThresholdMailState,
  request: { organizationId: string; sender: string; now: Date; claimMs: number },
): ThresholdMailEvent[] {
  const duty = thresholdMailDuty(state, request.sender, request.now, request.claimMs);
  return duty.kind === 'claim'
    ? [
        {
          type: 'ThresholdMailClaimed',
          data: { organizationId: request.organizationId, sender: request.sender, at: request.now.toISOString() },
        },
      ]
    : [];
}

export type OwnerMailCommand =
  | { type: 'ClaimOwnerMail'; data: { organizationId: string; sender: string; now: Date; claimMs: number } }
  | { type: 'RecordOwnerMailSent'; data: ThresholdMailSent['data'] };

export const ownerMailId = (eventType: string, eventId: string): string => `${eventType} ${eventId}`;

export const ownerMailDecider: Decider<ThresholdMailState, OwnerMailCommand, ThresholdMailEvent> = {
  streamOf: (id) => {
    const [eventType = '', eventId = ''] = id.split(' ');
    return ownerMailStream(eventType, eventId);
  },
  initialState: initialThresholdMailState(),
  evolve: evolveThresholdMail,
  decide: (command, state) => {
    if (command.type === 'ClaimOwnerMail') return decideThresholdMailClaim(state, command.data);
    return state.sent ? [] : [{ type: 'ThresholdMailSent', data: command.data }];
  },
};
