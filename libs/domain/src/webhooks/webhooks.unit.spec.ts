import { describe, expect, it } from '@jest/globals';
import { ORGANIZATION_EVENT_TYPES } from '../organization/events.js';
import { deciderSpec } from '../testing/decider-spec.js';
import {
  memberActivityOf,
  memberActivitySentence,
  WEBHOOK_EVENT_TYPES,
  wantsWebhookEvent,
  webhookEventOf,
} from './webhook-catalogue.js';
import {
  foldWebhookDeliveries,
  webhookDeliveriesDecider,
  webhookGivenUp,
  webhookRetryDelayMs,
  webhookSenderDuty,
  type WebhookAttempt,
  type WebhookDeliveryEvent,
} from './webhook-deliveries.js';
import {
  signingGenerations,
  webhookEndpointsDecider,
  type WebhookEndpointCreated,
  type WebhookEndpointEvent,
} from './webhook-endpoints.js';

const at = '2030-01-01T00:00:00.000Z';
const created = (endpointId: string): WebhookEndpointCreated => ({
  type: 'WebhookEndpointCreated',
  data: {
    endpointId,
    url: 'https://hooks.example.com/chorus',
    events: ['*'],
    format: 'standard',
    description: '',
    startAfter: { revision: '-1', position: '-1' },
    at,
  },
});
const endpoints = deciderSpec(webhookEndpointsDecider);

describe('webhook endpoints', () => {
  it('takes ten endpoints an organization, and refuses the eleventh', () => {
    const ten = Array.from({ length: 10 }, (_, index) => created(`e${index}`));
    endpoints.given(ten.slice(0, 9)).when({ type: 'CreateWebhookEndpoint', data: ten[9]!.data }).then([ten[9]!]);
    endpoints
      .given(ten)
      .when({ type: 'CreateWebhookEndpoint', data: created('e10').data })
      .thenThrows('LIMIT_EXCEEDED', { resource: 'webhookEndpoints', limit: 10, count: 10 });
  });

  it('records only what a change changes, and refuses an endpoint it does not have', () => {
    endpoints
      .given([created('a')])
      .when({
        type: 'ChangeWebhookEndpoint',
        data: { endpointId: 'a', url: 'https://hooks.example.com/chorus', enabled: true },
      })
      .then([]);
    endpoints
      .given([created('a')])
      .when({ type: 'ChangeWebhookEndpoint', data: { endpointId: 'a', events: ['member.added'], enabled: false } })
      .then([{ type: 'WebhookEndpointChanged', data: { endpointId: 'a', events: ['member.added'], enabled: false } }]);
    endpoints
      .given([created('a')])
      .when({ type: 'ChangeWebhookEndpoint', data: { endpointId: 'b', enabled: false } })
      .thenThrows('NOT_FOUND', { entity: 'webhook' });
    endpoints
      .given([created('a'), { type: 'WebhookEndpointDeleted', data: { endpointId: 'a', at } }])
      .when({ type: 'DeleteWebhookEndpoint', data: { endpointId: 'a', at: new Date(at) } })
      .thenThrows('NOT_FOUND');
  });

  it('rotates to a new generation, both signing for 24 hours', () => {
    const now = new Date('2030-01-02T00:00:00.000Z');
    endpoints
      .given([created('a')])
      .when({ type: 'RotateWebhookSecret', data: { endpointId: 'a', at: now } })
      .then([
        {
          type: 'WebhookSecretRotated',
          data: { endpointId: 'a', generation: 2, previousUntil: '2030-01-03T00:00:00.000Z' },
        },
      ]);
    const rotated = { generation: 2, previousUntil: '2030-01-03T00:00:00.000Z' };
    expect(signingGenerations(rotated, now)).toEqual([2, 1]);
    expect(signingGenerations(rotated, new Date('2030-01-03T00:00:00.000Z'))).toEqual([2]);
    expect(signingGenerations({ generation: 1, previousUntil: null }, now)).toEqual([1]);
  });

  it('is disabled once, and enabled again by a change that also clears the reason', () => {
    const disabled: WebhookEndpointEvent = {
      type: 'WebhookEndpointDisabled',
      data: { endpointId: 'a', reason: 'The receiver answered 410 Gone.', at },
    };
    endpoints
      .given([created('a'), disabled])
      .when({ type: 'DisableWebhookEndpoint', data: disabled.data })
      .then([]);
    const state = [
      created('a'),
      disabled,
      { type: 'WebhookEndpointChanged', data: { endpointId: 'a', enabled: true } } as WebhookEndpointEvent,
    ].reduce(webhookEndpointsDecider.evolve, webhookEndpointsDecider.initialState);
    expect(state.endpoints[0]).toMatchObject({ enabled: true, disabledReason: null });
  });
});

const attempt = (revision: number): Omit<WebhookAttempt, 'attempt' | 'at' | 'sender'> => ({
  revision: String(revision),
  position: String(100 + revision),
  eventId: `id-${revision}`,
  eventType: 'member.added',
  upTo: { revision: String(revision), position: String(100 + revision) },
  status: 500,
  ms: 12,
  excerpt: 'down',
});
const deliveries = deciderSpec(webhookDeliveriesDecider);

const claimedBy = (sender: string): WebhookDeliveryEvent => ({ type: 'WebhookDeliveryClaimed', data: { sender, at } });
/** The endpoint as its sender holds it, before anything is recorded. */
const heldBy = (sender: string) => foldWebhookDeliveries([claimedBy(sender)]);

describe('webhook deliveries', () => {
  it('retries after 5, 10, 20, 40 s... and at most 10 hours apart', () => {
    expect([1, 2, 3, 4].map(webhookRetryDelayMs)).toEqual([5_000, 10_000, 20_000, 40_000]);
    expect(webhookRetryDelayMs(30)).toBe(36_000_000);
  });

  it('counts attempts at the event at the head of the line, and gives up 3 days after its first failure', () => {
    const first = new Date(at);
    const failed = webhookDeliveriesDecider.decide(
      {
        type: 'RecordWebhookAttempts',
        data: { tried: [{ attempt: attempt(4), ok: false, reason: 'HTTP 500', at: first }], sender: 'n1', at: first },
      },
      heldBy('n1'),
    );
    expect(failed).toEqual([
      {
        type: 'WebhookDeliveryFailed',
        data: {
          ...attempt(4),
          attempt: 1,
          sender: 'n1',
          at,
          reason: 'HTTP 500',
          nextAttemptAt: '2030-01-01T00:00:05.000Z',
        },
      },
    ]);
    const later = new Date(first.getTime() + 3 * 24 * 3_600_000);
    const again = webhookDeliveriesDecider.decide(
      {
        type: 'RecordWebhookAttempts',
        data: { tried: [{ attempt: attempt(4), ok: false, reason: 'HTTP 500', at: later }], sender: 'n2', at: later },
      },
      foldWebhookDeliveries([claimedBy('n1'), ...failed, claimedBy('n2')]),
    );
    expect(again[0]).toMatchObject({
      type: 'WebhookDeliveryFailed',
      data: { attempt: 2, nextAttemptAt: '2030-01-04T00:00:10.000Z' },
    });
    const state = foldWebhookDeliveries([...failed, ...again]);
    expect(state.failing?.firstFailedAt).toBe(at);
    expect(webhookGivenUp(state, new Date(later.getTime() - 1))).toBe(false);
    expect(webhookGivenUp(state, later)).toBe(true);
  });

  it('moves past an event once delivered, and back for a replay', () => {
    const events: WebhookDeliveryEvent[] = [
      ...webhookDeliveriesDecider.decide(
        {
          type: 'RecordWebhookAttempts',
          data: {
            tried: [{ attempt: { ...attempt(7), status: 204 }, ok: true, reason: '', at: new Date(at) }],
            sender: 'n1',
            at: new Date(at),
          },
        },
        heldBy('n1'),
      ),
    ];
    expect(foldWebhookDeliveries(events)).toMatchObject({ doneUpTo: { revision: 7n, position: 107n }, failing: null });
    deliveries
      .given(events)
      .when({
        type: 'SkipWebhookEvents',
        data: { upTo: { revision: 5n, position: 105n }, sender: 'n1', at: new Date(at) },
      })
      .then([]);
    const replayed = [
      ...events,
      {
        type: 'WebhookReplayStarted',
        data: { replayId: 'r1', after: { revision: '2', position: '102' }, sender: 'n1', at },
      } as WebhookDeliveryEvent,
    ];
    expect(foldWebhookDeliveries(replayed)).toMatchObject({
      doneUpTo: { revision: 2n, position: 102n },
      replayId: 'r1',
    });
  });

  it('records a run of deliveries in one append, each at its own time, up to the one that failed', () => {
    const sent = (revision: number, seconds: number, ok: boolean) => ({
      attempt: { ...attempt(revision), status: ok ? 204 : 500 },
      ok,
      reason: ok ? '' : 'HTTP 500',
      at: new Date(Date.parse(at) + seconds * 1_000),
    });
    const failing = foldWebhookDeliveries(
      webhookDeliveriesDecider.decide(
        { type: 'RecordWebhookAttempts', data: { tried: [sent(3, 0, false)], sender: 'n1', at: new Date(at) } },
        heldBy('n1'),
      ),
    );
    const run = webhookDeliveriesDecider.decide(
      {
        type: 'RecordWebhookAttempts',
        data: {
          tried: [sent(3, 5, true), sent(4, 6, true), sent(5, 7, false), sent(6, 8, true)],
          sender: 'n1',
          at: new Date(at),
        },
      },
      failing,
    );
    const attempts = run.map((event) => ({ type: event.type, ...(event.data as WebhookAttempt) }));
    expect(attempts.map(({ type, revision, attempt: number, at: sentAt }) => [type, revision, number, sentAt])).toEqual(
      [
        ['WebhookDelivered', '3', 2, '2030-01-01T00:00:05.000Z'],
        ['WebhookDelivered', '4', 1, '2030-01-01T00:00:06.000Z'],
        ['WebhookDeliveryFailed', '5', 1, '2030-01-01T00:00:07.000Z'],
      ],
    );
    expect(foldWebhookDeliveries(run)).toMatchObject({
      doneUpTo: { revision: 4n, position: 104n },
      failing: { eventId: 'id-5', attempts: 1, nextAttemptAt: '2030-01-01T00:00:12.000Z' },
    });
  });

  it('keeps counting a failing entitlements.changed when its event, sent again before it, leaves the cursor where it was', () => {
    const derived = { ...attempt(5), eventId: 'id-5.entitlements', upTo: { revision: '5', position: '105' } };
    const event = { ...attempt(5), status: 204, upTo: { revision: '4', position: '104' } };
    const first = new Date(at);
    const before = foldWebhookDeliveries(
      webhookDeliveriesDecider.decide(
        {
          type: 'RecordWebhookAttempts',
          data: {
            tried: [{ attempt: { ...attempt(4), status: 204 }, ok: true, reason: '', at: first }],
            sender: 'n1',
            at: first,
          },
        },
        heldBy('n1'),
      ),
    );
    const run = (state: typeof before) =>
      webhookDeliveriesDecider.decide(
        {
          type: 'RecordWebhookAttempts',
          data: {
            tried: [
              { attempt: event, ok: true, reason: '', at: first },
              { attempt: derived, ok: false, reason: 'HTTP 500', at: first },
            ],
            sender: 'n1',
            at: first,
          },
        },
        state,
      );
    const once = foldWebhookDeliveries([
      ...webhookDeliveriesDecider.decide(
        {
          type: 'RecordWebhookAttempts',
          data: {
            tried: [{ attempt: { ...attempt(4), status: 204 }, ok: true, reason: '', at: first }],
            sender: 'n1',
            at: first,
          },
        },
        heldBy('n1'),
      ),
      ...run(before),
    ]);
    expect(once.failing).toMatchObject({ eventId: 'id-5.entitlements', attempts: 1 });
    expect(run(once).at(-1)).toMatchObject({ type: 'WebhookDeliveryFailed', data: { attempt: 2 } });
  });

  it('records nothing for a sender that no longer holds the endpoint (decided again after losing a race)', () => {
    const tried = [{ attempt: { ...attempt(4), status: 204 }, ok: true, reason: '', at: new Date(at) }];
    deliveries
      .given([claimedBy('n1'), claimedBy('n2')])
      .when({ type: 'RecordWebhookAttempts', data: { tried, sender: 'n1', at: new Date(at) } })
      .then([]);
    deliveries
      .given([claimedBy('n2')])
      .when({ type: 'ClaimWebhookDeliveries', data: { sender: 'n1', at: new Date(at) } })
      .then([]);
  });

  it('is sent by one node: the last sender holds it for 30 s after its last record', () => {
    const claimed = foldWebhookDeliveries([{ type: 'WebhookDeliveryClaimed', data: { sender: 'n1', at } }]);
    expect(webhookSenderDuty(claimed, 'n2', new Date('2030-01-01T00:00:10.000Z'))).toEqual({
      kind: 'theirs',
      until: new Date('2030-01-01T00:00:30.000Z'),
    });
    expect(webhookSenderDuty(claimed, 'n1', new Date('2030-01-01T00:00:10.000Z'))).toEqual({ kind: 'send' });
    expect(webhookSenderDuty(claimed, 'n2', new Date('2030-01-01T00:00:30.000Z'))).toEqual({ kind: 'claim' });
  });
});

describe('the webhook catalogue', () => {
  it('names a receiver type for the events customers asked for, and never passes a secret on', () => {
    const types = new Set(
      ORGANIZATION_EVENT_TYPES.map((type) => webhookEventOf(type, {})?.type).filter((type) => type !== undefined),
    );
    const memberTypes = [
      'signin.succeeded',
      'signin.failed',
      'factor.added',
      'factor.removed',
      'session.revoked',
      'entitlements.changed',
    ];
    expect([...types, ...memberTypes].sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    const sso = webhookEventOf('SsoConfigured', {
      issuer: 'https://id.example.com',
      clientId: 'c',
      clientSecret: 'sealed-secret',
      domains: ['example.com'],
      enforce: true,
    });
    expect(sso).toEqual({
      type: 'sso.changed',
      data: {
        change: 'configured',
        protocol: 'oidc',
        issuer: 'https://id.example.com',
        domains: ['example.com'],
        enforce: true,
      },
    });
    expect(webhookEventOf('SsoDomainPending', { domain: 'example.com', token: 'dns-token', at })?.data).toEqual({
      change: 'domain-pending',
      domain: 'example.com',
    });
    expect(webhookEventOf('UserRegistered', {})).toBeUndefined();
  });

  it('sends a member’s own sign-ins, factors and ended sessions with ids and kinds only, never a passkey’s name or a secret', () => {
    const of = (type: string, data: object, streamId = 'user-u1') => memberActivityOf(streamId, type, { ...data, at });
    expect(of('SignedIn', { sessionId: 's', method: 'google', absoluteExpiresAt: at })).toEqual({
      userId: 'u1',
      event: { type: 'signin.succeeded', data: { method: 'google' } },
    });
    // Half open until the second step: that is when the sign-in succeeds.
    expect(
      of('SignedIn', { sessionId: 's', method: 'password', absoluteExpiresAt: at, awaiting: 'second-step' }),
    ).toBeUndefined();
    expect(
      of('SecondStepPassed', {
        previousSessionId: 'p',
        sessionId: 's',
        method: 'passkey',
        absoluteExpiresAt: at,
        credentialId: 'c',
      })?.event,
    ).toEqual({
      type: 'signin.succeeded',
      data: { method: 'two-step', secondStep: 'passkey' },
    });
    expect(of('SecondStepFailed', { sessionId: 's', method: 'authenticator-app' })?.event.type).toBe('signin.failed');
    expect(of('SignInAttemptFailed', { reservedAt: at, streak: {} }, 'sign-in-attempts-account-u1')).toEqual({
      userId: 'u1',
      event: { type: 'signin.failed', data: { step: 'password', reason: 'wrong-password' } },
    });
    expect(of('SignInAttemptFailed', { reservedAt: at, streak: {} }, 'sign-in-attempts-name-abc')).toBeUndefined();
    expect(of('SignInAttemptReserved', { streak: {} }, 'sign-in-attempts-account-u1')).toBeUndefined();
    expect(
      of('PasskeyRegistered', { credentialId: 'c', publicKey: 'k', counter: 0, transports: [], name: 'Ada’s phone' })
        ?.event,
    ).toEqual({ type: 'factor.added', data: { factor: 'passkey' } });
    expect(of('AuthenticatorAppEnrolled', { secretSealed: 'sealed' })?.event).toEqual({
      type: 'factor.added',
      data: { factor: 'authenticator-app' },
    });
    expect(of('SecondFactorsReset', { organizationId: 'o', authority: 'owner-alone' })?.event).toEqual({
      type: 'factor.removed',
      data: { factor: 'all', authority: 'owner-alone' },
    });
    expect(of('SignedOut', { sessionId: 's', revoked: true })?.event).toEqual({
      type: 'session.revoked',
      data: { reason: 'revoked', sessions: 1 },
    });
    expect(of('PasswordChanged', { endedSessionIds: ['a', 'b'] })?.event).toEqual({
      type: 'session.revoked',
      data: { reason: 'password-changed', sessions: 2 },
    });
    expect(of('PasswordChanged', { endedSessionIds: [] })).toBeUndefined();
    expect(of('UserRegistered', { userId: 'u1', email: 'ada@example.com' })).toBeUndefined();
    expect(
      of('SignedIn', { sessionId: 's', method: 'password', absoluteExpiresAt: at }, 'organization-o1'),
    ).toBeUndefined();
    expect(
      memberActivitySentence(
        { type: 'signin.failed', data: { step: 'password', reason: 'wrong-password' } },
        'ada@example.com',
      ),
    ).toBe('Sign-in failed for ada@example.com: wrong password');
  });

  it('sends what an endpoint subscribed to, or everything for "*"', () => {
    expect(wantsWebhookEvent(['member.added'], 'member.added')).toBe(true);
    expect(wantsWebhookEvent(['member.added'], 'site.added')).toBe(false);
    expect(wantsWebhookEvent(['*'], 'site.added')).toBe(true);
  });
});
