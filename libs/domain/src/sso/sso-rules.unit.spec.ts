import { describe, expect, it } from '@jest/globals';
import { foldOrganization } from '../organization/evolve.js';
import type { ExistingOrganization, OidcSsoSettings } from '../organization/state.js';
import { onChorusPlan } from '../testing/organization-events.js';
import { emailDomain, isSealedSecret, parseIssuer, ssoDomainOf } from './sso-rules.js';

const withSso = foldOrganization([
  ...onChorusPlan('enterprise'),
  {
    type: 'SsoConfigured',
    data: {
      issuer: 'https://idp.example',
      clientId: 'c',
      clientSecret: 'v1.k.AAAAAAAAAAAAAAAA.BBBBBBBBBBBBBBBBBBBBBB',
      domains: ['acme.example', 'xn--bcher-kva.example'],
      enforce: false,
    },
  },
  ...['acme.example', 'xn--bcher-kva.example'].flatMap((domain) => [
    { type: 'SsoDomainPending' as const, data: { domain, token: 'T'.repeat(32), at: '2030-01-01T00:00:00.000Z' } },
    { type: 'SsoDomainVerified' as const, data: { domain, at: '2030-01-01T00:01:00.000Z' } },
  ]),
]) as ExistingOrganization;

describe('SSO rules', () => {
  it("finds the organization's domain of an address: exact, any case, Unicode or ASCII; not a subdomain or a look-alike", () => {
    expect(ssoDomainOf(withSso, 'ann@acme.example')).toBe('acme.example');
    expect(ssoDomainOf(withSso, 'Ann@ACME.Example')).toBe('acme.example');
    expect(ssoDomainOf(withSso, 'max@bücher.example')).toBe('xn--bcher-kva.example');
    expect(ssoDomainOf(withSso, 'ann@eu.acme.example')).toBeNull();
    expect(ssoDomainOf(withSso, 'ann@acme.example.evil.example')).toBeNull();
    expect(ssoDomainOf(withSso, 'acme.example@evil.example')).toBeNull();
    expect(ssoDomainOf(withSso, 'ann@acme.example@evil.example')).toBeNull();
    expect(
      ssoDomainOf(foldOrganization(onChorusPlan('enterprise')) as ExistingOrganization, 'ann@acme.example'),
    ).toBeNull();
    // Listed but not (or no longer) verified: it covers no one.
    const { issuer, clientId, clientSecret, enforce } = withSso.sso as OidcSsoSettings;
    const listedOnly = { issuer, clientId, clientSecret, enforce, domains: ['acme.example'] };
    const unproven = foldOrganization([...onChorusPlan('enterprise'), { type: 'SsoConfigured', data: listedOnly }]);
    expect(ssoDomainOf(unproven as ExistingOrganization, 'ann@acme.example')).toBeNull();
  });

  it('reads the domain after the last @ only', () => {
    expect(emailDomain('a@b@acme.example')).toBe('acme.example');
    expect(emailDomain('@acme.example')).toBeNull();
    expect(emailDomain('ann')).toBeNull();
  });

  it('knows a sealed secret from a clear one', () => {
    expect(isSealedSecret('v1.k1.AAAAAAAAAAAAAAAA.BBBBBBBBBBBBBBBBBBBBBB')).toBe(true);
    expect(isSealedSecret('correct horse battery staple')).toBe(false);
    expect(isSealedSecret('v1.k1.short.BBBBBBBBBBBBBBBBBBBBBB')).toBe(false);
  });

  it('takes issuers on https, or http on loopback only', () => {
    expect(parseIssuer(' https://login.acme.example/tenant ')).toBe('https://login.acme.example/tenant');
    expect(parseIssuer('http://[::1]:8080')).toBe('http://[::1]:8080');
    expect(parseIssuer('http://127.0.0.1.nip.io')).toBeNull();
    expect(parseIssuer('http://10.0.0.1')).toBeNull();
  });
});
