// given(events).when(command).then(events) / .thenThrows(code, details?) for any stream's decider (Emmett's
// DeciderSpecification): the state is folded from the events with the decider's own evolve, everything frozen.
import { expect } from '@jest/globals';
import type { Decider, DomainEvent } from '../decider.js';
import { DomainError, type DomainErrorCode } from '../errors.js';
import { deepFreeze } from './given-when-then.js';

export function deciderSpec<State, Command, Event extends DomainEvent>(decider: Decider<State, Command, Event>) {
  return {
    given(events: readonly Event[]) {
      return {
        when(command: Command) {
          const decision = (): readonly Event[] =>
            decider.decide(deepFreeze(command), deepFreeze([...events].reduce(decider.evolve, decider.initialState)));
          return {
            then(expected: readonly Event[]): void {
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
    },
  };
}
