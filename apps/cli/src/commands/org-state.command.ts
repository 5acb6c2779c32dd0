import { QueryBus } from '@nestjs/cqrs';
import type { Command } from 'commander';
import {
  ADD_ON_NAMES,
  LIMITED_RESOURCES,
  RESOURCE_NAMES,
  SERVICE_LEVEL_NAMES,
  type AddOn,
  type Limit,
  type OrganizationView,
} from '#domain';
import {
  GetOrganizationStateQuery,
  jsonSafe,
  organizationIdSchema,
  type OrganizationStateAt,
  ProblemError,
  stateQuery,
} from '#api';
import { cliAction, parseInput } from '../cli-action.js';
import type { GetCliContext } from '../cli-context.js';

const limitText = (limit: Limit): string => (limit === null ? 'unlimited' : limit.toLocaleString('en'));

/** "31 December 2026": days as Stripe counts them, in UTC. */
const day = (instant: string): string =>
  new Date(instant).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** "Stripe sub_1 (customer cus_1): active, renews on 1 December 2026"; "none". */
function subscriptionText(view: OrganizationView, stripe: OrganizationStateAt['stripe']): string {
  const subscription = view.subscription;
  if (subscription === null) return 'none';
  const { status, trialEndsAt, endsOn, currentPeriod, endedAt } = subscription;
  const terms: string[] = [];
  if (status === 'trialing') terms.push(trialEndsAt === null ? 'in its trial' : `trial until ${day(trialEndsAt)}`);
  if (status === 'active') terms.push('active');
  if (status === 'past_due') terms.push('payment overdue, the plan stays in force while the payment is retried');
  if (status === 'ended')
    terms.push(endedAt === null ? 'ended: its plans ended' : `ended on ${day(endedAt)}: its plans ended`);
  if (status !== 'ended' && endsOn !== null) terms.push(`ends on ${day(endsOn)}`);
  else if (status !== 'ended' && currentPeriod !== null) terms.push(`renews on ${day(currentPeriod.end)}`);
  const who =
    `${subscription.provider === 'stripe' ? 'Stripe' : subscription.provider} ${stripe.subscriptionId ?? ''}`.trim();
  return `${who}${stripe.customerId === null ? '' : ` (customer ${stripe.customerId})`}: ${terms.join(', ')}`;
}

/** "2 of 5 (configured 5, hard 10)"; without a plan nothing can be added, whatever the figures say. */
function limitLine(view: OrganizationView, resource: (typeof LIMITED_RESOURCES)[number]): string {
  const used = view.usage[resource].toLocaleString('en');
  const name = RESOURCE_NAMES[resource].padEnd(24);
  if (view.governingPlan === null) return `    ${name} ${used} in use, none can be added without a plan`;
  const configured = `configured ${limitText(view.limits.configured[resource])}${view.limits.setByOperator[resource] ? ' (set by an operator)' : ''}`;
  return `    ${name} ${used} of ${limitText(view.limits.effective[resource])} (${configured}, hard ${limitText(view.limits.hard[resource])})`;
}

/** Enough to see who is in it; the rest are a page-by-page read, so the text stays short at any size. */
export const MEMBERS_SHOWN = 20;

/**
 * The first members, in order. Only today's state has them in the read model org:members pages; an earlier one has
 * them in --json alone.
 */
function membersShown(view: OrganizationView, latest: boolean): string[] {
  const more = view.members.length - MEMBERS_SHOWN;
  return [
    ...view.members
      .slice(0, MEMBERS_SHOWN)
      .map(
        (member) => `    ${member.email} ${member.role}${member.chorusUser ? ', Chorus user' : ''} [${member.userId}]`,
      ),
    ...(more <= 0
      ? []
      : [
          latest
            ? `    … and ${more.toLocaleString('en')} more: chorus org:members ${view.id} lists them page by page`
            : `    … and ${more.toLocaleString('en')} more (--json has them all)`,
        ]),
  ];
}

/**
 * The state for people, in the console's words: what it had, what it may have, its subscription, and who and what is in
 * it. `latest`: the state now, not at a point in the past.
 */
function describe({ view, stripe, revision, recordedAt }: OrganizationStateAt, latest: boolean): string {
  const addOns = (Object.entries(view.addOns) as [AddOn, number][]).map(
    ([addOn, quantity]) => `${ADD_ON_NAMES[addOn]} × ${quantity}`,
  );
  // The Chorus plan stays assigned while Chorus is off (its limits then give way to the Classic plan's).
  const chorus = view.chorus ? `on${view.chorusDetails.parallelUse ? ', in parallel use' : ''}` : 'off';
  const governing =
    view.governingPlan === null
      ? 'no plan in effect'
      : `the ${view.governingPlan.line} plan ${view.governingPlan.plan}`;
  const lines = [
    `${view.name} (${view.id}) at revision ${revision}, recorded ${recordedAt}`,
    `  Classic plan:   ${view.plan ?? 'none'}`,
    `  Chorus plan:    ${view.chorusDetails.plan ?? 'none'}`,
    `  Chorus:         ${chorus}`,
    `  Limits from:    ${governing}`,
    `  Service level:  ${SERVICE_LEVEL_NAMES[view.serviceLevel]}`,
    `  Add-ons:        ${addOns.length === 0 ? 'none' : addOns.join(', ')}`,
    `  Subscription:   ${subscriptionText(view, stripe)}`,
    `  Limits${view.limits.override ? ' (override: hard limits ignored)' : ''}:`,
    ...LIMITED_RESOURCES.map((resource) => limitLine(view, resource)),
    `  Members (${view.members.length.toLocaleString('en')}):`,
    ...membersShown(view, latest),
    `  Sites (${view.sites.length}):`,
    ...view.sites.map((site) => `    ${site.name} ${site.hostname} [${site.siteId}]`),
  ];
  return lines.join('\n');
}

/**
 * `chorus org:state ID [--as-of-revision N | --as-of ISO]`: the organization folded up to that point (now by default).
 */
export function registerOrgStateCommand(program: Command, getContext: GetCliContext): void {
  program
    .command('org:state')
    .description('the state of an organization, now or as it was at a revision or an instant')
    .argument('<id>', 'the organization id')
    .option('--as-of-revision <revision>', 'fold up to and including this stream revision (from 0)')
    .option('--as-of <instant>', 'fold every event recorded at or before this ISO-8601 instant (with Z or an offset)')
    .option('--json', 'print the state as JSON (the shape of GET /organizations/:id/state)')
    .action(
      cliAction(getContext, async (context, id: string, options: { asOfRevision?: string; asOf?: string }) => {
        const organizationId = parseInput(organizationIdSchema, id, 'id');
        if (options.asOfRevision !== undefined && options.asOf !== undefined) {
          throw new ProblemError(
            400,
            'VALIDATION_FAILED',
            'The request is not valid',
            'give --as-of-revision or --as-of, not both',
          );
        }
        const point = parseInput(stateQuery, { asOfRevision: options.asOfRevision, asOf: options.asOf }, 'org:state');
        const state = await context.app.get(QueryBus).execute(new GetOrganizationStateQuery(organizationId, point));
        return {
          json: {
            ...state.view,
            revision: jsonSafe(state.revision),
            position: jsonSafe(state.position),
            recordedAt: state.recordedAt,
          },
          text: describe(state, point.kind === 'latest'),
        };
      }),
    );
}
