// Cached folds, so a sign-in's cost does not grow with the user's history.
import {
  FoldedStateCache,
  handleCommand,
  handleCommandOn,
  loadStream,
  READ_PAGE_SIZE,
  type CommandContext,
  type DecisionReads,
  type HandledCommand,
  type LoadedStream,
  type StreamChange,
} from '#application';
import { type EventStore } from '#event-store';
import type { Clock } from '../clock.js';
import {
  OpenSessionScan,
  userDecider,
  userStream,
  type OpenSession,
  type UserCommand,
  type UserDecision,
  type UserEvent,
  type UserState,
} from '#domain';

const endsSessions = (command: UserCommand): boolean =>
  command.type === 'CompletePasswordReset' ||
  command.type === 'ChangePassword' ||
  command.type === 'PassSecondStep' ||
  command.type === 'ErasePersonalData';

export type LoadedUser = { state: UserState; revision: bigint | 'no_stream' };

export const DEFAULT_CACHED_USERS = 10_000;

export class Users {
  private readonly cache: FoldedStateCache<UserState>;

  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
    /** How far back open sessions are looked for. */
    private readonly sessionLifetimeMs: number,
    cachedUsers: number = DEFAULT_CACHED_USERS,
  ) {
    this.cache = new FoldedStateCache<UserState>(cachedUsers);
  }

  async load(userId: string): Promise<LoadedUser> {
    const { state, revision } = await loadStream(this.store, userDecider, userId, { cache: this.cache });
    return { state, revision: revision ?? 'no_stream' };
  }

  /** The user's stream in a decision over several streams, read through this node's cache. */
  async readFor(
    reads: DecisionReads,
    userId: string,
  ): Promise<LoadedStream<UserState> & { decide(command: UserCommand): StreamChange }> {
    const stream = await reads.stream(userDecider, userId, { cache: this.cache });
    return {
      ...stream,
      decide: (command) => stream.decide({ ...command, facts: { now: this.clock.now(), twoStepRequired: false } }),
    };
  }

  async handle(
    userId: string,
    command: UserCommand,
    context: CommandContext,
    { twoStepRequired = false }: { twoStepRequired?: boolean } = {},
  ): Promise<{ state: UserState; events: UserEvent[] }> {
    const handled = endsSessions(command)
      ? await this.handleOnSessions(userId, command, context, twoStepRequired)
      : await this.handleAsIs(userId, command, context, twoStepRequired);
    return { state: handled.state, events: handled.appended.map(({ type, data }) => ({ type, data }) as UserEvent) };
  }

  private handleAsIs(
    userId: string,
    command: UserCommand,
    context: CommandContext,
    twoStepRequired: boolean,
  ): Promise<HandledCommand<UserState>> {
    const recording = command.type === 'RecordSignIn' || command.type === 'RecordSignOut';
    const decision: UserDecision = { ...command, facts: { now: this.clock.now(), twoStepRequired } };
    return handleCommand(this.store, userDecider, userId, decision, context, {
      cache: this.cache,
      // Without a read: the append carries the revision, so anything recorded since costs a retry.
      known: recording ? this.cache.get(userStream(userId)) : undefined,
    });
  }

  /** Sessions are read after the state decided on, so none started since that state is missed. */
  private async handleOnSessions(
    userId: string,
    command: UserCommand,
    context: CommandContext,
    twoStepRequired: boolean,
  ): Promise<HandledCommand<UserState>> {
    const decisionOn = async (): Promise<UserDecision> => ({
      ...command,
      facts: { now: this.clock.now(), openSessions: await this.openSessions(userId), twoStepRequired },
    });
    return handleCommandOn(this.store, userDecider, userId, decisionOn, context, {
      cache: this.cache,
      commandType: command.type,
    });
  }

  /** Read backwards only as far as a session could still be live, so the cost follows recent sign-ins, not history. */
  async openSessions(userId: string): Promise<OpenSession[]> {
    const now = this.clock.now().getTime();
    const scan = new OpenSessionScan(now, now - this.sessionLifetimeMs);
    let fromRevision: bigint | undefined;
    for (;;) {
      const page = await this.store.readStream(userStream(userId), {
        direction: 'backwards',
        maxCount: READ_PAGE_SIZE,
        ...(fromRevision === undefined ? {} : { fromRevision }),
      });
      if (!page.found) return scan.open;
      for (const { type, data } of page.events) if (!scan.take({ type, data } as UserEvent)) return scan.open;
      const oldest = page.events.at(-1);
      if (oldest === undefined || page.events.length < READ_PAGE_SIZE || oldest.revision === 0n) return scan.open;
      fromRevision = oldest.revision - 1n;
    }
  }
}
