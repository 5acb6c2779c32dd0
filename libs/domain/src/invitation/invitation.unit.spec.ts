import { describe, expect, it } from '@jest/globals';
import { foldEvents } from '../decider.js';
import { deciderSpec } from '../testing/decider-spec.js';
import type { InvitationEvent } from './invitation-events.js';
import {
  InvitationClaimedElsewhere,
  InvitationDelayed,
  invitationDecider,
  type InvitationCommand,
  type InviteMember,
} from './invitation.js';

const spec = deciderSpec(invitationDecider);

const now = '2030-01-01T10:00:00.000Z';
const mailClaimMs = 60_000;
const sevenDaysMs = 7 * 24 * 3_600_000;

const invite = (data: Partial<Omit<InviteMember['data'], 'now'>> & { now?: string } = {}): InvitationCommand => ({
  type: 'InviteMember',
  data: {
    organizationId: 'org-1',
    organizationName: 'Acme',
    email: 'ann@acme.example',
    memberAddedEventId: 'ma-1',
    tokenHash: 'hash-1',
    registered: false,
    sender: 'node-a',
    mailClaimMs,
    lifetimeMs: sevenDaysMs,
    ...data,
    now: new Date(data.now ?? now),
  },
});

type Sent = Extract<InvitationEvent, { type: 'InvitationSent' }>['data'];
const sentData = (data: Partial<Sent> = {}): Sent => ({
  organizationId: 'org-1',
  organizationName: 'Acme',
  email: 'ann@acme.example',
  tokenHash: 'hash-1',
  expiresAt: '2030-01-08T10:00:00.000Z',
  at: now,
  memberAddedEventId: 'ma-1',
  sender: 'node-a',
  ...data,
});
const sent = (data: Partial<Sent> = {}): InvitationEvent => ({ type: 'InvitationSent', data: sentData(data) });
const noticeSent = (memberAddedEventId: string, at: string): InvitationEvent => ({
  type: 'MembershipNoticeSent',
  data: {
    organizationId: 'org-1',
    organizationName: 'Acme',
    email: 'ann@acme.example',
    tokenHash: `hash-${memberAddedEventId}`,
    at,
    memberAddedEventId,
    sender: 'node-a',
  },
});
const mailed: InvitationEvent = {
  type: 'InvitationMailed',
  data: { tokenHash: 'hash-1', at: '2030-01-01T10:00:01.000Z', organizationId: 'org-1' },
};
const failed: InvitationEvent = {
  type: 'InvitationFailed',
  data: {
    tokenHash: 'hash-1',
    organizationId: 'org-1',
    email: 'ann@acme.example',
    reason: 'mail_server_refused',
    responseCode: 550,
    at: '2030-01-01T10:00:01.000Z',
  },
};
/** Three invitations from org-1 in the hour before `now`, each for another MemberAdded. */
const threeThisHour = ['09:10', '09:20', '09:30'].map((time, index) =>
  sent({ at: `2030-01-01T${time}:00.000Z`, memberAddedEventId: `ma-${index + 10}`, tokenHash: `hash-${index + 10}` }),
);

function refusal(events: InvitationEvent[], command: InvitationCommand): unknown {
  try {
    return { decided: invitationDecider.decide(command, foldEvents(invitationDecider, events)) };
  } catch (error) {
    return error;
  }
}

describe("a person's invitations stream", () => {
  it('is named after the user id reserved for the person', () => {
    expect(invitationDecider.streamOf('u-1')).toBe('invitation-u-1');
  });
});

describe('inviting a member added by an address', () => {
  it('records an invitation with a link good for its lifetime when the address has no account', () => {
    spec
      .given([])
      .when(invite())
      .then([
        {
          type: 'InvitationSent',
          data: {
            organizationId: 'org-1',
            organizationName: 'Acme',
            email: 'ann@acme.example',
            tokenHash: 'hash-1',
            expiresAt: '2030-01-08T10:00:00.000Z',
            at: now,
            memberAddedEventId: 'ma-1',
            sender: 'node-a',
          },
        },
      ]);
  });

  it('records a notice, with no link, when the address has an account', () => {
    spec
      .given([])
      .when(invite({ registered: true }))
      .then([
        {
          type: 'MembershipNoticeSent',
          data: {
            organizationId: 'org-1',
            organizationName: 'Acme',
            email: 'ann@acme.example',
            tokenHash: 'hash-1',
            at: now,
            memberAddedEventId: 'ma-1',
            sender: 'node-a',
          },
        },
      ]);
  });

  it('records nothing when its sender asks again while its claim is young: it sends under the claim it holds', () => {
    spec
      .given([sent()])
      .when(invite({ now: '2030-01-01T10:00:29.999Z' }))
      .then([]);
  });

  it('claims the mail anew for its sender once half the claim has gone', () => {
    spec
      .given([sent()])
      .when(invite({ now: '2030-01-01T10:00:30.000Z' }))
      .then([
        {
          type: 'InvitationMailClaimed',
          data: { tokenHash: 'hash-1', sender: 'node-a', at: '2030-01-01T10:00:30.000Z' },
        },
      ]);
  });

  it('refuses another node while the claim of the node that recorded it holds, saying until when', () => {
    const refused = refusal([sent()], invite({ sender: 'node-b', now: '2030-01-01T10:00:59.999Z' }));

    expect(refused).toBeInstanceOf(InvitationClaimedElsewhere);
    expect(refused).toMatchObject({ sender: 'node-a', until: new Date('2030-01-01T10:01:00.000Z') });
  });

  it('lets another node take the mail over once the claim has run out', () => {
    spec
      .given([sent()])
      .when(invite({ sender: 'node-b', now: '2030-01-01T10:01:00.000Z' }))
      .then([
        {
          type: 'InvitationMailClaimed',
          data: { tokenHash: 'hash-1', sender: 'node-b', at: '2030-01-01T10:01:00.000Z' },
        },
      ]);
  });

  it('holds the mail for the node that claimed it last, from its claim', () => {
    const claimed: InvitationEvent = {
      type: 'InvitationMailClaimed',
      data: { tokenHash: 'hash-1', sender: 'node-b', at: '2030-01-01T10:01:00.000Z' },
    };
    const refused = refusal([sent(), claimed], invite({ sender: 'node-a', now: '2030-01-01T10:01:30.000Z' }));

    expect(refused).toBeInstanceOf(InvitationClaimedElsewhere);
    expect(refused).toMatchObject({ sender: 'node-b', until: new Date('2030-01-01T10:02:00.000Z') });
  });

  it('lets any node claim an invitation recorded before nodes were named, once a claim would have run out', () => {
    const { sender: _sender, ...unnamed } = sentData({ at: '2030-01-01T09:00:00.000Z' });
    spec
      .given([{ type: 'InvitationSent', data: unnamed }])
      .when(invite({ sender: 'node-b' }))
      .then([{ type: 'InvitationMailClaimed', data: { tokenHash: 'hash-1', sender: 'node-b', at: now } }]);
  });

  it('records nothing once the mail went out, or was refused for good', () => {
    spec
      .given([sent(), mailed])
      .when(invite({ sender: 'node-b', now: '2030-01-01T11:00:00.000Z' }))
      .then([]);
    spec
      .given([sent(), failed])
      .when(invite({ sender: 'node-b', now: '2030-01-01T11:00:00.000Z' }))
      .then([]);
  });
});

describe('the hourly limit of mails from one organization to one person', () => {
  it('lets an organization mail a person a third time within an hour', () => {
    spec
      .given(threeThisHour.slice(0, 2))
      .when(invite({ memberAddedEventId: 'ma-new', tokenHash: 'hash-new' }))
      .then([{ type: 'InvitationSent', data: { ...sentData(), memberAddedEventId: 'ma-new', tokenHash: 'hash-new' } }]);
  });

  it('delays a fourth mail within an hour until the oldest of the three is an hour old, recording nothing', () => {
    const refused = refusal(
      threeThisHour,
      invite({ memberAddedEventId: 'ma-new', tokenHash: 'hash-new', now: '2030-01-01T10:09:59.999Z' }),
    );

    expect(refused).toBeInstanceOf(InvitationDelayed);
    expect(refused).toMatchObject({ until: new Date('2030-01-01T10:10:00.000Z') });
  });

  it('lets the fourth mail go once the oldest of the three is an hour old', () => {
    spec
      .given(threeThisHour)
      .when(invite({ memberAddedEventId: 'ma-new', tokenHash: 'hash-new', now: '2030-01-01T10:10:00.000Z' }))
      .then([
        {
          type: 'InvitationSent',
          data: {
            ...sentData(),
            memberAddedEventId: 'ma-new',
            tokenHash: 'hash-new',
            at: '2030-01-01T10:10:00.000Z',
            expiresAt: '2030-01-08T10:10:00.000Z',
          },
        },
      ]);
  });

  it('counts notices to a registered person as mails', () => {
    const notices = [
      noticeSent('ma-10', '2030-01-01T09:10:00.000Z'),
      noticeSent('ma-11', '2030-01-01T09:20:00.000Z'),
      noticeSent('ma-12', '2030-01-01T09:30:00.000Z'),
    ];
    const refused = refusal(notices, invite({ memberAddedEventId: 'ma-new', tokenHash: 'hash-new', registered: true }));

    expect(refused).toBeInstanceOf(InvitationDelayed);
    expect(refused).toMatchObject({ until: new Date('2030-01-01T10:10:00.000Z') });
  });

  it("never delays one organization's mail for another's", () => {
    spec
      .given(threeThisHour)
      .when(
        invite({
          organizationId: 'org-2',
          organizationName: 'Globex',
          memberAddedEventId: 'ma-new',
          tokenHash: 'hash-new',
        }),
      )
      .then([
        {
          type: 'InvitationSent',
          data: {
            ...sentData(),
            organizationId: 'org-2',
            organizationName: 'Globex',
            memberAddedEventId: 'ma-new',
            tokenHash: 'hash-new',
          },
        },
      ]);
  });

  it('never delays the mail of a MemberAdded already recorded', () => {
    spec
      .given(threeThisHour)
      .when(invite({ memberAddedEventId: 'ma-12', tokenHash: 'hash-12' }))
      .then([{ type: 'InvitationMailClaimed', data: { tokenHash: 'hash-12', sender: 'node-a', at: now } }]);
  });
});

describe('recording how the mail went', () => {
  it('records that the mail went out', () => {
    spec
      .given([sent()])
      .when({
        type: 'RecordInvitationMailed',
        data: { tokenHash: 'hash-1', organizationId: 'org-1', at: '2030-01-01T10:00:01.000Z' },
      })
      .then([
        {
          type: 'InvitationMailed',
          data: { tokenHash: 'hash-1', organizationId: 'org-1', at: '2030-01-01T10:00:01.000Z' },
        },
      ]);
  });

  it('records that a notice went out', () => {
    spec
      .given([noticeSent('ma-1', now)])
      .when({
        type: 'RecordInvitationMailed',
        data: { tokenHash: 'hash-ma-1', organizationId: 'org-1', at: '2030-01-01T10:00:01.000Z' },
      })
      .then([
        {
          type: 'InvitationMailed',
          data: { tokenHash: 'hash-ma-1', organizationId: 'org-1', at: '2030-01-01T10:00:01.000Z' },
        },
      ]);
  });

  it('records that the mail was refused for good, with the server’s code', () => {
    const data = {
      tokenHash: 'hash-1',
      organizationId: 'org-1',
      email: 'ann@acme.example',
      reason: 'mail_server_refused',
      responseCode: 550,
      at: '2030-01-01T10:00:01.000Z',
    } as const;
    spec
      .given([sent()])
      .when({ type: 'RecordInvitationFailed', data })
      .then([{ type: 'InvitationFailed', data }]);
  });

  it('records the outcome once: nothing after the mail went out or was refused', () => {
    const mailedAgain = {
      type: 'RecordInvitationMailed',
      data: { tokenHash: 'hash-1', organizationId: 'org-1', at: '2030-01-01T10:05:00.000Z' },
    } as const;
    const failedAgain = {
      type: 'RecordInvitationFailed',
      data: {
        tokenHash: 'hash-1',
        organizationId: 'org-1',
        email: 'ann@acme.example',
        reason: 'address_refused',
        at: '2030-01-01T10:05:00.000Z',
      },
    } as const;
    spec.given([sent(), mailed]).when(mailedAgain).then([]);
    spec.given([sent(), mailed]).when(failedAgain).then([]);
    spec.given([sent(), failed]).when(mailedAgain).then([]);
    spec.given([sent(), failed]).when(failedAgain).then([]);
  });

  it('records nothing for a mail it never recorded', () => {
    spec
      .given([sent()])
      .when({
        type: 'RecordInvitationMailed',
        data: { tokenHash: 'hash-unknown', organizationId: 'org-1', at: '2030-01-01T10:00:01.000Z' },
      })
      .then([]);
    spec
      .given([])
      .when({
        type: 'RecordInvitationFailed',
        data: {
          tokenHash: 'hash-1',
          organizationId: 'org-1',
          email: 'ann@acme.example',
          reason: 'address_refused',
          at: now,
        },
      })
      .then([]);
  });
});

describe('accepting an invitation', () => {
  it('records that the person registered through the link', () => {
    spec
      .given([sent(), mailed])
      .when({
        type: 'AcceptInvitation',
        data: { tokenHash: 'hash-1', organizationId: 'org-1', at: '2030-01-02T08:00:00.000Z' },
      })
      .then([
        {
          type: 'InvitationAccepted',
          data: { tokenHash: 'hash-1', organizationId: 'org-1', at: '2030-01-02T08:00:00.000Z' },
        },
      ]);
  });

  it('records nothing for a person who accepted an invitation already', () => {
    const accepted: InvitationEvent = {
      type: 'InvitationAccepted',
      data: { tokenHash: 'hash-1', organizationId: 'org-1', at: '2030-01-02T08:00:00.000Z' },
    };
    spec
      .given([sent(), mailed, accepted])
      .when({
        type: 'AcceptInvitation',
        data: { tokenHash: 'hash-1', organizationId: 'org-1', at: '2030-01-02T08:00:01.000Z' },
      })
      .then([]);
  });
});
