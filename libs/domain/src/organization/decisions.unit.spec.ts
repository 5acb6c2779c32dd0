import { describe, it } from '@jest/globals';
import { given } from '../testing/given-when-then.js';
import { organizationCreated } from '../testing/organization-events.js';
import type { OrganizationCommand } from './commands.js';
import { UNKNOWN_COMMAND_TYPE } from '../testing/unknown-types.js';

const everyCommandButCreate: OrganizationCommand[] = [
  { type: 'AssignPlan', data: { line: 'classic', plan: 'essential' } },
  { type: 'PurchaseAddOn', data: { addOn: 'additionalUser' } },
  { type: 'CancelAddOn', data: { addOn: 'additionalUser' } },
  { type: 'EnableChorus', data: {} },
  { type: 'DisableChorus', data: {} },
  { type: 'ConfigureLimits', data: { users: 3 } },
  { type: 'AddMember', data: { userId: 'user-1', email: 'a@example.com', role: 'owner' } },
  { type: 'RemoveMember', data: { userId: 'user-1' } },
  { type: 'AddSite', data: { siteId: 'site-1', name: 'Shop', hostname: 'shop.example.com' } },
  { type: 'RemoveSite', data: { siteId: 'site-1' } },
  { type: 'AddQualityAssuranceDomain', data: { domain: 'qa.example.com' } },
  { type: 'RemoveQualityAssuranceDomain', data: { domain: 'qa.example.com' } },
  { type: 'AddWebAnalyticsDomain', data: { domain: 'wa.example.com' } },
  { type: 'RemoveWebAnalyticsDomain', data: { domain: 'wa.example.com' } },
];

describe('decide', () => {
  it.each(everyCommandButCreate.map((command) => [command.type, command] as const))(
    '%s needs the organization to exist (NOT_FOUND)',
    (_type, command) => {
      given([]).when(command).thenThrows('NOT_FOUND', { entity: 'organization' });
    },
  );

  it('refuses a command without data', () => {
    given([organizationCreated()])
      .when({ type: 'EnableChorus' } as unknown as OrganizationCommand)
      .thenThrows('VALIDATION_FAILED', { field: 'data', reason: 'required' });
  });

  it('refuses a command type it does not know', () => {
    given([organizationCreated()])
      .when({ type: UNKNOWN_COMMAND_TYPE, data: { name: 'x' } } as unknown as OrganizationCommand)
      .thenThrows('VALIDATION_FAILED', { field: 'type', reason: 'not_allowed' });
  });
});
