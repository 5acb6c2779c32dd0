// Load a user's stream, fold it, decide, append at the expected revision (one retry on a conflict).
import { randomUUID } from 'node:crypto';
import { WrongExpectedRevisionError, type EventStore } from '#event-store';
import type { Clock } from '../clock.js';
import { eventMetadata, type RequestContext } from '../metadata.js';
import type { UserCommand } from './commands.js';
import { decide } from './decide.js';
import { userStream, type UserEvent } from './events.js';
import { evolve, initialUserState, type UserState } from './user.js';

export type LoadedUser = { state: UserState; revision: bigint | 'no_stream' };

export class Users {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  async load(userId: string): Promise<LoadedUser> {
    const result = await this.store.readStream(userStream(userId));
    if (!result.found) return { state: initialUserState(), revision: 'no_stream' };
    let state = initialUserState();
    for (const event of result.events) state = evolve(state, { type: event.type, data: event.data } as UserEvent);
    const last = result.events.at(-1);
    return { state, revision: last === undefined ? 'no_stream' : last.revision };
  }

  /** Runs the command; answers the new state and the events it appended (none when nothing changed). */
  async handle(userId: string, command: UserCommand, context: RequestContext): Promise<{ state: UserState; events: UserEvent[] }> {
    try {
      return await this.attempt(userId, command, context);
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      return this.attempt(userId, command, context);
    }
  }

  private async attempt(userId: string, command: UserCommand, context: RequestContext) {
    const { state, revision } = await this.load(userId);
    const events = decide(command, state, { now: this.clock.now() });
    if (events.length > 0) {
      const metadata = eventMetadata(context);
      await this.store.append(
        userStream(userId),
        events.map((event) => ({ id: randomUUID(), type: event.type, data: event.data, metadata })),
        revision,
      );
    }
    return { state: events.reduce(evolve, state), events };
  }
}
