import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  findPlan,
  trafficAnchor,
  trafficPeriodOf,
  trafficPeriodStart,
  type Member,
  type OrganizationView,
  type PlanCatalogue,
  type PlanSpec,
} from '#domain';
import { READ_MODELS, ReadModels } from '#read-models';
import { ANY_MEMBER, RequireAccess } from '../access/require-access.decorator.js';
import { CheckedParam, CheckedQuery } from '../http/checked-arguments.js';
import { jsonBytes, sendJsonBytes, type JsonBytes } from '../http/json-text.js';
import { ProblemError } from '../http/problem-error.js';
import { PLAN_CATALOGUE } from '../plans/plan-catalogue.module.js';
import { jsonSafe } from '../http/json-safe.js';
import { validOrganizationId } from '../organizations/organization-requests.js';
import { z } from 'zod';
import { ZodValidationPipe } from '../http/zod-validation.pipe.js';
import { awaitMinPosition, readQuery, validReadQuery, type ReadQuery } from './position-wait.js';
import { Operation } from '../http/operation.decorator.js';
import { membersPageAnswer, notificationRecipientsAnswer, organizationAnswer } from './read-responses.js';
import { memberCursorText, validMembersPageQuery, type MembersPageQuery } from './members-page-query.js';

/**
 * A member as GET /organizations/:id shows them: invited is true until they have signed in once (docs/console.md,
 * Members).
 */
export type MemberAnswer = OrganizationView['members'][number] & { invited: boolean };

/** GET /organizations/:id: the read model's view, the revision and global position it reflects. */
export type OrganizationAnswer = Omit<OrganizationView, 'members'> & {
  /**
   * Every member, until 1.0 (docs/api.md): GET /organizations/:id/members pages them. Absent with `?members=none`,
   * the answer of 1.0.
   */
  members?: MemberAnswer[];
  memberCount: number;
  /** Whom to ask for what only an owner may do: the refusals name them. */
  owners: OwnerAnswer[];
  /** The governing plan's defaults for a new site (the console's Overview); null without a plan. */
  siteDefaults: PlanSpec['siteDefaults'] | null;
  /** This calendar month's traffic (UTC) against the allowance, and when it reached 80% and 100% of it. */
  traffic: TrafficAnswer;
  revision: number | string;
  position: number | string;
};

export type OwnerAnswer = { userId: string; email: string };

/** `?members=none`: the answer without its member list, as it will be from 1.0 on (docs/api.md). */
const organizationQuery = readQuery.extend({ members: z.enum(['all', 'none']).default('all') });
type OrganizationQuery = z.output<typeof organizationQuery>;
const validOrganizationQuery = new ZodValidationPipe(organizationQuery);

const ownersOf = (members: readonly Member[]): OwnerAnswer[] =>
  members.filter((member) => member.role === 'owner').map(({ userId, email }) => ({ userId, email }));

export type TrafficAnswer = {
  period: string;
  used: number;
  /** The effective allowance; null: unlimited. */
  allowance: number | null;
  reached: { threshold: 80 | 100; at: string }[];
};

export type MembersPageAnswer = {
  organizationId: string;
  members: MemberAnswer[];
  total: number;
  next: string | null;
  position: number | string;
};

export type NotificationRecipientsAnswer = { organizationId: string; recipients: Member[]; position: number | string };

const READ = { scope: 'organizations:read', members: ANY_MEMBER } as const;

function notFound(id: string): ProblemError {
  return new ProblemError(404, 'NOT_FOUND', 'Not found', `There is no organization ${id}.`, { entity: 'organization' });
}

/** The organization read model's queries (docs/api.md, Organizations). */
@Controller('organizations')
export class OrganizationReadsController {
  constructor(
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    @Inject(PLAN_CATALOGUE) private readonly catalogue: PlanCatalogue,
  ) {}

  @Get(':id')
  @RequireAccess(READ)
  @Operation({
    summary:
      'The organization read model: plans, Chorus, features, limits, usage, owners, members (none with ?members=none), sites, domains',
    answer: organizationAnswer,
    responses: { 400: 'VALIDATION_FAILED', 404: 'NOT_FOUND' },
  })
  organization(
    @CheckedParam('id', validOrganizationId) id: string,
    @CheckedQuery(validOrganizationQuery) query: OrganizationQuery,
    @Res() response: Response,
  ): void | Promise<void> {
    // Without ?minPosition there is nothing to wait for: answered at once, without a promise.
    if (query.minPosition === undefined) return this.sendOrganization(id, query.members, response);
    return awaitMinPosition(this.readModels, query, response).then(() =>
      this.sendOrganization(id, query.members, response),
    );
  }

  private sendOrganization(id: string, members: OrganizationQuery['members'], response: Response): void {
    // Made once per organization and commit, encoded JSON included: a read between two commits is one check.
    const answer = this.readModels.derivedUntilNextCommit(`GET /organizations/${id}?members=${members}`, () =>
      members === 'all' ? this.answer(id) : this.outline(id),
    );
    if (answer === undefined) throw notFound(id);
    sendJsonBytes(response, answer);
  }

  /** Without the members: the count and the owners, read by their own index, so it costs the same at any size. */
  private outline(id: string): JsonBytes<OrganizationAnswer> | undefined {
    const found = this.readModels.organizations.getOrganizationOutline(id);
    if (found === undefined) return undefined;
    const { members: owners, ...view } = found.view;
    return jsonBytes<OrganizationAnswer>({
      ...view,
      ...this.extras(id, found.view),
      memberCount: found.memberCount,
      owners: ownersOf(owners),
      revision: jsonSafe(found.revision),
      position: jsonSafe(found.position),
    });
  }

  private answer(id: string): JsonBytes<OrganizationAnswer> | undefined {
    const found = this.readModels.organizations.getOrganization(id);
    if (found === undefined) return undefined;
    const signedIn = this.readModels.signIns.signedInOnce(found.view.members.map((member) => member.userId));
    const members = found.view.members.map((member) => ({ ...member, invited: !signedIn.has(member.userId) }));
    return jsonBytes<OrganizationAnswer>({
      ...found.view,
      ...this.extras(id, found.view),
      members,
      memberCount: members.length,
      owners: ownersOf(members),
      revision: jsonSafe(found.revision),
      position: jsonSafe(found.position),
    });
  }

  /** What both answers add to the view: the governing plan's site defaults and this month's traffic. */
  private extras(id: string, view: OrganizationView): Pick<OrganizationAnswer, 'siteDefaults' | 'traffic'> {
    const governing = view.governingPlan;
    const siteDefaults =
      (governing && findPlan(this.catalogue, governing.line, governing.plan as PlanSpec['name'])?.siteDefaults) || null;
    return { siteDefaults, traffic: this.traffic(id, view.trafficPerMonth, trafficAnchor(view.subscription)) };
  }

  private traffic(id: string, allowance: number | null, anchor: string | null): TrafficAnswer {
    const period = trafficPeriodOf(new Date(), anchor);
    // A month records 80% before 100% (crossing 100 crosses 80 first, and each is recorded once): the first of its
    // TrafficThresholdReached events is 80%, the second 100%.
    const { events } = this.readModels.history.page({
      organizationId: id,
      order: 'oldest',
      limit: 2,
      filter: { type: 'TrafficThresholdReached', from: trafficPeriodStart(period, anchor) },
    });
    const thresholds = [80, 100] as const;
    const reached = events.map((event, index) => ({ threshold: thresholds[index] ?? 100, at: event.recordedAt }));
    return { period, used: this.readModels.traffic.total(id, period), allowance, reached };
  }

  @Get(':id/members')
  @RequireAccess(READ)
  @Operation({
    summary: "One page of the organization's members, in the order they joined; `q` finds them by address",
    answer: membersPageAnswer,
    responses: { 400: 'VALIDATION_FAILED', 404: 'NOT_FOUND' },
  })
  async members(
    @CheckedParam('id', validOrganizationId) id: string,
    @CheckedQuery(validMembersPageQuery) query: MembersPageQuery,
    @Res({ passthrough: true }) response: Response,
  ): Promise<MembersPageAnswer> {
    await awaitMinPosition(this.readModels, query, response);
    const page = this.readModels.organizations.membersPage(id, {
      limit: query.limit,
      ...(query.after === undefined ? {} : { after: query.after }),
      ...(query.q === undefined ? {} : { q: query.q }),
    });
    if (page === undefined) throw notFound(id);
    const signedIn = this.readModels.signIns.signedInOnce(page.members.map((member) => member.userId));
    return {
      organizationId: id,
      members: page.members.map((member) => ({ ...member, invited: !signedIn.has(member.userId) })),
      total: page.total,
      next: page.next === undefined ? null : memberCursorText(page.next),
      position: jsonSafe(page.position),
    };
  }

  @Get(':id/notification-recipients')
  @RequireAccess(READ)
  @Operation({
    summary: 'The users the Chorus line notifies',
    answer: notificationRecipientsAnswer,
    responses: { 404: 'NOT_FOUND' },
  })
  async notificationRecipients(
    @CheckedParam('id', validOrganizationId) id: string,
    @CheckedQuery(validReadQuery) query: ReadQuery,
    @Res({ passthrough: true }) response: Response,
  ): Promise<NotificationRecipientsAnswer> {
    await awaitMinPosition(this.readModels, query, response);
    const found = this.readModels.organizations.getNotificationRecipients(id);
    if (found === undefined) throw notFound(id);
    return { organizationId: id, recipients: found.recipients, position: jsonSafe(found.position) };
  }
}
