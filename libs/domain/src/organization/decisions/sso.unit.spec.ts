import { describe, it } from '@jest/globals';
import { memberRequester } from '../requester.js';
import { given } from '../../testing/given-when-then.js';
import {
  classicPlanAssigned,
  memberAdded,
  onChorusPlan,
  onClassicPlan,
  organizationCreated,
} from '../../testing/organization-events.js';
import type { ConfigureSso, SsoChecks } from './configure-sso.js';
import type { SsoConfigured, SsoDomainPending } from '../events.js';

const sealed = 'v1.k1.AAAAAAAAAAAAAAAA.BBBBBBBBBBBBBBBBBBBBBBBBBBBB';
const resealed = 'v1.k2.CCCCCCCCCCCCCCCC.DDDDDDDDDDDDDDDDDDDDDDDDDDDD';
/** What the application found out before deciding: nothing against the settings. */
const checks: SsoChecks = { publicDomains: [], domainsHeldElsewhere: [], issuerAllowed: true, discovery: 'ok' };
const settings = {
  issuer: 'https://idp.acme.example',
  clientId: 'chorus',
  clientSecret: sealed,
  domains: ['acme.example'],
  checks,
};
const at = '2030-01-01T00:00:00.000Z';
const tokenOf = (domain: string): string => `token-of-${domain.replace(/\./g, '-')}`.padEnd(32, '0');
const verificationTokens = Object.fromEntries(
  ['acme.example', 'xn--bcher-kva.example', 'eu.acme.example'].map((domain) => [domain, tokenOf(domain)]),
);
const configure = (data: Partial<ConfigureSso['data']> = {}): ConfigureSso => ({
  type: 'ConfigureSso',
  data: { ...settings, verificationTokens, at, ...data },
});
const pending = (domain = 'acme.example'): SsoDomainPending => ({
  type: 'SsoDomainPending',
  data: { domain, token: tokenOf(domain), at },
});
const configured = (data: Partial<SsoConfigured['data']> = {}): SsoConfigured => ({
  type: 'SsoConfigured',
  data: {
    issuer: 'https://idp.acme.example',
    clientId: 'chorus',
    clientSecret: sealed,
    domains: ['acme.example'],
    enforce: false,
    ...data,
  },
});
const enterprise = [...onChorusPlan('enterprise'), memberAdded(1, 'owner'), memberAdded(2, 'admin')];

describe('ConfigureSso', () => {
  it('records the settings with the domains normalized to ASCII form, enforce off by default', () => {
    given(enterprise)
      .when(configure({ domains: ['ACME.example', 'https://Bücher.example/path', 'eu.acme.example.'] }))
      .then([
        configured({ domains: ['acme.example', 'xn--bcher-kva.example', 'eu.acme.example'] }),
        pending('acme.example'),
        pending('xn--bcher-kva.example'),
        pending('eu.acme.example'),
      ]);
    given(enterprise)
      .when(configure({ enforce: true }))
      .then([configured({ enforce: true }), pending()]);
  });

  it("is available on either line's enterprise plan, when it governs (ENTERPRISE_PLAN_REQUIRED otherwise)", () => {
    given(onClassicPlan('enterprise')).when(configure()).then([configured(), pending()]);
    given(onChorusPlan('teams')).when(configure()).thenThrows('ENTERPRISE_PLAN_REQUIRED', { feature: 'sso' });
    given(onClassicPlan('professional')).when(configure()).thenThrows('ENTERPRISE_PLAN_REQUIRED', { feature: 'sso' });
    given([organizationCreated()]).when(configure()).thenThrows('ENTERPRISE_PLAN_REQUIRED', { feature: 'sso' });
    // Classic enterprise, but the Chorus teams plan governs while Chorus is on.
    given([...onChorusPlan('teams'), classicPlanAssigned('enterprise')])
      .when(configure())
      .thenThrows('ENTERPRISE_PLAN_REQUIRED');
  });

  it('keeps the sealed secret when a change leaves it out, and records nothing when nothing changes', () => {
    given([...enterprise, configured(), pending()])
      .when({
        type: 'ConfigureSso',
        data: { issuer: 'https://idp.acme.example', clientId: 'chorus-2', domains: ['acme.example'], checks },
      })
      .then([configured({ clientId: 'chorus-2' })]);
    // A domain listed before verification existed gets its token when the settings are saved again.
    given([...enterprise, configured()])
      .when(configure())
      .then([pending()]);
    given([...enterprise, configured(), pending()])
      .when({
        type: 'ConfigureSso',
        data: { issuer: 'https://idp.acme.example', clientId: 'chorus', domains: ['acme.example'], checks },
      })
      .then([]);
    given([...enterprise, configured(), pending()])
      .when(configure({ clientSecret: resealed }))
      .then([configured({ clientSecret: resealed })]);
  });

  it('refuses a first configuration without a secret, and any secret that is not sealed', () => {
    given(enterprise)
      .when(configure({ clientSecret: undefined }))
      .thenThrows('VALIDATION_FAILED', { field: 'clientSecret', reason: 'required' });
    given(enterprise)
      .when(configure({ clientSecret: 'hunter2-in-clear' }))
      .thenThrows('VALIDATION_FAILED', { field: 'clientSecret', reason: 'invalid_format' });
  });

  it.each([
    ['http on a public host', 'http://idp.acme.example'],
    ['a query', 'https://idp.acme.example/?tenant=1'],
    ['a fragment', 'https://idp.acme.example/#x'],
    ['credentials', 'https://user:pw@idp.acme.example'],
    ['no scheme', 'idp.acme.example'],
    ['another scheme', 'ftp://idp.acme.example'],
    ['nothing', ''],
  ])('refuses an issuer with %s', (_case, issuer) => {
    given(enterprise)
      .when(configure({ issuer }))
      .thenThrows('VALIDATION_FAILED', { field: 'issuer', reason: 'invalid_format' });
  });

  it('accepts http:// on a loopback address (local providers, tests) and keeps the issuer exactly as given', () => {
    for (const issuer of ['http://127.0.0.1:8080', 'http://localhost:9000/realms/acme', 'https://idp.acme.example/']) {
      given(enterprise)
        .when(configure({ issuer }))
        .then([configured({ issuer }), pending()]);
    }
  });

  it.each([['localhost'], ['acme'], ['192.168.1.10'], ['under_score.example'], ['a@acme.example'], ['']])(
    'refuses %j as an SSO domain (INVALID_HOSTNAME)',
    (domain) => {
      given(enterprise)
        .when(configure({ domains: [domain] }))
        .thenThrows('INVALID_HOSTNAME', { field: 'domains', value: domain });
    },
  );

  it('refuses no domains, more than 20, and one listed twice in any form', () => {
    given(enterprise)
      .when(configure({ domains: [] }))
      .thenThrows('VALIDATION_FAILED', { field: 'domains', reason: 'required' });
    const many = Array.from({ length: 21 }, (_, i) => `d${i}.example`);
    given(enterprise)
      .when(configure({ domains: many }))
      .thenThrows('VALIDATION_FAILED', { field: 'domains', reason: 'out_of_range' });
    given(enterprise)
      .when(configure({ domains: ['bücher.example', 'XN--BCHER-KVA.example'] }))
      .thenThrows('DUPLICATE', { field: 'domains', value: 'bücher.example' });
  });

  it('refuses a client id with spaces or none', () => {
    given(enterprise)
      .when(configure({ clientId: 'a b' }))
      .thenThrows('VALIDATION_FAILED', { field: 'clientId', reason: 'invalid_format' });
    given(enterprise)
      .when(configure({ clientId: '' }))
      .thenThrows('VALIDATION_FAILED', { field: 'clientId', reason: 'invalid_format' });
  });

  it("is the owners' to decide: an admin is FORBIDDEN (requires owner), an owner may", () => {
    given(enterprise, { requester: memberRequester('user-2') })
      .when(configure())
      .thenThrows('FORBIDDEN', { requires: 'owner' });
    given([...enterprise, configured(), pending()], { requester: memberRequester('user-2') })
      .when({ type: 'DisableSso', data: {} })
      .thenThrows('FORBIDDEN', { requires: 'owner' });
    given(enterprise, { requester: memberRequester('user-1') })
      .when(configure())
      .then([configured(), pending()]);
  });
});

describe('DisableSso', () => {
  it('turns SSO off, on any plan; off again records nothing', () => {
    given([...enterprise, configured(), pending()])
      .when({ type: 'DisableSso', data: {} })
      .then([{ type: 'SsoDisabled', data: {} }]);
    given([...enterprise, configured(), classicPlanAssigned('essential')])
      .when({ type: 'DisableSso', data: {} })
      .then([{ type: 'SsoDisabled', data: {} }]);
    given(enterprise).when({ type: 'DisableSso', data: {} }).then([]);
  });
});

describe('SSO domain verification', () => {
  const check = (found: boolean, when = at, graceMs = 3_600_000) =>
    ({ type: 'RecordSsoDomainCheck', data: { domain: 'acme.example', found, at: when, graceMs } }) as const;
  const later = (ms: number) => new Date(Date.parse(at) + ms).toISOString();
  const verified = { type: 'SsoDomainVerified', data: { domain: 'acme.example', at } } as const;
  const missing = { type: 'SsoDomainRecordMissing', data: { domain: 'acme.example', at: later(1_000) } } as const;

  it('needs a token for each new domain, and the time', () => {
    given(enterprise)
      .when(configure({ verificationTokens: {} }))
      .thenThrows('VALIDATION_FAILED', { field: 'verificationTokens', reason: 'required' });
    given(enterprise)
      .when(configure({ verificationTokens: { 'acme.example': 'short' } }))
      .thenThrows('VALIDATION_FAILED', { field: 'verificationTokens', reason: 'required' });
    given(enterprise)
      .when(configure({ at: undefined }))
      .thenThrows('VALIDATION_FAILED', { field: 'at', reason: 'required' });
  });

  it('verifies a pending domain whose record is found; a missing record leaves it pending', () => {
    given([...enterprise, configured(), pending()])
      .when(check(true))
      .then([verified]);
    given([...enterprise, configured(), pending()])
      .when(check(false))
      .then([]);
    given([...enterprise, configured(), pending(), verified])
      .when(check(true))
      .then([]);
  });

  it('keeps a verified domain through the grace period after its record went missing, then unverifies it', () => {
    const history = [...enterprise, configured(), pending(), verified];
    given(history)
      .when(check(false, later(1_000)))
      .then([missing]);
    given([...history, missing])
      .when(check(false, later(3_600_000)))
      .then([]);
    given([...history, missing])
      .when(check(false, later(3_601_000)))
      .then([{ type: 'SsoDomainUnverified', data: { domain: 'acme.example', at: later(3_601_000) } }]);
    // Found again within the grace period: verified, the missing mark gone.
    given([...history, missing])
      .when(check(true, later(2_000)))
      .then([{ type: 'SsoDomainVerified', data: { domain: 'acme.example', at: later(2_000) } }]);
  });

  it('refuses a domain that is not listed (NOT_FOUND) and an admin (requires owner)', () => {
    given([...enterprise, configured(), pending()])
      .when({ ...check(true), data: { ...check(true).data, domain: 'other.example' } })
      .thenThrows('NOT_FOUND');
    given([...enterprise, configured(), pending()], { requester: memberRequester('user-2') })
      .when(check(true))
      .thenThrows('FORBIDDEN', { requires: 'owner' });
  });

  it('drops the proof of a domain taken off the list: listed again, it is pending with a new token', () => {
    const without = configured({ domains: ['eu.acme.example'] });
    given([...enterprise, configured(), pending(), verified, without, pending('eu.acme.example')])
      .when(configure())
      .then([configured(), pending()]);
  });
});

describe('ConfigureSso, with what the application found out before', () => {
  it('refuses a public mail domain, a domain another organization holds, an issuer not allowed here, and a failed discovery, in that order', () => {
    given(enterprise)
      .when(
        configure({
          domains: ['acme.example', 'gmail.com'],
          checks: { ...checks, publicDomains: ['gmail.com'], discovery: 'not-asked' },
        }),
      )
      .thenThrows('SSO_DOMAIN_PUBLIC', {
        domain: 'gmail.com',
        errors: [{ pointer: '#/domains', detail: 'gmail.com is a public mail domain' }],
      });
    given(enterprise)
      .when(configure({ checks: { ...checks, domainsHeldElsewhere: ['acme.example'], discovery: 'not-asked' } }))
      .thenThrows('SSO_DOMAIN_TAKEN', { domain: 'acme.example' });
    given(enterprise)
      .when(configure({ checks: { ...checks, issuerAllowed: false, discovery: 'not-asked' } }))
      .thenThrows('VALIDATION_FAILED', { field: 'issuer', reason: 'not_allowed' });
    given(enterprise)
      .when(configure({ checks: { ...checks, discovery: 'failed' } }))
      .thenThrows('SSO_DISCOVERY_FAILED', { issuer: 'https://idp.acme.example' });
    // The roles rule and the plan come first: an admin, or another plan, is refused whatever was found.
    given(onChorusPlan('teams'))
      .when(configure({ checks: { ...checks, discovery: 'failed' } }))
      .thenThrows('ENTERPRISE_PLAN_REQUIRED');
  });
});
