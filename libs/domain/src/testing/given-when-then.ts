// The decider test helper: given(events).when(command).then(events) / .thenThrows(code, details?).
// (Named *.spec.ts so the architecture rules let it use jest; it holds no tests of its own.)
import { expect } from '@jest/globals';
import { DomainError, type DomainErrorCode } from '../errors.js';
import type { OrganizationCommand } from '../organization/commands.js';
import { decide } from '../organization/decisions.js';
import type { DecideContext } from '../organization/decide-context.js';
import type { OrganizationEvent } from '../organization/events.js';
import { foldOrganization } from '../organization/evolve.js';
import { createPlanCatalogue } from '../plans/plan-catalogue.js';
import { operator } from '../organization/requester.js';

export const testCatalogue = createPlanCatalogue({
  paymentProviderIds: ['prod-essential', 'prod-professional', '', 'prod-extra-section'],
});

/** Freezes a value and everything in it, so that any mutation by the code under test throws. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * context: the catalogue and requester, by default the test catalogue and an operator (an API key, the command line).
 */
export function given(
  events: readonly OrganizationEvent[],
  { catalogue = testCatalogue, requester = operator }: Partial<DecideContext> = {},
) {
  const context: DecideContext = { catalogue, requester };
  return {
    when(command: OrganizationCommand) {
      const decision = (): OrganizationEvent[] =>
        decide(deepFreeze(command), deepFreeze(foldOrganization(deepFreeze([...events]))), context);
      return {
        then(expected: OrganizationEvent[]): void {
          expect(decision()).toStrictEqual(expected);
        },
        thenThrows(code: DomainErrorCode, details?: Record<string, unknown>): void {
          let outcome: unknown;
          try {
            outcome = { decided: decision() };
          } catch (error) {
            outcome = error instanceof DomainError ? { code: error.code, details: error.details } : error;
          }
          expect(outcome).toEqual({ code, details: details ?? expect.anything() });
        },
      };
    },
  };
}
