// A user's stream: load it, and run a command on it through the one load-decide-append function.
// Loads go through a cache of folded states (as organizations do), so a sign-in reads only the events
// recorded since this node last saw the user: its cost does not grow with the user's history.
import { eventMetadata, FoldedStateCache, handleCommand, loadStream, READ_PAGE_SIZE, type CommandContext, type StreamFold } from '#application';
import { type EventStore } from '#event-store';
import type { Clock } from '../clock.js';
import { type UserCommand, decideUser, userStream, type UserEvent, evolveUser, initialUserState, OpenSessionScan, type OpenSession, type UserState } from '#domain';

export type LoadedUser = { state: UserState; revision: bigint | 'no_stream' };

export const DEFAULT_CACHED_USERS = 10_000;

/**
 * Attempts for a sign-in or sign-out record. A race lost on the user's stream only means that another
 * record was appended, which never changes these decisions, so they are not given up after the usual 10
 * (29 sign-outs of one user at once answered 19 conflicts): a burst of records ends when its last is in.
 */
const RECORD_ATTEMPTS = 1_000;

export class Users {
  private readonly fold: StreamFold<UserState, UserEvent>;
  private readonly cache: FoldedStateCache<UserState>;

  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
    /** How long a session can live (its absolute timeout): how far back the open sessions are looked for. */
    private readonly sessionLifetimeMs: number,
    cachedUsers: number = DEFAULT_CACHED_USERS,
  ) {
    this.cache = new FoldedStateCache<UserState>(cachedUsers);
    this.fold = { initialState: initialUserState(), evolve: evolveUser, cache: this.cache };
  }

  async load(userId: string): Promise<LoadedUser> {
    const { state, revision } = await loadStream(this.store, userStream(userId), this.fold);
    return { state, revision: revision ?? 'no_stream' };
  }

  /** Runs the command; answers the new state and the events it appended (none when nothing changed). */
  async handle(
    userId: string,
    command: UserCommand,
    context: CommandContext,
    { twoStepRequired = false }: { twoStepRequired?: boolean } = {},
  ): Promise<{ state: UserState; events: UserEvent[] }> {
    const recording = command.type === 'RecordSignIn' || command.type === 'RecordSignOut';
    const handled = await handleCommand(
      this.store,
      userStream(userId),
      async (state: UserState) => {
        const now = this.clock.now();
        // Read after the load, so they are at least as recent as the state: an append decided on anything
        // older fails on its expected revision and is decided again.
        const readsSessions = command.type === 'CompletePasswordReset' || command.type === 'ChangePassword' || command.type === 'PassSecondStep';
        const openSessions = readsSessions ? await this.openSessions(userId) : [];
        return decideUser(command, state, { now, openSessions, twoStepRequired });
      },
      // Written out rather than spread from the fold: a sign-in runs this once (spreading cost about 6 us).
      {
        initialState: this.fold.initialState,
        evolve: this.fold.evolve,
        cache: this.cache,
        metadata: eventMetadata(context),
        maxAttempts: recording ? RECORD_ATTEMPTS : undefined,
        // A record is decided on the user as this node last folded them (a sign-in loaded them a moment
        // ago), without a read: its append carries that revision, so anything recorded since costs a read.
        known: recording ? this.cache.get(userStream(userId)) : undefined,
      },
    );
    return { state: handled.state, events: handled.appended.map(({ type, data }) => ({ type, data }) as UserEvent) };
  }

  /**
   * The sessions the user's stream lists as open now: signed in, not signed out nor ended by a reset,
   * not past their absolute expiry. Read backwards from the stream's end only as far as a session could
   * still be live (its absolute timeout), so the cost follows the recent sign-ins, not the history.
   */
  async openSessions(userId: string): Promise<OpenSession[]> {
    const now = this.clock.now().getTime();
    const scan = new OpenSessionScan(now, now - this.sessionLifetimeMs);
    let fromRevision: bigint | undefined;
    for (;;) {
      const page = await this.store.readStream(userStream(userId), { direction: 'backwards', maxCount: READ_PAGE_SIZE, ...(fromRevision === undefined ? {} : { fromRevision }) });
      if (!page.found) return scan.open;
      for (const { type, data } of page.events) if (!scan.take({ type, data } as UserEvent)) return scan.open;
      const oldest = page.events.at(-1);
      if (oldest === undefined || page.events.length < READ_PAGE_SIZE || oldest.revision === 0n) return scan.open;
      fromRevision = oldest.revision - 1n;
    }
  }
}
