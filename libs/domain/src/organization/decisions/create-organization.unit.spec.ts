import { describe, it } from '@jest/globals';
import { given } from '../../testing/given-when-then.js';
import { organizationCreated } from '../../testing/organization-events.js';

describe('CreateOrganization', () => {
  it('creates the organization, with its name trimmed', () => {
    given([])
      .when({ type: 'CreateOrganization', data: { id: 'org-1', name: '  Acme  ' } })
      .then([{ type: 'OrganizationCreated', data: { id: 'org-1', name: 'Acme' } }]);
  });

  it('refuses to create it twice (ALREADY_EXISTS)', () => {
    given([organizationCreated('org-1')])
      .when({ type: 'CreateOrganization', data: { id: 'org-1', name: 'Acme' } })
      .thenThrows('ALREADY_EXISTS', { id: 'org-1' });
  });

  it('refuses an empty or blank name', () => {
    given([])
      .when({ type: 'CreateOrganization', data: { id: 'org-1', name: '' } })
      .thenThrows('VALIDATION_FAILED', { field: 'name', reason: 'required' });
    given([])
      .when({ type: 'CreateOrganization', data: { id: 'org-1', name: ' \t ' } })
      .thenThrows('VALIDATION_FAILED', { field: 'name', reason: 'required' });
  });

  it('accepts a name of 200 characters and refuses one of 201', () => {
    given([])
      .when({ type: 'CreateOrganization', data: { id: 'org-1', name: 'n'.repeat(200) } })
      .then([{ type: 'OrganizationCreated', data: { id: 'org-1', name: 'n'.repeat(200) } }]);
    given([])
      .when({ type: 'CreateOrganization', data: { id: 'org-1', name: 'n'.repeat(201) } })
      .thenThrows('VALIDATION_FAILED', { field: 'name', reason: 'too_long' });
  });

  it('refuses an empty id, one with characters unsafe in a URL path, and one over 128 characters', () => {
    given([])
      .when({ type: 'CreateOrganization', data: { id: '', name: 'Acme' } })
      .thenThrows('VALIDATION_FAILED', { field: 'id', reason: 'required' });
    given([])
      .when({ type: 'CreateOrganization', data: { id: 'a/b', name: 'Acme' } })
      .thenThrows('VALIDATION_FAILED', { field: 'id', reason: 'invalid_format' });
    given([])
      .when({ type: 'CreateOrganization', data: { id: 'i'.repeat(129), name: 'Acme' } })
      .thenThrows('VALIDATION_FAILED', { field: 'id', reason: 'invalid_format' });
    given([])
      .when({ type: 'CreateOrganization', data: { id: 'i'.repeat(128), name: 'Acme' } })
      .then([{ type: 'OrganizationCreated', data: { id: 'i'.repeat(128), name: 'Acme' } }]);
  });
});
