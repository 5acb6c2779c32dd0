// The change streams of a node (docs/entitlements.md), whatever they are spoken in: Chorus's own
// (GET /entitlements/changes) and OFREP's (GET /ofrep/v1/event-stream, ADR-0008). One set, so one set of caps —
// per node, per principal, per organization — a comment every 15 s so proxies keep them open, each ended with its
// credential and before the server closes.
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { Request, Response } from 'express';
import { CONFIG, type Config } from '#config';
import { actorOf, type Principal } from '../access/principal.js';
import { ProblemError } from '../http/problem-error.js';
import { CredentialEnds, type CredentialEnd } from './credential-ends.js';
import { EntitlementChanges, type EntitlementChange } from './entitlement-changes.js';

export const HEARTBEAT_MS = 15_000;

const POSITION = /^\d{1,19}$/;

/** holder: the key or user it counts against. */
type Stream = {
  response: Response;
  sent: Promise<void>;
  stop: () => void;
  principal: Principal;
  holder: string;
  organizations: readonly string[];
};

export type StreamDialect = {
  /** The comment the stream opens with. */
  opening: string;
  /** Whether this stream carries the change (asked in position order). */
  carries: (change: EntitlementChange) => Promise<boolean> | boolean;
  /** The change as this stream's event. */
  eventOf: (change: EntitlementChange) => string;
  /** What is sent when the node cannot tell what changed since the client's Last-Event-ID. */
  reset: string;
};

@Injectable()
export class ChangeStreams implements OnModuleDestroy {
  private readonly streams = new Set<Stream>();
  private heartbeat: NodeJS.Timeout | undefined;
  private readonly stopFollowingEnds: () => void;

  constructor(
    private readonly changes: EntitlementChanges,
    @Inject(CONFIG) private readonly config: Config,
    credentialEnds: CredentialEnds,
  ) {
    this.stopFollowingEnds = credentialEnds.listen((end) => this.endStreamsOf(end));
  }

  /** Answers `request` with a stream of the changes `dialect` carries, counted against `organizations`' share. */
  open(
    request: Request,
    response: Response,
    principal: Principal,
    organizations: readonly string[],
    dialect: StreamDialect,
  ): void {
    if (this.streams.size >= this.config.entitlementStreamsMax) {
      response.setHeader('Retry-After', '5');
      throw new ProblemError(
        503,
        'TOO_MANY_STREAMS',
        'Too many change streams',
        'This node holds as many change streams as it may; try again shortly, or another node.',
      );
    }
    const holder = actorOf(principal);
    this.refuseOverCaps(holder, organizations, response);
    const lastEventId =
      request.headers['last-event-id'] ??
      (typeof request.query.lastEventId === 'string' ? request.query.lastEventId : undefined);
    if (lastEventId !== undefined && (typeof lastEventId !== 'string' || !POSITION.test(lastEventId))) {
      throw new ProblemError(
        400,
        'VALIDATION_FAILED',
        'The request is not valid',
        'Last-Event-ID must be a position (a whole number) this stream sent.',
      );
    }
    response.status(200);
    response.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    response.setHeader('Cache-Control', 'no-cache, no-transform');
    response.setHeader('X-Accel-Buffering', 'no');
    response.flushHeaders();
    response.write(`: ${dialect.opening}\n\n`);

    const stream: Stream = {
      response,
      sent: Promise.resolve(),
      stop: () => undefined,
      principal,
      holder,
      organizations,
    };
    const send = (change: EntitlementChange) => {
      // In position order: a member's visibility is read from the organization's stream.
      stream.sent = stream.sent.then(async () => {
        if ((await dialect.carries(change)) && !response.writableEnded) response.write(dialect.eventOf(change));
      });
    };
    const stopListening = this.changes.listen(send);
    if (lastEventId !== undefined) {
      const missed = this.changes.since(BigInt(lastEventId));
      if (missed === 'reset') response.write(dialect.reset);
      else for (const change of missed) send(change);
    }
    stream.stop = () => {
      stopListening();
      this.streams.delete(stream);
      if (this.streams.size === 0) this.stopHeartbeat();
    };
    this.streams.add(stream);
    this.startHeartbeat();
    response.once('close', () => stream.stop());
  }

  onModuleDestroy(): void {
    this.stopFollowingEnds();
    for (const stream of [...this.streams]) {
      stream.stop();
      stream.response.end();
    }
  }

  /** 429, not 503: the caller holds its share; others still get theirs. */
  private refuseOverCaps(holder: string, organizations: readonly string[], response: Response): void {
    const held = [...this.streams];
    const over = (detail: string) => {
      response.setHeader('Retry-After', '5');
      return new ProblemError(429, 'TOO_MANY_STREAMS', 'Too many change streams', detail);
    };
    if (held.filter((stream) => stream.holder === holder).length >= this.config.entitlementStreamsPerPrincipal) {
      throw over(
        `These credentials hold ${this.config.entitlementStreamsPerPrincipal} change streams on this node already: close one first.`,
      );
    }
    for (const organizationId of organizations) {
      if (
        held.filter((stream) => stream.organizations.includes(organizationId)).length >=
        this.config.entitlementStreamsPerOrganization
      ) {
        throw over(
          `The organization ${organizationId} has ${this.config.entitlementStreamsPerOrganization} change streams open on this node already.`,
        );
      }
    }
  }

  private endStreamsOf(end: CredentialEnd): void {
    for (const stream of [...this.streams]) {
      const { principal } = stream;
      const ends =
        (end.kind === 'api-key-revoked' && principal.kind === 'api-key' && principal.keyId === end.keyId) ||
        (end.kind === 'session-ended' && principal.kind === 'user' && principal.sessionId === end.sessionId) ||
        (end.kind === 'member-removed' && principal.kind === 'user' && principal.userId === end.userId);
      if (!ends) continue;
      stream.stop();
      stream.response.end(': the credentials of this stream ended\n\n');
    }
  }

  private startHeartbeat(): void {
    if (this.heartbeat !== undefined) return;
    this.heartbeat = setInterval(() => {
      for (const stream of this.streams) stream.response.write(': heartbeat\n\n');
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  private stopHeartbeat(): void {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }
}
