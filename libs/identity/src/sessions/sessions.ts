// A node sees its own sign-outs at once and other nodes' within `cacheMs` (bounded staleness), sooner when told
// of them (`forget`: the API follows session ends from the log).
import {
  handleCommand,
  loadStream,
  makeRoom,
  newCommandContext,
  type CommandContext,
  type HandledCommand,
} from '#application';
import { type EventStore } from '#event-store';
import type { Clock } from '../clock.js';
import {
  type SecondStepAwaited,
  type SecondStepMethod,
  type SignInMethod,
  isLive,
  sessionDecider,
  type Session,
  type SessionState,
  type SessionEndReason,
  type SessionStarted,
} from '#domain';
import type { Users } from '../user/users.js';
import type { SessionCookies } from './session-cookie.js';

export type SessionPolicy = {
  idleTimeoutMs: number;
  absoluteTimeoutMs: number;
  /** Activity is written at most this often; the idle timeout slides by this granularity. */
  refreshAfterMs: number;
  cacheMs: number;
  maxCachedSessions: number;
  /** Lifetime of a half-open session (password right, second step not passed yet). */
  secondStepTimeoutMs: number;
};

/** OWASP ASVS 3.3.2 (level 2): 30 minutes idle, 12 hours at most. */
export const defaultSessionPolicy: SessionPolicy = {
  idleTimeoutMs: 30 * 60_000,
  absoluteTimeoutMs: 12 * 3_600_000,
  refreshAfterMs: 5 * 60_000,
  cacheMs: 5_000,
  maxCachedSessions: 10_000,
  secondStepTimeoutMs: 10 * 60_000,
};

export type OpenedSession = { cookieValue: string; session: Session };

type Loaded = { session: Session; revision: bigint; fetchedAt: number };

export class Sessions {
  private readonly cache = new Map<string, Loaded>();

  constructor(
    private readonly store: EventStore,
    private readonly users: Users,
    private readonly cookies: SessionCookies,
    private readonly clock: Clock,
    private readonly policy: SessionPolicy = defaultSessionPolicy,
  ) {}

  /** Always a new id, never one the browser brought: no fixation. */
  async open(
    userId: string,
    method: SignInMethod,
    context: CommandContext,
    awaiting?: SecondStepAwaited,
  ): Promise<OpenedSession> {
    const { cookieValue, sessionId } = this.cookies.issue();
    const now = this.clock.now();
    const lifetimeMs = awaiting === undefined ? this.policy.absoluteTimeoutMs : this.policy.secondStepTimeoutMs;
    const absoluteExpiresAt = new Date(now.getTime() + lifetimeMs);
    const started = this.started(
      sessionId,
      userId,
      method,
      now,
      absoluteExpiresAt,
      context,
      awaiting === undefined ? {} : { awaiting },
    );
    // The session's append is handed over before the user's SignedIn, so a session the user's stream lists
    // always exists and a password reset can end it.
    const [appended] = await Promise.all([
      this.startStream(started, context),
      this.users.handle(
        userId,
        {
          type: 'RecordSignIn',
          data: { sessionId, method, absoluteExpiresAt, ...(awaiting === undefined ? {} : { awaiting }) },
        },
        context,
      ),
    ]);
    return { cookieValue, session: this.rememberStarted(appended, now) };
  }

  /** A new id, as after any change of privilege; `record` must refuse a code or a half-open session used already. */
  async openAfterSecondStep(
    half: Session,
    secondStep: SecondStepMethod,
    record: (sessionId: string, absoluteExpiresAt: Date) => Promise<void>,
    context: CommandContext,
  ): Promise<OpenedSession> {
    const { cookieValue, sessionId } = this.cookies.issue();
    const now = this.clock.now();
    const absoluteExpiresAt = new Date(now.getTime() + this.policy.absoluteTimeoutMs);
    await record(sessionId, absoluteExpiresAt);
    const started = this.started(sessionId, half.userId, half.method, now, absoluteExpiresAt, context, { secondStep });
    const [appended] = await Promise.all([
      this.startStream(started, context),
      this.end(half.sessionId, 'second-step-passed', context),
    ]);
    return { cookieValue, session: this.rememberStarted(appended, now) };
  }

  private startStream(started: SessionStarted, context: CommandContext): Promise<HandledCommand<SessionState>> {
    // A new random session id: its stream is expected new, without a read.
    return handleCommand(
      this.store,
      sessionDecider,
      started.data.sessionId,
      { type: 'StartSession', data: started.data },
      context,
      { known: 'no_stream' },
    );
  }

  private rememberStarted(started: HandledCommand<SessionState>, now: Date): Session {
    return this.rememberHandled(started, now) as Session;
  }

  private started(
    sessionId: string,
    userId: string,
    method: SignInMethod,
    now: Date,
    absoluteExpiresAt: Date,
    context: CommandContext,
    step: Pick<SessionStarted['data'], 'awaiting' | 'secondStep'>,
  ): SessionStarted {
    const idleTimeoutMs = step.awaiting === undefined ? this.policy.idleTimeoutMs : this.policy.secondStepTimeoutMs;
    const data: SessionStarted['data'] = {
      sessionId,
      userId,
      method,
      at: now.toISOString(),
      idleTimeoutSeconds: Math.round(idleTimeoutMs / 1000),
      absoluteExpiresAt: absoluteExpiresAt.toISOString(),
      ...step,
    };
    if (context.origin.userAgent !== undefined) data.userAgent = context.origin.userAgent.slice(0, 256);
    return { type: 'SessionStarted', data };
  }

  async resolve(cookieValue: string | undefined): Promise<Session | undefined> {
    const sessionId = this.cookies.sessionIdOf(cookieValue);
    if (sessionId === undefined) return undefined;
    const loaded = await this.current(sessionId);
    const now = this.clock.now();
    if (loaded === undefined || !isLive(loaded.session, now)) return undefined;
    if (now.getTime() - new Date(loaded.session.lastActiveAt).getTime() < this.policy.refreshAfterMs)
      return loaded.session;
    return this.refresh(loaded, now);
  }

  async close(session: Session, context: CommandContext): Promise<void> {
    if (await this.end(session.sessionId, 'signed-out', context)) {
      await this.users.handle(
        session.userId,
        { type: 'RecordSignOut', data: { sessionId: session.sessionId } },
        context,
      );
    }
  }

  /** For sessions the user's stream already records as ended. */
  async endAll(sessionIds: readonly string[], reason: SessionEndReason, context: CommandContext): Promise<void> {
    for (const sessionId of sessionIds) await this.end(sessionId, reason, context);
  }

  /** Told by the log that a session ended on another node: the next request reads it again. */
  forget(sessionId: string): void {
    this.cache.delete(sessionId);
  }

  async listForUser(userId: string): Promise<Session[]> {
    const now = this.clock.now();
    const sessions: Session[] = [];
    for (const { sessionId } of await this.users.openSessions(userId)) {
      const loaded = await this.read(sessionId);
      if (loaded !== undefined && isLive(loaded.session, now)) sessions.push(loaded.session);
    }
    return sessions.sort((first, second) => second.startedAt.localeCompare(first.startedAt));
  }

  async revoke(userId: string, sessionId: string, context: CommandContext): Promise<boolean> {
    const loaded = await this.read(sessionId);
    if (loaded === undefined || loaded.session.userId !== userId || !isLive(loaded.session, this.clock.now()))
      return false;
    if (await this.end(sessionId, 'revoked', context))
      await this.users.handle(userId, { type: 'RecordSignOut', data: { sessionId, revoked: true } }, context);
    return true;
  }

  async revokeOthers(userId: string, keepSessionId: string, context: CommandContext): Promise<number> {
    let ended = 0;
    for (const session of await this.listForUser(userId)) {
      if (session.sessionId !== keepSessionId && (await this.revoke(userId, session.sessionId, context))) ended += 1;
    }
    return ended;
  }

  /** True for exactly one of concurrent callers, so only one records the sign-out on the user's stream. */
  private async end(sessionId: string, reason: SessionEndReason, context: CommandContext): Promise<boolean> {
    const handled = await handleCommand(
      this.store,
      sessionDecider,
      sessionId,
      { type: 'EndSession', data: { reason, at: this.clock.now().toISOString() } },
      context,
    );
    this.rememberHandled(handled, this.clock.now());
    return handled.appended.length > 0;
  }

  private async refresh(loaded: Loaded, now: Date): Promise<Session | undefined> {
    const { sessionId, userId } = loaded.session;
    const refresh = { type: 'RefreshSession', data: { now, refreshAfterMs: this.policy.refreshAfterMs } } as const;
    const handled = await handleCommand(
      this.store,
      sessionDecider,
      sessionId,
      refresh,
      newCommandContext(`user:${userId}`),
    );
    const session = this.rememberHandled(handled, now);
    return session !== null && isLive(session, now) ? session : undefined;
  }

  private async current(sessionId: string): Promise<Loaded | undefined> {
    const cached = this.cache.get(sessionId);
    if (cached !== undefined && this.clock.now().getTime() - cached.fetchedAt < this.policy.cacheMs) return cached;
    return this.read(sessionId);
  }

  private async read(sessionId: string): Promise<Loaded | undefined> {
    const { state, revision } = await loadStream(this.store, sessionDecider, sessionId);
    if (state === null || revision === undefined) {
      this.cache.delete(sessionId);
      return undefined;
    }
    const loaded = { session: state, revision, fetchedAt: this.clock.now().getTime() };
    this.remember(loaded);
    return loaded;
  }

  private rememberHandled(handled: HandledCommand<SessionState>, now: Date): SessionState {
    if (handled.state !== null && handled.revision !== undefined) {
      this.remember({ session: handled.state, revision: handled.revision, fetchedAt: now.getTime() });
    }
    return handled.state;
  }

  private remember(loaded: Loaded): void {
    this.cache.delete(loaded.session.sessionId);
    makeRoom(this.cache, this.policy.maxCachedSessions);
    this.cache.set(loaded.session.sessionId, loaded);
  }
}
