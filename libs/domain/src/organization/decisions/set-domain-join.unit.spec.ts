import { describe, it } from '@jest/globals';
import { given } from '../../testing/given-when-then.js';
import { memberAdded, onChorusPlan } from '../../testing/organization-events.js';
import type { OrganizationEvent } from '../events.js';
import { memberRequester } from '../requester.js';

const at = '2030-01-01T00:00:00.000Z';
const sso: OrganizationEvent[] = [
  ...onChorusPlan('enterprise'),
  memberAdded(1, 'owner'),
  memberAdded(2, 'admin'),
  {
    type: 'SsoConfigured',
    data: {
      issuer: 'https://idp.acme.example',
      clientId: 'chorus',
      clientSecret: 'v1.k1.AAAAAAAAAAAAAAAA.BBBB',
      domains: ['acme.example', 'eu.acme.example'],
      enforce: false,
    },
  },
  { type: 'SsoDomainPending', data: { domain: 'acme.example', token: 't'.repeat(32), at } },
  { type: 'SsoDomainPending', data: { domain: 'eu.acme.example', token: 'u'.repeat(32), at } },
  { type: 'SsoDomainVerified', data: { domain: 'acme.example', at } },
];
const automatic = {
  type: 'DomainJoinSet',
  data: { domain: 'acme.example', join: 'automatic', role: 'auditor' },
} as const;

describe('SetDomainJoin', () => {
  it('lets people of a verified domain join with a role, member by default, and records nothing for the same setting', () => {
    given(sso)
      .when({ type: 'SetDomainJoin', data: { domain: 'acme.example', join: 'automatic', role: 'auditor' } })
      .then([automatic]);
    given(sso)
      .when({ type: 'SetDomainJoin', data: { domain: 'acme.example', join: 'automatic' } })
      .then([{ type: 'DomainJoinSet', data: { domain: 'acme.example', join: 'automatic', role: 'member' } }]);
    given([...sso, automatic])
      .when({ type: 'SetDomainJoin', data: { domain: 'acme.example', join: 'automatic', role: 'auditor' } })
      .then([]);
    given([...sso, automatic])
      .when({ type: 'SetDomainJoin', data: { domain: 'acme.example', join: 'invitation' } })
      .then([{ type: 'DomainJoinSet', data: { domain: 'acme.example', join: 'invitation' } }]);
    given(sso)
      .when({ type: 'SetDomainJoin', data: { domain: 'acme.example', join: 'invitation' } })
      .then([]);
  });

  it('refuses a domain not verified (yet), owner as the role, and an admin asking', () => {
    given(sso)
      .when({ type: 'SetDomainJoin', data: { domain: 'eu.acme.example', join: 'automatic' } })
      .thenThrows('VALIDATION_FAILED', { field: 'domain', reason: 'not_allowed' });
    given(sso)
      .when({ type: 'SetDomainJoin', data: { domain: 'globex.example', join: 'automatic' } })
      .thenThrows('VALIDATION_FAILED', { field: 'domain', reason: 'not_allowed' });
    given(sso)
      .when({ type: 'SetDomainJoin', data: { domain: 'acme.example', join: 'automatic', role: 'owner' } })
      .thenThrows('VALIDATION_FAILED', { field: 'role', reason: 'not_allowed' });
    given(sso, { requester: memberRequester('user-2') })
      .when({ type: 'SetDomainJoin', data: { domain: 'acme.example', join: 'automatic' } })
      .thenThrows('FORBIDDEN', { requires: 'owner' });
  });
});

describe('RecordAutomaticJoinRefusal', () => {
  it('is recorded once a day, so that the owners are mailed once a day', () => {
    const refused = { type: 'AutomaticJoinRefused', data: { domain: 'acme.example', on: '2030-01-01' } } as const;
    given(sso)
      .when({ type: 'RecordAutomaticJoinRefusal', data: { domain: 'acme.example', on: '2030-01-01' } })
      .then([refused]);
    given([...sso, refused])
      .when({ type: 'RecordAutomaticJoinRefusal', data: { domain: 'acme.example', on: '2030-01-01' } })
      .then([]);
    given([...sso, refused])
      .when({ type: 'RecordAutomaticJoinRefusal', data: { domain: 'acme.example', on: '2030-01-02' } })
      .then([{ ...refused, data: { ...refused.data, on: '2030-01-02' } }]);
  });
});
