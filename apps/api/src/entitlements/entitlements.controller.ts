// GET /entitlements and /entitlements/changes as server-sent events (docs/entitlements.md); the stream's caps,
// heartbeat
// and end with its credential are ChangeStreams', shared with OFREP's event stream.
import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { READ_MODELS, ReadModels } from '#read-models';
import type { Request, Response } from 'express';
import type { Principal } from '../access/principal.js';
import { Credentials, eventStreamAnswer, Operation } from '../http/operation.decorator.js';
import { entitlementsAnswer } from './entitlement-responses.js';
import { jsonSafe } from '../http/json-safe.js';
import { ChangeStreams } from './change-streams.js';
import { ENTITLEMENTS_SCOPE, EntitlementCallers } from './entitlement-callers.js';
import type { EntitlementChange } from './entitlement-changes.js';
import { OrganizationEntitlements } from './organization-entitlements.js';

export { HEARTBEAT_MS } from './change-streams.js';

const authRefusals = {
  401: 'UNAUTHENTICATED: no or an unknown credential',
  403: 'FORBIDDEN: the credential may not read entitlements',
};

export type EntitlementsAnswer = {
  /** Follow /entitlements/changes from it (null: nothing projected yet). */
  position: number | string | null;
  organizations: {
    organizationId: string;
    etag: string;
    position: number | string;
    flags: Record<string, { value: unknown; reason: string }>;
  }[];
};

@Credentials({ apiKey: ENTITLEMENTS_SCOPE }, 'session')
@Controller('entitlements')
export class EntitlementsController {
  constructor(
    private readonly callers: EntitlementCallers,
    private readonly streams: ChangeStreams,
    private readonly entitlements: OrganizationEntitlements,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
  ) {}

  @Get()
  @Operation({
    summary: "Every visible organization's entitlements, and the position they reflect (follow the changes after it)",
    answer: entitlementsAnswer,
    responses: authRefusals,
  })
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
            ? this.readModels.organizations
                .organizationsOfUser(principal.userId)
                .map((membership) => membership.organizationId)
            : []
          : [scope.organizationId];
    const organizations = ids.flatMap((id) => {
      const set = this.entitlements.of(id);
      if (set === undefined) return [];
      return [
        { organizationId: id, etag: set.etag, position: jsonSafe(set.position), flags: Object.fromEntries(set.flags) },
      ];
    });
    return { position: position === undefined ? null : jsonSafe(position), organizations };
  }

  @Get('changes')
  @Operation({
    summary: 'Entitlement changes as server-sent events (id: the position; event: entitlements or reset)',
    answer: eventStreamAnswer,
    responses: authRefusals,
  })
  async changesStream(@Req() request: Request, @Res() response: Response): Promise<void> {
    const principal = await this.callers.authenticate(request);
    this.streams.open(request, response, principal, this.organizationsOf(principal), {
      opening: 'entitlement changes',
      carries: (change) => this.visible(principal, change.organizationId),
      eventOf,
      reset: 'event: reset\ndata: {}\n\n',
    });
  }

  private organizationsOf(principal: Principal): string[] {
    if (principal.kind === 'api-key') return principal.organizationId === undefined ? [] : [principal.organizationId];
    if (principal.kind === 'user')
      return this.readModels.organizations
        .organizationsOfUser(principal.userId)
        .map(({ organizationId }) => organizationId);
    return [];
  }

  private visible(principal: Principal, organizationId: string): Promise<boolean> | boolean {
    const scope = this.callers.scopeOf(principal);
    if (scope === 'all') return true;
    if (scope === 'memberships') return this.callers.maySee(principal, organizationId);
    return scope.organizationId === organizationId;
  }
}

const eventOf = ({ organizationId, position, etag }: EntitlementChange): string =>
  `id: ${position}\nevent: entitlements\ndata: ${JSON.stringify({ organizationId, position: jsonSafe(position), etag })}\n\n`;
