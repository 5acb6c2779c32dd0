// A session ended on any node (signed out, revoked, deprovisioned by the directory) is refused on this one as soon as
// the store delivers the end (well within a second), not only once its cached copy ages out (SessionPolicy.cacheMs).
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Identity } from '#identity';
import { CredentialEnds } from '../entitlements/credential-ends.js';
import { IDENTITY } from './identity.provider.js';

@Injectable()
export class SessionEndsFollower implements OnApplicationBootstrap, OnModuleDestroy {
  private stop: (() => void) | undefined;

  constructor(
    private readonly ends: CredentialEnds,
    @Inject(IDENTITY) private readonly identity: Identity,
  ) {}

  onApplicationBootstrap(): void {
    this.stop = this.ends.listen((end) => {
      if (end.kind === 'session-ended') this.identity.sessions.forget(end.sessionId);
    });
  }

  onModuleDestroy(): void {
    this.stop?.();
  }
}
