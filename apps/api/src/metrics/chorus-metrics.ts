// The service's Prometheus series (GET /metrics): one registry per app, so that two apps in one
// process (tests, the command line) never share or double-register a series.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { CommitStats } from '#event-store';
import type { ProjectionHealth, ReadModelsHealth } from '#read-models';

/** Label of requests that matched no route (the SPA's pages, static files, 404s): never the raw path. */
export const UNMATCHED_ROUTE = '(unmatched)';

export type LoginMethod = 'password' | 'google';

export class ChorusMetrics {
  readonly registry = new Registry();

  readonly httpRequestDuration = new Histogram({
    name: 'chorus_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern (e.g. /organizations/:id/plan) and status, from arrival to the last byte of the answer',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly commands = new Counter({
    name: 'chorus_commands_total',
    help: 'Commands handled, by type and outcome: accepted, refused (with the refusal code) or failed',
    labelNames: ['command', 'outcome', 'code'] as const,
    registers: [this.registry],
  });

  readonly appendDuration = new Histogram({
    name: 'chorus_event_store_append_duration_seconds',
    help: 'Appends to the event store, by store and outcome (ok, conflict: a wrong expected revision, error)',
    labelNames: ['store', 'outcome'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });

  readonly logins = new Counter({
    name: 'chorus_logins_total',
    help: 'Sign-in attempts by method (password, google) and outcome',
    labelNames: ['method', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly stripeUnmatched = new Counter({
    name: 'chorus_billing_stripe_unmatched_events_total',
    help: 'Stripe events Chorus could not place (no or unknown organization, unknown price, no subscription, another customer’s), by reason: see chorus billing:unmatched',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  private commitStats: () => CommitStats | undefined = () => undefined;

  /**
   * The event store's durable commits and the appends they carried, where the store commits itself (embedded,
   * PostgreSQL): appends per commit is what group commit shares. The last store named is the one counted.
   */
  countCommits(stats: () => CommitStats | undefined): void {
    this.commitStats = stats;
  }

  constructor(health: () => Promise<ReadModelsHealth>) {
    collectDefaultMetrics({ register: this.registry, prefix: 'chorus_' });
    const commits = (): CommitStats | undefined => this.commitStats();
    for (const [name, help, value] of [
      ['chorus_event_store_commits', 'Durable commits of the event store since this process opened it', 'commits'],
      ['chorus_event_store_committed_appends', 'Appends those commits carried', 'writes'],
    ] as const) {
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          const current = commits();
          if (current !== undefined) this.set(current[value]);
        },
      });
    }
    // Read at each scrape from /health's own report, so the two never disagree. The registry collects
    // every series at once: they share one report per scrape.
    let pending: Promise<ReadModelsHealth> | undefined;
    const report = (): Promise<ReadModelsHealth> =>
      (pending ??= health().finally(() => {
        pending = undefined;
      }));
    new Gauge({
      name: 'chorus_ready',
      help: '1 when the event store answers and the projections have caught up (GET /health/ready answers 200), else 0',
      registers: [this.registry],
      async collect() {
        this.set((await report()).ready ? 1 : 0);
      },
    });
    const perProjection = (name: string, help: string, value: (projection: ProjectionHealth) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['projection'] as const,
        registers: [this.registry],
        async collect() {
          const { projections } = await report();
          this.reset();
          for (const projection of projections) this.set({ projection: projection.name }, value(projection));
        },
      });
    perProjection(
      'chorus_projection_lag_events',
      'Events stored after the projection checkpoint (counted up to 1000; -1 when unknown)',
      (projection) => projection.lag ?? -1,
    );
    perProjection(
      'chorus_projection_lag_seconds',
      'Age of the oldest event the projection has not applied yet (0 when caught up; -1 when unknown)',
      (projection) => (projection.lagMs === null ? -1 : projection.lagMs / 1000),
    );
    perProjection(
      'chorus_projection_checkpoint_position',
      'Global position of the last event the projection applied (-1 before the first)',
      (projection) => projection.checkpoint ?? -1,
    );
  }
}
