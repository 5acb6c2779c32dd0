// What ends a change stream's right to exist, from the shared store: an API key revoked, a session ended (signed
// out, replaced, reset), a member removed. Every node follows them from the log, so a stream held on one node
// ends when its credential ends on any node, as soon as the store delivers the event (well within 5 s).
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Logger } from 'pino';
import { apiKeyStreamPrefix, organizationStreamPrefix, sessionStreamPrefix } from '#domain';
import { EVENT_STORE, type EventStore, type RecordedEvent, type Subscription } from '#event-store';
import { PINO } from '../logging/pino.js';
import { RUN_MODE, type RunMode } from '../config/run-mode.js';

export type CredentialEnd =
  | { kind: 'api-key-revoked'; keyId: string }
  | { kind: 'session-ended'; sessionId: string }
  | { kind: 'member-removed'; userId: string; organizationId: string };

function credentialEndOf(event: RecordedEvent): CredentialEnd | undefined {
  const data = event.data as { keyId?: unknown; userId?: unknown };
  if (event.type === 'ApiKeyRevoked' && typeof data.keyId === 'string')
    return { kind: 'api-key-revoked', keyId: data.keyId };
  if (event.type === 'SessionEnded')
    return { kind: 'session-ended', sessionId: event.streamId.slice(sessionStreamPrefix.length) };
  if (event.type === 'MemberRemoved' && typeof data.userId === 'string') {
    return {
      kind: 'member-removed',
      userId: data.userId,
      organizationId: event.streamId.slice(organizationStreamPrefix.length),
    };
  }
  return undefined;
}

@Injectable()
export class CredentialEnds implements OnApplicationBootstrap, OnModuleDestroy {
  private subscription: Subscription | undefined;
  private readonly listeners = new Set<(end: CredentialEnd) => void>();
  private readonly logger: Logger;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(RUN_MODE) private readonly runMode: RunMode,
    @Inject(PINO) pino: Logger,
  ) {
    this.logger = pino.child({ component: 'credential-ends' });
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.runMode !== 'server') return;
    // From now: a stream opened later was authenticated after anything before it.
    const from = await this.store.headPosition();
    this.subscription = this.store.subscribeToAll({
      ...(from === undefined ? {} : { fromPosition: from }),
      filter: {
        streamPrefixes: [apiKeyStreamPrefix, sessionStreamPrefix, organizationStreamPrefix],
        eventTypes: ['ApiKeyRevoked', 'SessionEnded', 'MemberRemoved'],
      },
      onEvent: (event) => {
        const end = credentialEndOf(event);
        if (end !== undefined) for (const listener of this.listeners) listener(end);
      },
      onError: (error) =>
        this.logger.error(
          { err: error },
          'Credential ends are no longer followed: change streams outlive revocations until a restart',
        ),
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscription?.close();
    this.listeners.clear();
  }

  listen(listener: (end: CredentialEnd) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
