import { describe, it } from '@jest/globals';
import type { PlanCatalogue } from '../../plans/catalogue.js';
import { given, testCatalogue } from '../../testing/given-when-then.js';
import {
  chorusEnabled,
  chorusPlanAssigned,
  classicPlanAssigned,
  organizationCreated,
} from '../../testing/organization-events.js';
import type { AssignPlan } from './assign-plan.js';

describe('AssignPlan', () => {
  it.each([
    ['classic', 'essential'],
    ['classic', 'professional'],
    ['classic', 'enterprise'],
    ['chorus', 'solo'],
    ['chorus', 'teams'],
    ['chorus', 'enterprise'],
    ['chorus', 'light'],
  ] as const)('assigns the %s plan %s', (line, plan) => {
    given([organizationCreated()])
      .when({ type: 'AssignPlan', data: { line, plan } })
      .then([{ type: 'PlanAssigned', data: { line, plan } }]);
  });

  it.each(['standard', 'assisted', 'turnkey'] as const)('carries the service level %s', (serviceLevel) => {
    given([organizationCreated()])
      .when({ type: 'AssignPlan', data: { line: 'chorus', plan: 'teams', serviceLevel } })
      .then([{ type: 'PlanAssigned', data: { line: 'chorus', plan: 'teams', serviceLevel } }]);
  });

  it('changes from one plan to another, down as well as up', () => {
    given([organizationCreated(), chorusPlanAssigned('enterprise')])
      .when({ type: 'AssignPlan', data: { line: 'chorus', plan: 'solo' } })
      .then([{ type: 'PlanAssigned', data: { line: 'chorus', plan: 'solo' } }]);
  });

  it('decides nothing when the line already has that plan and no new service level is asked for', () => {
    given([organizationCreated(), classicPlanAssigned('professional')])
      .when({ type: 'AssignPlan', data: { line: 'classic', plan: 'professional' } })
      .then([]);
    given([organizationCreated(), classicPlanAssigned('professional', 'assisted')])
      .when({ type: 'AssignPlan', data: { line: 'classic', plan: 'professional', serviceLevel: 'assisted' } })
      .then([]);
  });

  it('records the same plan again when only the service level changes', () => {
    given([organizationCreated(), classicPlanAssigned('professional')])
      .when({ type: 'AssignPlan', data: { line: 'classic', plan: 'professional', serviceLevel: 'turnkey' } })
      .then([{ type: 'PlanAssigned', data: { line: 'classic', plan: 'professional', serviceLevel: 'turnkey' } }]);
  });

  it('assigned by hand, a Chorus plan leaves Chorus off; paid through billing, it turns Chorus on as its own event', () => {
    given([organizationCreated()])
      .when({ type: 'AssignPlan', data: { line: 'chorus', plan: 'teams' } })
      .then([{ type: 'PlanAssigned', data: { line: 'chorus', plan: 'teams' } }]);
    given([organizationCreated(), classicPlanAssigned('professional')])
      .when({ type: 'AssignPlan', data: { line: 'chorus', plan: 'teams', paid: true } })
      .then([
        { type: 'PlanAssigned', data: { line: 'chorus', plan: 'teams' } },
        { type: 'ChorusEnabled', data: { paidPlan: 'teams' } },
      ]);
    // Already on, or a Classic plan paid for: nothing more.
    given([organizationCreated(), chorusEnabled()])
      .when({ type: 'AssignPlan', data: { line: 'chorus', plan: 'teams', paid: true } })
      .then([{ type: 'PlanAssigned', data: { line: 'chorus', plan: 'teams' } }]);
    given([organizationCreated()])
      .when({ type: 'AssignPlan', data: { line: 'classic', plan: 'essential', paid: true } })
      .then([{ type: 'PlanAssigned', data: { line: 'classic', plan: 'essential' } }]);
  });

  it('treats the plans of the two lines separately: the same name on the other line is a change', () => {
    given([organizationCreated(), classicPlanAssigned('enterprise')])
      .when({ type: 'AssignPlan', data: { line: 'chorus', plan: 'enterprise' } })
      .then([{ type: 'PlanAssigned', data: { line: 'chorus', plan: 'enterprise' } }]);
  });

  it('refuses a plan of the other line', () => {
    given([organizationCreated()])
      .when({ type: 'AssignPlan', data: { line: 'classic', plan: 'solo' } })
      .thenThrows('VALIDATION_FAILED', { field: 'plan', reason: 'not_allowed' });
    given([organizationCreated()])
      .when({ type: 'AssignPlan', data: { line: 'chorus', plan: 'essential' } })
      .thenThrows('VALIDATION_FAILED', { field: 'plan', reason: 'not_allowed' });
  });

  it('refuses an unknown line, plan or service level', () => {
    const command = (data: unknown): AssignPlan => ({ type: 'AssignPlan', data }) as AssignPlan;
    given([organizationCreated()])
      .when(command({ line: 'gold', plan: 'solo' }))
      .thenThrows('VALIDATION_FAILED', { field: 'line', reason: 'not_allowed' });
    given([organizationCreated()])
      .when(command({ line: 'chorus', plan: 'platinum' }))
      .thenThrows('VALIDATION_FAILED', { field: 'plan', reason: 'not_allowed' });
    given([organizationCreated()])
      .when(command({ line: 'chorus', plan: 'solo', serviceLevel: 'premium' }))
      .thenThrows('VALIDATION_FAILED', { field: 'serviceLevel', reason: 'not_allowed' });
  });

  it('refuses a plan the catalogue in use does not hold', () => {
    const withoutLight: PlanCatalogue = {
      ...testCatalogue,
      plans: testCatalogue.plans.filter((spec) => spec.name !== 'light'),
    };
    given([organizationCreated()], { catalogue: withoutLight })
      .when({ type: 'AssignPlan', data: { line: 'chorus', plan: 'light' } })
      .thenThrows('VALIDATION_FAILED', { field: 'plan', reason: 'not_allowed' });
  });
});
