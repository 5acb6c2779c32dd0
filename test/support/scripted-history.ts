// A scripted organization history for the audit tests, recorded through the real command path
// (Organizations) with a clock that puts event k exactly k minutes after the start.
import { createPlanCatalogue, type OrganizationCommand, type PlanCatalogue } from '#domain';
import type { EventStore } from '#event-store';
import { Organizations, OrganizationStateCache } from '#api';

export const SCRIPT_STARTS_AT = Date.parse('2021-02-03T04:05:00.000Z');
export const SCRIPT_STEP_MS = 60_000;

/** When event `revision` of the script is recorded. */
export const recordedAtOf = (revision: number): Date => new Date(SCRIPT_STARTS_AT + revision * SCRIPT_STEP_MS);

/** A clock for the store that tests move by hand. */
export class ScriptClock {
  private current = SCRIPT_STARTS_AT;

  readonly now = (): Date => new Date(this.current);

  setTo(instant: Date): void {
    this.current = instant.getTime();
  }
}

/** create, plan, add-ons, members, sites, limits, override, plan change: one event each. */
export const scriptedCommands = (organizationId: string): OrganizationCommand[] => [
  { type: 'CreateOrganization', data: { id: organizationId, name: 'Audited Ltd' } },
  { type: 'AssignPlan', data: { line: 'classic', plan: 'essential' } },
  { type: 'PurchaseAddOn', data: { addOn: 'additionalContentSection', quantity: 2 } },
  { type: 'AddMember', data: { userId: 'user-owner', email: 'owner@audited.example', role: 'owner' } },
  {
    type: 'AddMember',
    data: { userId: 'user-admin', email: 'admin@audited.example', role: 'admin', chorusUser: true },
  },
  { type: 'AddSite', data: { siteId: 'site-main', name: 'Main', hostname: 'www.audited.example' } },
  { type: 'AddSite', data: { siteId: 'site-blog', name: 'Blog', hostname: 'https://blog.audited.example' } },
  { type: 'ConfigureLimits', data: { users: 3, contentSections: 2 } },
  { type: 'ConfigureLimits', data: { override: true } },
  { type: 'AssignPlan', data: { line: 'classic', plan: 'professional', serviceLevel: 'assisted' } },
  { type: 'PurchaseAddOn', data: { addOn: 'feedback' } },
  { type: 'CancelAddOn', data: { addOn: 'additionalContentSection', quantity: 1 } },
  { type: 'RemoveMember', data: { userId: 'user-admin' } },
  { type: 'RemoveSite', data: { siteId: 'site-blog' } },
  { type: 'ConfigureLimits', data: { users: null, contentSections: null, override: false } },
];

export const scriptCatalogue = (): PlanCatalogue => createPlanCatalogue({ paymentProviderIds: [] });

/** The command path as the API wires it, on the given store. */
export const commandPath = (store: EventStore, catalogue: PlanCatalogue): Organizations =>
  new Organizations(store, new OrganizationStateCache(), catalogue);

/**
 * Records the script; `afterEach` sees the store right after each event (for snapshots of "today's state").
 * The clock is set so that event k is recorded at recordedAtOf(k).
 */
export async function recordScriptedHistory(
  store: EventStore,
  clock: ScriptClock,
  organizationId: string,
  afterEach: (revision: number) => Promise<void> = async () => undefined,
): Promise<number> {
  const decider = commandPath(store, scriptCatalogue());
  const commands = scriptedCommands(organizationId);
  for (const [revision, command] of commands.entries()) {
    clock.setTo(recordedAtOf(revision));
    const correlationId = `script-${organizationId}-${revision}`;
    await decider.handle(organizationId, command, {
      actor: 'cli',
      correlationId,
      causationId: correlationId,
      origin: { cliCommand: 'audit-script' },
    });
    await afterEach(revision);
  }
  return commands.length;
}
