import { mailClaimDuty, type MailDuty } from '../mail/mail-claim.js';
import type { Decider } from '../decider.js';
import { invitationStream, type InvitationEvent, type InvitationFailureReason } from './invitation-events.js';

export type PendingInvitation = {
  tokenHash: string;
  organizationId: string;
  organizationName: string;
  email: string;
  expiresAt: string;
};

export type InvitationState = {
  /** An accepted invitation spends them all. */
  pending: PendingInvitation[];
  /** The newest few, for the per-organization limit. */
  sent: Array<{ at: string; organizationId: string }>;
  accepted: boolean;
  owed: OwedInvitation[];
  /** Per organization, its last refused mail, until one of its mails goes out. */
  failures: UndeliveredInvitation[];
};

export type UndeliveredInvitation = {
  organizationId: string;
  email: string;
  reason: InvitationFailureReason;
  responseCode?: number;
  at: string;
};

/** notice: a registered person told they were added, with no link. */
export type OwedInvitation = {
  memberAddedEventId: string;
  tokenHash: string;
  at: string;
  mailed: boolean;
  failed: boolean;
  notice: boolean;
  sender: string | undefined;
  claimedAt: string;
};

/** Far more than a replay after a restart goes back over. */
const rememberedOwed = 50;

export const noInvitations = (): InvitationState => ({
  pending: [],
  sent: [],
  accepted: false,
  owed: [],
  failures: [],
});

/** Per organization, so that one organization's churn (adding and removing someone) never delays another's. */
export const invitationMailsPerHourPerOrganization = 3;

const hourMs = 3_600_000;

export function nextMailAllowedAt(state: InvitationState, organizationId: string, now: Date): Date {
  const recent = state.sent.filter(
    (sent) => sent.organizationId === organizationId && now.getTime() - new Date(sent.at).getTime() < hourMs,
  );
  if (recent.length < invitationMailsPerHourPerOrganization) return now;
  const oldest = recent[recent.length - invitationMailsPerHourPerOrganization];
  return new Date(new Date(oldest?.at ?? now).getTime() + hourMs);
}

export function evolveInvitations(state: InvitationState, event: InvitationEvent): InvitationState {
  switch (event.type) {
    case 'InvitationSent': {
      const { tokenHash, organizationId, organizationName, email, expiresAt, at, memberAddedEventId, sender } =
        event.data;
      return {
        ...state,
        pending: [
          ...state.pending.filter((invitation) => new Date(invitation.expiresAt).getTime() > new Date(at).getTime()),
          { tokenHash, organizationId, organizationName, email, expiresAt },
        ],
        sent: [...state.sent, { at, organizationId }].slice(-rememberedOwed),
        owed:
          memberAddedEventId === undefined
            ? state.owed
            : [
                ...state.owed,
                {
                  memberAddedEventId,
                  tokenHash,
                  at,
                  mailed: false,
                  failed: false,
                  notice: false,
                  sender,
                  claimedAt: at,
                },
              ].slice(-rememberedOwed),
      };
    }
    case 'MembershipNoticeSent': {
      const { tokenHash, organizationId, at, memberAddedEventId, sender } = event.data;
      return {
        ...state,
        sent: [...state.sent, { at, organizationId }].slice(-rememberedOwed),
        owed: [
          ...state.owed,
          { memberAddedEventId, tokenHash, at, mailed: false, failed: false, notice: true, sender, claimedAt: at },
        ].slice(-rememberedOwed),
      };
    }
    case 'InvitationMailClaimed': {
      const { tokenHash, sender, at } = event.data;
      return {
        ...state,
        owed: state.owed.map((owed) => (owed.tokenHash === tokenHash ? { ...owed, sender, claimedAt: at } : owed)),
      };
    }
    case 'InvitationMailed': {
      const { organizationId } = event.data;
      return {
        ...state,
        owed: state.owed.map((owed) => (owed.tokenHash === event.data.tokenHash ? { ...owed, mailed: true } : owed)),
        failures:
          organizationId === undefined
            ? state.failures
            : state.failures.filter((failure) => failure.organizationId !== organizationId),
      };
    }
    case 'InvitationFailed': {
      const { organizationId, email, reason, responseCode, at } = event.data;
      const failure: UndeliveredInvitation = {
        organizationId,
        email,
        reason,
        ...(responseCode === undefined ? {} : { responseCode }),
        at,
      };
      return {
        ...state,
        failures: [...state.failures.filter((known) => known.organizationId !== organizationId), failure],
        pending: state.pending.filter((invitation) => invitation.tokenHash !== event.data.tokenHash),
        owed: state.owed.map((owed) => (owed.tokenHash === event.data.tokenHash ? { ...owed, failed: true } : owed)),
      };
    }
    case 'InvitationAccepted':
      return { ...state, pending: [], accepted: true };
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

export function mailDuty(owed: OwedInvitation, sender: string, now: Date, claimMs: number): MailDuty {
  return mailClaimDuty(
    owed.mailed || owed.failed,
    { sender: owed.sender ?? '', claimedAt: owed.claimedAt },
    sender,
    now,
    claimMs,
  );
}

export function validInvitation(state: InvitationState, tokenHash: string, now: Date): PendingInvitation | undefined {
  return state.pending.find(
    (invitation) => invitation.tokenHash === tokenHash && new Date(invitation.expiresAt).getTime() > now.getTime(),
  );
}

export class InvitationDelayed extends Error {
  constructor(readonly until: Date) {
    super(`Too many mails from this organization to this person this hour: not before ${until.toISOString()}`);
  }
}

export class InvitationClaimedElsewhere extends Error {
  constructor(
    readonly sender: string,
    readonly until: Date,
  ) {
    super(`Another node (${sender}) is mailing this invitation: ask again at ${until.toISOString()}`);
  }
}

export type InviteMember = {
  type: 'InviteMember';
  data: {
    organizationId: string;
    organizationName: string;
    email: string;
    memberAddedEventId: string;
    tokenHash: string;
    registered: boolean;
    sender: string;
    now: Date;
    mailClaimMs: number;
    lifetimeMs: number;
  };
};

export type InvitationCommand =
  | InviteMember
  | { type: 'RecordInvitationMailed'; data: { tokenHash: string; organizationId: string; at: string } }
  | { type: 'RecordInvitationFailed'; data: Extract<InvitationEvent, { type: 'InvitationFailed' }>['data'] }
  | { type: 'AcceptInvitation'; data: { tokenHash: string; organizationId: string; at: string } };

/** Recorded once per MemberAdded, then claimed by one sender at a time. */
function decideInvite({ data }: InviteMember, state: InvitationState): InvitationEvent[] {
  const {
    organizationId,
    organizationName,
    email,
    memberAddedEventId,
    tokenHash,
    registered,
    sender,
    now,
    mailClaimMs,
  } = data;
  const at = now.toISOString();
  const owed = state.owed.find((candidate) => candidate.memberAddedEventId === memberAddedEventId);
  if (owed !== undefined) {
    const duty = mailDuty(owed, sender, now, mailClaimMs);
    if (duty.kind === 'theirs') throw new InvitationClaimedElsewhere(owed.sender ?? 'unnamed', duty.until);
    return duty.kind === 'claim'
      ? [{ type: 'InvitationMailClaimed', data: { tokenHash: owed.tokenHash, sender, at } }]
      : [];
  }
  const allowedAt = nextMailAllowedAt(state, organizationId, now);
  if (allowedAt > now) throw new InvitationDelayed(allowedAt);
  if (registered)
    return [
      {
        type: 'MembershipNoticeSent',
        data: { organizationId, organizationName, email, tokenHash, at, memberAddedEventId, sender },
      },
    ];
  const expiresAt = new Date(now.getTime() + data.lifetimeMs).toISOString();
  return [
    {
      type: 'InvitationSent',
      data: { organizationId, organizationName, email, tokenHash, expiresAt, at, memberAddedEventId, sender },
    },
  ];
}

const unsettledMail = (state: InvitationState, tokenHash: string): boolean =>
  state.owed.some((owed) => owed.tokenHash === tokenHash && !owed.mailed && !owed.failed);

export const invitationDecider: Decider<InvitationState, InvitationCommand, InvitationEvent> = {
  streamOf: invitationStream,
  get initialState() {
    return noInvitations();
  },
  evolve: evolveInvitations,
  decide: (command, state) => {
    switch (command.type) {
      case 'InviteMember':
        return decideInvite(command, state);
      case 'RecordInvitationMailed':
        return unsettledMail(state, command.data.tokenHash) ? [{ type: 'InvitationMailed', data: command.data }] : [];
      case 'RecordInvitationFailed':
        return unsettledMail(state, command.data.tokenHash) ? [{ type: 'InvitationFailed', data: command.data }] : [];
      case 'AcceptInvitation':
        return state.accepted ? [] : [{ type: 'InvitationAccepted', data: command.data }];
      default: {
        const _exhaustive: never = command;
        return _exhaustive;
      }
    }
  },
};
