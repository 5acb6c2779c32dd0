// A user's stream: load it, and run a command on it through the one load-decide-append function.
import { eventMetadata, handleCommand, loadStream, type CommandContext, type EventStore, type StreamFold } from '#event-store';
import type { Clock } from '../clock.js';
import type { UserCommand } from './commands.js';
import { decide } from './decide.js';
import { userStream, type UserEvent } from './events.js';
import { evolve, initialUserState, type UserState } from './user.js';

export type LoadedUser = { state: UserState; revision: bigint | 'no_stream' };

const userFold: StreamFold<UserState, UserEvent> = { initialState: initialUserState(), evolve };

export class Users {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  async load(userId: string): Promise<LoadedUser> {
    const { state, revision } = await loadStream(this.store, userStream(userId), userFold);
    return { state, revision: revision ?? 'no_stream' };
  }

  /** Runs the command; answers the new state and the events it appended (none when nothing changed). */
  async handle(userId: string, command: UserCommand, context: CommandContext): Promise<{ state: UserState; events: UserEvent[] }> {
    const handled = await handleCommand(this.store, userStream(userId), (state) => decide(command, state, { now: this.clock.now() }), {
      ...userFold,
      metadata: eventMetadata(context),
    });
    return { state: handled.state, events: handled.appended.map(({ type, data }) => ({ type, data }) as UserEvent) };
  }
}
