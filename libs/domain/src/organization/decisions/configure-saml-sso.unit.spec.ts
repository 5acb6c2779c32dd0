import { describe, expect, it } from '@jest/globals';
import { foldOrganization } from '../evolve.js';
import { given } from '../../testing/given-when-then.js';
import { memberAdded, onChorusPlan } from '../../testing/organization-events.js';
import type { OrganizationCommandOf } from '../commands.js';
import type { OrganizationEventOf } from '../decisions.js';
import type { OrganizationEvent } from '../events.js';
import { memberRequester } from '../requester.js';
import type { ExistingOrganization } from '../state.js';

const at = '2030-01-01T00:00:00.000Z';
const certificate = { certificate: 'MIIBase64==', sha256: 'a'.repeat(64), notAfter: '2031-01-01T00:00:00.000Z' };
const idp = {
  entityId: 'http://www.okta.com/exk1',
  ssoUrl: 'https://acme.okta.com/app/sso/saml',
  certificates: [certificate],
};
const checks = { publicDomains: [], domainsHeldElsewhere: [] };
const enterprise: OrganizationEvent[] = [
  ...onChorusPlan('enterprise'),
  memberAdded(1, 'owner'),
  memberAdded(2, 'admin'),
];
const configure = (data: Record<string, unknown> = {}) =>
  ({
    type: 'ConfigureSamlSso',
    data: {
      idp,
      domains: ['acme.example'],
      verificationTokens: { 'acme.example': 't'.repeat(32) },
      at,
      checks,
      ...data,
    },
  }) as OrganizationCommandOf<'ConfigureSamlSso'>;
const configured: OrganizationEventOf<'SamlSsoConfigured'> = {
  type: 'SamlSsoConfigured',
  data: {
    idpEntityId: idp.entityId,
    ssoUrl: idp.ssoUrl,
    certificates: [certificate],
    metadataUrl: null,
    domains: ['acme.example'],
    enforce: false,
    allowIdpInitiated: false,
  },
};
const pending: OrganizationEvent = {
  type: 'SsoDomainPending',
  data: { domain: 'acme.example', token: 't'.repeat(32), at },
};

describe('ConfigureSamlSso', () => {
  it('records the provider and the domains awaiting proof; the same settings again record nothing', () => {
    given(enterprise).when(configure()).then([configured, pending]);
    given([...enterprise, configured, pending])
      .when(configure())
      .then([]);
  });

  it('keeps the saved provider when no metadata is given, and refuses that before any provider is saved', () => {
    const changed = { ...configured, data: { ...configured.data, allowIdpInitiated: true } };
    given([...enterprise, configured, pending])
      .when(configure({ idp: undefined, allowIdpInitiated: true }))
      .then([changed]);
    given(enterprise)
      .when(configure({ idp: undefined }))
      .thenThrows('VALIDATION_FAILED', { field: 'metadataXml', reason: 'required' });
  });

  it('refuses a provider that is not one: no certificate, a sign-on URL that is not https, a bad entity id', () => {
    given(enterprise)
      .when(configure({ idp: { ...idp, certificates: [] } }))
      .thenThrows('VALIDATION_FAILED', { field: 'idp.certificates', reason: 'required' });
    given(enterprise)
      .when(configure({ idp: { ...idp, ssoUrl: 'http://idp.example/sso' } }))
      .thenThrows('VALIDATION_FAILED', { field: 'idp.ssoUrl', reason: 'invalid_format' });
    given(enterprise)
      .when(configure({ idp: { ...idp, entityId: 'has space' } }))
      .thenThrows('VALIDATION_FAILED', { field: 'idp.entityId', reason: 'invalid_format' });
    given(enterprise)
      .when(configure({ idp: { ...idp, certificates: [{ ...certificate, sha256: 'nope' }] } }))
      .thenThrows('VALIDATION_FAILED', { field: 'idp.certificates', reason: 'invalid_format' });
  });

  it('holds the rules of every protocol: enterprise plans, owners only, no public or taken domain', () => {
    given(onChorusPlan('teams')).when(configure()).thenThrows('ENTERPRISE_PLAN_REQUIRED');
    given(enterprise, { requester: memberRequester('user-2') })
      .when(configure())
      .thenThrows('FORBIDDEN', { requires: 'owner' });
    given(enterprise)
      .when(configure({ checks: { publicDomains: ['acme.example'], domainsHeldElsewhere: [] } }))
      .thenThrows('SSO_DOMAIN_PUBLIC');
    given(enterprise)
      .when(configure({ checks: { publicDomains: [], domainsHeldElsewhere: ['acme.example'] } }))
      .thenThrows('SSO_DOMAIN_TAKEN');
  });

  it('keeps a domain’s proof when the protocol changes', () => {
    const oidc: OrganizationEvent = {
      type: 'SsoConfigured',
      data: {
        issuer: 'https://idp.example',
        clientId: 'c',
        clientSecret: 's',
        domains: ['acme.example'],
        enforce: false,
      },
    };
    const state = foldOrganization([
      ...enterprise,
      oidc,
      pending,
      { type: 'SsoDomainVerified', data: { domain: 'acme.example', at } },
      configured,
    ]) as ExistingOrganization;
    expect(state.sso).toMatchObject({
      protocol: 'saml',
      idpEntityId: idp.entityId,
      verification: { 'acme.example': { status: 'verified' } },
    });
  });
});
