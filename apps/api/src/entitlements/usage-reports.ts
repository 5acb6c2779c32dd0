// POST /usage: the collectors' traffic reports, counted once each by id (docs/entitlements.md). Each
// organization's period is its own stream, decided on with its expected revision, so concurrent deliveries
// of the same reports, on any node, count them once, and a threshold of the allowance is recorded once.
import { Inject, Injectable } from '@nestjs/common';
import {
  decideTraffic,
  evolveTraffic,
  governingPlan,
  initialTrafficState,
  trafficAnchor,
  trafficPeriodOf,
  trafficStream,
  type PlanCatalogue,
  type TrafficEvent,
  type TrafficState,
  type TrafficThresholdCrossed,
  type UsageReport,
} from '#domain';
import { eventMetadata, FoldedStateCache, handleCommand, type CommandContext, type StreamFold } from '#application';
import { EVENT_STORE, type EventStore } from '#event-store';
import { ProblemError } from '../http/problem-error.js';
import { Organizations } from '../organizations/organizations.js';
import { PLAN_CATALOGUE } from '../plans/plan-catalogue.module.js';

export type OrganizationUsageReport = UsageReport & { organizationId: string };
export type UsageReceipt = { accepted: number; duplicates: number; position: bigint | undefined };

/** Periods whose counted ids this node keeps folded (a period is read again only from where it was left). */
const CACHED_PERIODS = 1_000;

@Injectable()
export class UsageReports {
  /** Thresholds this node has seen recorded in their organization's history (after a restart, asked again: the decision is idempotent). */
  private readonly inHistory = new Set<string>();
  private readonly fold: StreamFold<TrafficState, TrafficEvent> = {
    initialState: initialTrafficState(),
    evolve: evolveTraffic,
    cache: new FoldedStateCache<TrafficState>(CACHED_PERIODS),
  };

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly organizations: Organizations,
    @Inject(PLAN_CATALOGUE) private readonly catalogue: PlanCatalogue,
  ) {}

  /** Counts the reports; an unknown organization refuses the whole call before anything is counted. */
  async report(reports: readonly OrganizationUsageReport[], context: CommandContext): Promise<UsageReceipt> {
    const allowances = new Map<string, number | null>();
    const anchors = new Map<string, string | null>();
    for (const organizationId of new Set(reports.map((report) => report.organizationId))) {
      const { state } = await this.organizations.load(organizationId);
      if (!state.exists) {
        throw new ProblemError(422, 'UNKNOWN_ORGANIZATION', 'Unknown organization', `There is no organization ${organizationId}; nothing was counted.`, { organizationId });
      }
      allowances.set(organizationId, governingPlan(state, this.catalogue)?.limits.trafficPerMonth ?? null);
      anchors.set(organizationId, trafficAnchor(state.subscription));
    }
    const groups = new Map<string, { organizationId: string; period: string; reports: UsageReport[] }>();
    for (const { organizationId, ...report } of reports) {
      const period = trafficPeriodOf(report.occurredAt, anchors.get(organizationId));
      const key = `${organizationId} ${period}`;
      const group = groups.get(key) ?? { organizationId, period, reports: [] };
      group.reports.push(report);
      groups.set(key, group);
    }
    const results = await Promise.all(
      [...groups.values()].map(async (group) => {
        const handled = await handleCommand(
          this.store,
          trafficStream(group.organizationId, group.period),
          (state: TrafficState) => decideTraffic(state, { ...group, allowance: allowances.get(group.organizationId) ?? null }),
          { ...this.fold, metadata: eventMetadata(context, 'ReportUsage') },
        );
        const crossings = handled.appended
          .filter((event) => event.type === 'TrafficThresholdCrossed')
          .map((event) => event.data as TrafficThresholdCrossed['data']);
        const allowance = allowances.get(group.organizationId) ?? null;
        const recorded = await this.recordInHistory(group.organizationId, group.period, handled.state, crossings, allowance, context);
        const counted = handled.appended.find((event) => event.type === 'TrafficReported');
        const position = recorded !== undefined && (handled.position === undefined || recorded > handled.position) ? recorded : handled.position;
        return { accepted: counted === undefined ? 0 : (counted.data as { reports: unknown[] }).reports.length, position };
      }),
    );
    const accepted = results.reduce((sum, result) => sum + result.accepted, 0);
    const positions = results.flatMap((result) => (result.position === undefined ? [] : [result.position]));
    const position = positions.reduce<bigint | undefined>((max, at) => (max === undefined || at > max ? at : max), undefined);
    return { accepted, duplicates: reports.length - accepted, position };
  }

  /**
   * Each threshold the month's traffic has crossed, recorded in the organization's history too (its own
   * decision: once per threshold and month). Also the crossings of an earlier call whose node stopped before
   * recording them: a repeat of its reports finds them here. Answers the last position recorded, if any.
   */
  private async recordInHistory(
    organizationId: string,
    period: string,
    state: TrafficState,
    crossings: readonly TrafficThresholdCrossed['data'][],
    allowance: number | null,
    context: CommandContext,
  ): Promise<bigint | undefined> {
    let position: bigint | undefined;
    for (const threshold of state.crossed) {
      const key = `${organizationId} ${period} ${threshold}`;
      if (this.inHistory.has(key)) continue;
      const crossing = crossings.find((candidate) => candidate.threshold === threshold);
      const data = { period, threshold, used: crossing?.used ?? state.total, allowance: crossing?.allowance ?? allowance ?? 0 };
      const result = await this.organizations.handle(organizationId, { type: 'RecordTrafficThreshold', data }, context);
      this.inHistory.add(key);
      if (this.inHistory.size > CACHED_PERIODS * 2) this.inHistory.delete(this.inHistory.values().next().value as string);
      position = result.position;
    }
    return position;
  }
}
