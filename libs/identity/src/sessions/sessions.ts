// Server-side sessions, shared by every API node through the event store: a session is its own
// stream, read through a short-lived local cache. A node sees its own sign-outs at once and other
// nodes' within `cacheMs` (the bounded staleness documented in the README).
import { randomUUID } from 'node:crypto';
import { eventMetadata, handleCommand, loadStream, newCommandContext, type CommandContext, type HandledCommand, type StreamFold } from '#application';
import { type AppendResult, type EventStore } from '#event-store';
import type { Clock } from '../clock.js';
import {
  type SecondStepAwaited,
  type SecondStepMethod,
  type SignInMethod,
  isLive,
  evolveSession,
  type Session,
  type SessionState,
  sessionStream,
  type SessionEndReason,
  type SessionEvent,
  type SessionStarted,
} from '#domain';
import type { Users } from '../user/users.js';
import type { SessionCookies } from './session-cookie.js';

export type SessionPolicy = {
  idleTimeoutMs: number;
  absoluteTimeoutMs: number;
  /** Activity is written at most this often; the idle timeout slides by this granularity. */
  refreshAfterMs: number;
  /** How long a node trusts its cached copy before reading the stream again. */
  cacheMs: number;
  maxCachedSessions: number;
  /** A half-open session (the password was right, the second step is not passed yet) lasts this long at most. */
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

const sessionFold: StreamFold<SessionState, SessionEvent> = { initialState: null, evolve: evolveSession };

export class Sessions {
  private readonly cache = new Map<string, Loaded>();

  constructor(
    private readonly store: EventStore,
    private readonly users: Users,
    private readonly cookies: SessionCookies,
    private readonly clock: Clock,
    private readonly policy: SessionPolicy = defaultSessionPolicy,
  ) {}

  /**
   * A new session with a new id (never one the browser brought: no fixation). `awaiting`: half open, for the
   * second step only, and short-lived (secondStepTimeoutMs).
   */
  async open(userId: string, method: SignInMethod, context: CommandContext, awaiting?: SecondStepAwaited): Promise<OpenedSession> {
    const { cookieValue, sessionId } = this.cookies.issue();
    const now = this.clock.now();
    const lifetimeMs = awaiting === undefined ? this.policy.absoluteTimeoutMs : this.policy.secondStepTimeoutMs;
    const absoluteExpiresAt = new Date(now.getTime() + lifetimeMs);
    const started = this.started(sessionId, userId, method, now, absoluteExpiresAt, context, awaiting === undefined ? {} : { awaiting });
    // The session's stream is new, so its append needs no read and is handed to the store at once, before
    // the user's SignedIn: the two share one commit (the store's group commit), or the session's comes
    // first. Either way a session the user's stream lists already exists, so a password reset can end it.
    const [appended] = await Promise.all([
      this.startStream(started, context),
      this.users.handle(userId, { type: 'RecordSignIn', data: { sessionId, method, absoluteExpiresAt, ...(awaiting === undefined ? {} : { awaiting }) } }, context),
    ]);
    return { cookieValue, session: this.rememberStarted(started, appended, now) };
  }

  /**
   * The full session that takes a half-open one's place once `record` has written the user's SecondStepPassed
   * for it (which refuses a code used already, and a half-open session passed already): a new id, as after
   * any change of privilege, and the half-open one ended.
   */
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
    const [appended] = await Promise.all([this.startStream(started, context), this.end(half.sessionId, 'second-step-passed', context)]);
    return { cookieValue, session: this.rememberStarted(started, appended, now) };
  }

  /** A session's stream is new: its first event needs no read and is handed to the store at once. */
  private startStream(started: SessionStarted, context: CommandContext): Promise<AppendResult> {
    return this.store.append(sessionStream(started.data.sessionId), [{ id: randomUUID(), type: started.type, data: started.data, metadata: eventMetadata(context) }], 'no_stream');
  }

  private rememberStarted(started: SessionStarted, appended: AppendResult, now: Date): Session {
    const handled = { state: evolveSession(null, started), revision: appended.nextExpectedRevision, position: appended.position, recorded: [], appended: [] };
    return this.rememberHandled(handled, now) as Session;
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

  /** The live session a cookie names, its idle timeout slid forward; undefined otherwise. */
  async resolve(cookieValue: string | undefined): Promise<Session | undefined> {
    const sessionId = this.cookies.sessionIdOf(cookieValue);
    if (sessionId === undefined) return undefined;
    const loaded = await this.current(sessionId);
    const now = this.clock.now();
    if (loaded === undefined || !isLive(loaded.session, now)) return undefined;
    if (now.getTime() - new Date(loaded.session.lastActiveAt).getTime() < this.policy.refreshAfterMs) return loaded.session;
    return this.refresh(loaded, now);
  }

  /** Signs the session out (POST /logout); signing out a session already ended does nothing. */
  async close(session: Session, context: CommandContext): Promise<void> {
    if (await this.end(session.sessionId, 'signed-out', context)) {
      await this.users.handle(session.userId, { type: 'RecordSignOut', data: { sessionId: session.sessionId } }, context);
    }
  }

  /** Ends sessions the user's stream already records as ended (a password reset). */
  async endAll(sessionIds: readonly string[], reason: SessionEndReason, context: CommandContext): Promise<void> {
    for (const sessionId of sessionIds) await this.end(sessionId, reason, context);
  }

  /** The user's live sessions, newest first. */
  async listForUser(userId: string): Promise<Session[]> {
    const now = this.clock.now();
    const sessions: Session[] = [];
    for (const { sessionId } of await this.users.openSessions(userId)) {
      const loaded = await this.read(sessionId);
      if (loaded !== undefined && isLive(loaded.session, now)) sessions.push(loaded.session);
    }
    return sessions.sort((first, second) => second.startedAt.localeCompare(first.startedAt));
  }

  /** Ends one of the user's own sessions; false when it is not theirs or not live. */
  async revoke(userId: string, sessionId: string, context: CommandContext): Promise<boolean> {
    const loaded = await this.read(sessionId);
    if (loaded === undefined || loaded.session.userId !== userId || !isLive(loaded.session, this.clock.now())) return false;
    if (await this.end(sessionId, 'revoked', context)) await this.users.handle(userId, { type: 'RecordSignOut', data: { sessionId } }, context);
    return true;
  }

  /** Ends every live session of the user but `keepSessionId` ("Sign out everywhere else"); answers how many ended. */
  async revokeOthers(userId: string, keepSessionId: string, context: CommandContext): Promise<number> {
    let ended = 0;
    for (const session of await this.listForUser(userId)) {
      if (session.sessionId !== keepSessionId && (await this.revoke(userId, session.sessionId, context))) ended += 1;
    }
    return ended;
  }

  /**
   * Ends the session on its own stream; true for the one caller whose SessionEnded was recorded, so that
   * of any number of concurrent sign-outs of one session exactly one records it on the user's stream.
   */
  private async end(sessionId: string, reason: SessionEndReason, context: CommandContext): Promise<boolean> {
    const ended: SessionEvent = { type: 'SessionEnded', data: { reason, at: this.clock.now().toISOString() } };
    const endOnce = (session: SessionState) => (session === null || session.ended !== null ? [] : [ended]);
    const handled = await handleCommand(this.store, sessionStream(sessionId), endOnce, {
      ...sessionFold,
      metadata: eventMetadata(context),
    });
    this.rememberHandled(handled, this.clock.now());
    return handled.appended.length > 0;
  }

  /** Writes activity unless another node just did (or the session ended): the stream decides. */
  private async refresh(loaded: Loaded, now: Date): Promise<Session | undefined> {
    const { sessionId, userId } = loaded.session;
    const refreshed: SessionEvent = { type: 'SessionRefreshed', data: { at: now.toISOString() } };
    const handled = await handleCommand(
      this.store,
      sessionStream(sessionId),
      (session: SessionState) =>
        session !== null && isLive(session, now) && now.getTime() - new Date(session.lastActiveAt).getTime() >= this.policy.refreshAfterMs ? [refreshed] : [],
      { ...sessionFold, metadata: eventMetadata(newCommandContext(`user:${userId}`)) },
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
    const { state, revision } = await loadStream(this.store, sessionStream(sessionId), sessionFold);
    if (state === null || revision === undefined) {
      this.cache.delete(sessionId);
      return undefined;
    }
    const loaded = { session: state, revision, fetchedAt: this.clock.now().getTime() };
    this.remember(loaded);
    return loaded;
  }

  /** Caches what a command left the session as; answers it. */
  private rememberHandled(handled: HandledCommand<SessionState>, now: Date): SessionState {
    if (handled.state !== null && handled.revision !== undefined) {
      this.remember({ session: handled.state, revision: handled.revision, fetchedAt: now.getTime() });
    }
    return handled.state;
  }

  private remember(loaded: Loaded): void {
    this.cache.delete(loaded.session.sessionId);
    this.cache.set(loaded.session.sessionId, loaded);
    if (this.cache.size > this.policy.maxCachedSessions) {
      const oldest = this.cache.keys().next();
      if (!oldest.done) this.cache.delete(oldest.value);
    }
  }
}
