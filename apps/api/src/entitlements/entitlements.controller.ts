// GET /entitlements and /entitlements/changes as server-sent events (docs/entitlements.md): capped per node, principal
// and organization, a comment every 15 s so proxies keep it open, ended with its credential and before the server closes.
import { Controller, Get, Inject, type OnModuleDestroy, Req, Res } from '@nestjs/common';
import { READ_MODELS, ReadModels } from '#read-models';
import type { Request, Response } from 'express';
import { CONFIG, type Config } from '#config';
import { actorOf, type Principal } from '../access/principal.js';
import { ProblemError } from '../http/problem-error.js';
import { Operation } from '../http/operation.decorator.js';
import { jsonSafe } from '../organizations/command-result.js';
import { CredentialEnds, type CredentialEnd } from './credential-ends.js';
import { EntitlementCallers } from './entitlement-callers.js';
import { EntitlementChanges, type EntitlementChange } from './entitlement-changes.js';
import { OrganizationEntitlements } from './organization-entitlements.js';

export const HEARTBEAT_MS = 15_000;

const POSITION = /^\d{1,19}$/;

/** holder: the key or user it counts against. */
type Stream = { response: Response; sent: Promise<void>; stop: () => void; principal: Principal; holder: string; organizations: readonly string[] };

export type EntitlementsAnswer = {
  /** Follow /entitlements/changes from it (null: nothing projected yet). */
  position: number | string | null;
  organizations: { organizationId: string; etag: string; position: number | string; flags: Record<string, { value: unknown; reason: string }> }[];
};

@Controller('entitlements')
export class EntitlementsController implements OnModuleDestroy {
  private readonly streams = new Set<Stream>();
  private heartbeat: NodeJS.Timeout | undefined;
  private readonly stopFollowingEnds: () => void;

  constructor(
    private readonly callers: EntitlementCallers,
    private readonly changes: EntitlementChanges,
    @Inject(CONFIG) private readonly config: Config,
    private readonly entitlements: OrganizationEntitlements,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    credentialEnds: CredentialEnds,
  ) {
    this.stopFollowingEnds = credentialEnds.listen((end) => this.endStreamsOf(end));
  }

  @Get()
  @Operation({ summary: "Every visible organization's entitlements, and the position they reflect (follow the changes after it)" })
  async all(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<EntitlementsAnswer> {
    response.setHeader('Cache-Control', 'no-store');
    const principal = await this.callers.authenticate(request);
    // Read before the rows: the changes after it are streamed, so none falls between the two.
    const position = this.readModels.statuses().find((status) => status.name === 'organizations')?.checkpoint;
    const scope = this.callers.scopeOf(principal);
    const ids =
      scope === 'all'
        ? this.readModels.organizations.list().map((organization) => organization.id)
        : scope === 'memberships'
          ? principal.kind === 'user'
            ? this.readModels.organizations.organizationsOfUser(principal.userId).map((membership) => membership.organizationId)
            : []
          : [scope.organizationId];
    const organizations = ids.flatMap((id) => {
      const set = this.entitlements.of(id);
      if (set === undefined) return [];
      return [{ organizationId: id, etag: set.etag, position: jsonSafe(set.position), flags: Object.fromEntries(set.flags) }];
    });
    return { position: position === undefined ? null : jsonSafe(position), organizations };
  }

  @Get('changes')
  @Operation({ summary: 'Entitlement changes as server-sent events (id: the position; event: entitlements or reset)' })
  async changesStream(@Req() request: Request, @Res() response: Response): Promise<void> {
    const principal = await this.callers.authenticate(request);
    if (this.streams.size >= this.config.entitlementStreamsMax) {
      response.setHeader('Retry-After', '5');
      throw new ProblemError(503, 'TOO_MANY_STREAMS', 'Too many change streams', 'This node holds as many change streams as it may; try again shortly, or another node.');
    }
    const holder = actorOf(principal);
    const organizations = this.organizationsOf(principal);
    this.refuseOverCaps(holder, organizations, response);
    const lastEventId = request.headers['last-event-id'] ?? (typeof request.query.lastEventId === 'string' ? request.query.lastEventId : undefined);
    if (lastEventId !== undefined && (typeof lastEventId !== 'string' || !POSITION.test(lastEventId))) {
      throw new ProblemError(400, 'VALIDATION_FAILED', 'The request is not valid', 'Last-Event-ID must be a position (a whole number) this stream sent.');
    }
    response.status(200);
    response.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    response.setHeader('Cache-Control', 'no-cache, no-transform');
    response.setHeader('X-Accel-Buffering', 'no');
    response.flushHeaders();
    response.write(': entitlement changes\n\n');

    const stream: Stream = { response, sent: Promise.resolve(), stop: () => undefined, principal, holder, organizations };
    const send = (change: EntitlementChange) => {
      // In position order: a member's visibility is read from the organization's stream.
      stream.sent = stream.sent.then(async () => {
        if ((await this.visible(principal, change.organizationId)) && !response.writableEnded) response.write(eventOf(change));
      });
    };
    const stopListening = this.changes.listen(send);
    if (lastEventId !== undefined) {
      const missed = this.changes.since(BigInt(lastEventId));
      if (missed === 'reset') response.write('event: reset\ndata: {}\n\n');
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

  private organizationsOf(principal: Principal): string[] {
    if (principal.kind === 'api-key') return principal.organizationId === undefined ? [] : [principal.organizationId];
    if (principal.kind === 'user') return this.readModels.organizations.organizationsOfUser(principal.userId).map(({ organizationId }) => organizationId);
    return [];
  }

  /** 429, not 503: the caller holds its share; others still get theirs. */
  private refuseOverCaps(holder: string, organizations: readonly string[], response: Response): void {
    const held = [...this.streams];
    const over = (detail: string) => {
      response.setHeader('Retry-After', '5');
      return new ProblemError(429, 'TOO_MANY_STREAMS', 'Too many change streams', detail);
    };
    if (held.filter((stream) => stream.holder === holder).length >= this.config.entitlementStreamsPerPrincipal) {
      throw over(`These credentials hold ${this.config.entitlementStreamsPerPrincipal} change streams on this node already: close one first.`);
    }
    for (const organizationId of organizations) {
      if (held.filter((stream) => stream.organizations.includes(organizationId)).length >= this.config.entitlementStreamsPerOrganization) {
        throw over(`The organization ${organizationId} has ${this.config.entitlementStreamsPerOrganization} change streams open on this node already.`);
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

  private visible(principal: Principal, organizationId: string): Promise<boolean> | boolean {
    const scope = this.callers.scopeOf(principal);
    if (scope === 'all') return true;
    if (scope === 'memberships') return this.callers.maySee(principal, organizationId);
    return scope.organizationId === organizationId;
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

const eventOf = ({ organizationId, position, etag }: EntitlementChange): string =>
  `id: ${position}\nevent: entitlements\ndata: ${JSON.stringify({ organizationId, position: jsonSafe(position), etag })}\n\n`;
