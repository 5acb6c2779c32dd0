import { describe, expect, it } from '@jest/globals';
import { storedOrganizationState } from './stored-organization-state.js';

describe('a stored organization state written before SSO domain verification existed', () => {
  it('reads its SSO settings with no verification (every domain unverified), and one without SSO as before', () => {
    const sso = {
      issuer: 'https://idp.example',
      clientId: 'c',
      clientSecret: 'sealed',
      domains: ['acme.example'],
      enforce: true,
    };
    const older = storedOrganizationState(JSON.stringify({ exists: true, id: 'acme', sso }));
    expect(older).toMatchObject({ sso: { ...sso, verification: {}, trustProviderMfa: false } });
    expect(storedOrganizationState(JSON.stringify({ exists: true, id: 'acme' }))).toMatchObject({ sso: null });
  });
});
