// POST /usage (docs/entitlements.md): each period is its own stream, decided with its expected revision, so concurrent
// deliveries count a report once. Only this month and the last: a flood of old months would write thresholds into
// history.
import { Inject, Injectable } from '@nestjs/common';
import {
  countedContent,
  governingPlan,
  periodBefore,
  reportContent,
  trafficAnchor,
  trafficDecider,
  trafficId,
  trafficPeriodOf,
  type PlanCatalogue,
  type TrafficReported,
  type TrafficState,
  type TrafficThresholdCrossed,
  type UsageReport,
} from '#domain';
import { FoldedStateCache, handleCommand, loadStream, type CommandContext } from '#application';
import { EVENT_STORE, type EventStore } from '#event-store';
import { AppClock } from '../config/app-clock.js';
import { ProblemError } from '../http/problem-error.js';
import { Organizations } from '../organizations/organizations.service.js';
import { PLAN_CATALOGUE } from '../plans/plan-catalogue.module.js';

export type OrganizationUsageReport = UsageReport & { organizationId: string };

export type RejectedReport = {
  index: number;
  id: string;
  status: 400 | 409;
  code: 'OCCURRED_AT_OUT_OF_RANGE' | 'REPORT_ID_REUSED';
  detail: string;
};
export type UsageReceipt = {
  accepted: number;
  duplicates: number;
  rejected: RejectedReport[];
  position: bigint | undefined;
};

/** A period is read again only from where it was left. */
const CACHED_PERIODS = 1_000;

type Group = {
  organizationId: string;
  period: string;
  late: boolean;
  neighbour: string;
  reports: { index: number; report: UsageReport }[];
};

@Injectable()
export class UsageReports {
  /** After a restart, asked again: the decision is idempotent. */
  private readonly inHistory = new Set<string>();
  private readonly cache = new FoldedStateCache<TrafficState>(CACHED_PERIODS);

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly organizations: Organizations,
    @Inject(PLAN_CATALOGUE) private readonly catalogue: PlanCatalogue,
    private readonly clock: AppClock,
  ) {}

  /**
   * An id is the organization's whatever the month: same content again is a duplicate, other content a reuse
   * (rejected).
   */
  async report(reports: readonly OrganizationUsageReport[], context: CommandContext): Promise<UsageReceipt> {
    const allowances = new Map<string, number | null>();
    const anchors = new Map<string, string | null>();
    for (const organizationId of new Set(reports.map((report) => report.organizationId))) {
      const { state } = await this.organizations.load(organizationId);
      if (!state.exists) {
        throw new ProblemError(
          422,
          'UNKNOWN_ORGANIZATION',
          'Unknown organization',
          `There is no organization ${organizationId}; nothing was counted.`,
          { organizationId },
        );
      }
      allowances.set(organizationId, governingPlan(state, this.catalogue)?.limits.trafficPerMonth ?? null);
      anchors.set(organizationId, trafficAnchor(state.subscription));
    }
    const now = this.clock.now();
    const rejected: RejectedReport[] = [];
    const groups = new Map<string, Group>();
    reports.forEach(({ organizationId, ...report }, index) => {
      const anchor = anchors.get(organizationId);
      const current = trafficPeriodOf(now, anchor);
      const period = trafficPeriodOf(report.occurredAt, anchor);
      const previous = periodBefore(current);
      if (period !== current && period !== previous) {
        const detail = `occurredAt ${report.occurredAt} is in ${period}: only this month (${current}) and the last (${previous}) are counted.`;
        rejected.push({ index, id: report.id, status: 400, code: 'OCCURRED_AT_OUT_OF_RANGE', detail });
        return;
      }
      const key = `${organizationId} ${period}`;
      const group = groups.get(key) ?? {
        organizationId,
        period,
        late: period !== current,
        neighbour: period === current ? previous : current,
        reports: [],
      };
      group.reports.push({ index, report });
      groups.set(key, group);
    });
    const results = await Promise.all(
      [...groups.values()].map((group) => this.count(group, allowances.get(group.organizationId) ?? null, context)),
    );
    rejected.push(...results.flatMap((result) => result.reused));
    rejected.sort((a, b) => a.index - b.index);
    const accepted = results.reduce((sum, result) => sum + result.accepted, 0);
    const positions = results.flatMap((result) => (result.position === undefined ? [] : [result.position]));
    const position = positions.reduce<bigint | undefined>(
      (max, at) => (max === undefined || at > max ? at : max),
      undefined,
    );
    return { accepted, duplicates: reports.length - accepted - rejected.length, rejected, position };
  }

  private async count(group: Group, allowance: number | null, context: CommandContext) {
    const { organizationId, period } = group;
    const neighbour = (
      await loadStream(this.store, trafficDecider, trafficId(organizationId, group.neighbour), { cache: this.cache })
    ).state;
    const countedElsewhere = (id: string) => countedContent(neighbour.counted, id);
    const reports = group.reports.map(({ report }) => report);
    const command = {
      type: 'ReportUsage',
      data: { organizationId, period, reports, allowance, countedElsewhere },
    } as const;
    const handled = await handleCommand(
      this.store,
      trafficDecider,
      trafficId(organizationId, period),
      command,
      context,
      { cache: this.cache },
    );
    const counted = handled.appended.find((event) => event.type === 'TrafficReported');
    const countedIds = new Set(
      counted === undefined ? [] : (counted.data as TrafficReported['data']).reports.map((report) => report.id),
    );
    const reused: RejectedReport[] = [];
    const firstInCall = new Set<string>();
    for (const { index, report } of group.reports) {
      const first = !firstInCall.has(report.id);
      firstInCall.add(report.id);
      if (first && countedIds.has(report.id)) continue;
      const said = countedContent(handled.state.counted, report.id) ?? countedElsewhere(report.id);
      if (said !== undefined && said !== reportContent(report)) {
        const detail = `Report ${report.id} was counted before with another quantity, time or site; a report id is used once.`;
        reused.push({ index, id: report.id, status: 409, code: 'REPORT_ID_REUSED', detail });
      }
    }
    const crossings = handled.appended
      .filter((event) => event.type === 'TrafficThresholdCrossed')
      .map((event) => event.data as TrafficThresholdCrossed['data']);
    const recorded = await this.recordInHistory(
      organizationId,
      period,
      handled.state,
      crossings,
      allowance,
      group.late,
      context,
    );
    const position =
      recorded !== undefined && (handled.position === undefined || recorded > handled.position)
        ? recorded
        : handled.position;
    return { accepted: countedIds.size, reused, position };
  }

  /**
   * Also the crossings of an earlier call whose node stopped before recording them: a repeat of its reports finds them
   * here.
   */
  private async recordInHistory(
    organizationId: string,
    period: string,
    state: TrafficState,
    crossings: readonly TrafficThresholdCrossed['data'][],
    allowance: number | null,
    late: boolean,
    context: CommandContext,
  ): Promise<bigint | undefined> {
    let position: bigint | undefined;
    for (const threshold of state.crossed) {
      const key = `${organizationId} ${period} ${threshold}`;
      if (this.inHistory.has(key)) continue;
      const crossing = crossings.find((candidate) => candidate.threshold === threshold);
      const data = {
        period,
        threshold,
        used: crossing?.used ?? state.total,
        allowance: crossing?.allowance ?? allowance ?? 0,
        late,
      };
      const result = await this.organizations.handle(organizationId, { type: 'RecordTrafficThreshold', data }, context);
      this.inHistory.add(key);
      if (this.inHistory.size > CACHED_PERIODS * 2)
        this.inHistory.delete(this.inHistory.values().next().value as string);
      position = result.position;
    }
    return position;
  }
}
