// GET /entitlements: every organization's entitlements the caller may see, what an in-process provider fills
// from. GET /entitlements/changes: their changes as server-sent events, resumable with Last-Event-ID
// (docs/entitlements.md). Its own cap (ENTITLEMENT_STREAMS_MAX), a comment every 15 s so that proxies keep it
// open, and every stream ended before the server closes (a shutdown never waits on them).
import { Controller, Get, Inject, type OnModuleDestroy, Req, Res } from '@nestjs/common';
import { READ_MODELS, ReadModels } from '#read-models';
import type { Request, Response } from 'express';
import { CONFIG, type Config } from '#config';
import type { Principal } from '../access/principal.js';
import { ProblemError } from '../http/problem-error.js';
import { Operation } from '../openapi/operation.decorator.js';
import { jsonSafe } from '../organizations/command-result.js';
import { EntitlementCallers } from './entitlement-callers.js';
import { EntitlementChanges, type EntitlementChange } from './entitlement-changes.js';
import { OrganizationEntitlements } from './organization-entitlements.js';

export const HEARTBEAT_MS = 15_000;

const POSITION = /^\d{1,19}$/;

type Stream = { response: Response; sent: Promise<void>; stop: () => void };

export type EntitlementsAnswer = {
  /** The read model's position the answer reflects (null: nothing projected yet): follow /entitlements/changes from it. */
  position: number | string | null;
  organizations: { organizationId: string; etag: string; position: number | string; flags: Record<string, { value: unknown; reason: string }> }[];
};

@Controller('entitlements')
export class EntitlementsController implements OnModuleDestroy {
  private readonly streams = new Set<Stream>();
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(
    private readonly callers: EntitlementCallers,
    private readonly changes: EntitlementChanges,
    @Inject(CONFIG) private readonly config: Config,
    private readonly entitlements: OrganizationEntitlements,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
  ) {}

  @Get()
  @Operation({ summary: "Every visible organization's entitlements, and the position they reflect (follow the changes after it)" })
  async all(@Req() request: Request): Promise<EntitlementsAnswer> {
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

    const stream: Stream = { response, sent: Promise.resolve(), stop: () => undefined };
    const send = (change: EntitlementChange) => {
      // One after the other, in position order: a member's visibility is read from the organization's stream.
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
    for (const stream of [...this.streams]) {
      stream.stop();
      stream.response.end();
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
