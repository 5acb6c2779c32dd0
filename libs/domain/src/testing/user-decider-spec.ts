// given([...events]).when(command).then([...events]) / .thenThrows(code), as in emmett.
import { expect } from '@jest/globals';
import type { DomainErrorCode } from '../errors.js';
import type { UserCommand } from '../user/commands.js';
import { decideUser } from '../user/decide.js';
import type { UserEvent } from '../user/events.js';
import { evolveUser, initialUserState, OpenSessionScan } from '../user/user.js';

export function given(
  events: UserEvent[],
  now: Date = new Date('2030-01-01T10:00:00.000Z'),
  { twoStepRequired = false } = {},
) {
  const state = events.reduce(evolveUser, initialUserState());
  // What Users.openSessions reads from the stream, newest first, for the decisions that end sessions.
  const scan = new OpenSessionScan(now.getTime(), Number.NEGATIVE_INFINITY);
  for (const event of [...events].reverse()) scan.take(event);
  return {
    when(command: UserCommand) {
      const run = () => decideUser(command, state, { now, openSessions: scan.open, twoStepRequired });
      return {
        then(expected: UserEvent[]) {
          expect(run()).toEqual(expected);
        },
        thenThrows(code: DomainErrorCode) {
          let thrown: unknown;
          try {
            run();
          } catch (error) {
            thrown = error;
          }
          expect(thrown).toMatchObject({ name: 'DomainError', code });
        },
      };
    },
  };
}
