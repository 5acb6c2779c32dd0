import { QueryBus } from '@nestjs/cqrs';
import type { Command } from 'commander';
import { LIMITED_RESOURCES, type Limit } from '#domain';
import { GetOrganizationStateQuery, jsonSafe, organizationIdSchema, type OrganizationStateAt, ProblemError, stateQuery } from '#api';
import { cliAction, parseInput } from '../cli-action.js';
import type { GetCliContext } from '../cli-context.js';

const limitText = (limit: Limit): string => (limit === null ? 'unlimited' : String(limit));

/** The state for people: what it had, what it may have, and who and what is in it. */
function describe({ view, revision, recordedAt }: OrganizationStateAt): string {
  const addOns = Object.entries(view.addOns).map(([addOn, quantity]) => `${addOn} x${quantity}`);
  // The Chorus plan stays assigned while Chorus is off (its limits then give way to the Classic plan's).
  const chorus = view.chorus ? `on${view.chorusDetails.parallelUse ? ', in parallel use' : ''}` : 'off';
  const governing = view.governingPlan === null ? 'no plan yet' : `the ${view.governingPlan.line} plan ${view.governingPlan.plan}`;
  const lines = [
    `${view.name} (${view.id}) at revision ${revision}, recorded ${recordedAt}`,
    `  Classic plan:   ${view.plan ?? 'none'}`,
    `  Chorus plan:    ${view.chorusDetails.plan ?? 'none'}`,
    `  Chorus:         ${chorus}`,
    `  Limits from:    ${governing}`,
    `  Service level:  ${view.serviceLevel}`,
    `  Add-ons:        ${addOns.length === 0 ? 'none' : addOns.join(', ')}`,
    `  Limits${view.limits.override ? ' (override: hard limits ignored)' : ''}:`,
    ...LIMITED_RESOURCES.map(
      (resource) =>
        `    ${resource.padEnd(24)} ${String(view.usage[resource]).padStart(5)} used of ${limitText(view.limits.effective[resource])}` +
        ` (configured ${limitText(view.limits.configured[resource])}, hard ${limitText(view.limits.hard[resource])})`,
    ),
    `  Members (${view.members.length}):`,
    ...view.members.map((member) => `    ${member.email} ${member.role}${member.chorusUser ? ', Chorus user' : ''} [${member.userId}]`),
    `  Sites (${view.sites.length}):`,
    ...view.sites.map((site) => `    ${site.name} ${site.hostname} [${site.siteId}]`),
  ];
  return lines.join('\n');
}

/** `chorus org:state ID [--as-of-revision N | --as-of ISO]`: the organization folded up to that point (now by default). */
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
          throw new ProblemError(400, 'VALIDATION_FAILED', 'The request is not valid', 'give --as-of-revision or --as-of, not both');
        }
        const point = parseInput(stateQuery, { asOfRevision: options.asOfRevision, asOf: options.asOf }, 'org:state');
        const state = await context.app.get(QueryBus).execute(new GetOrganizationStateQuery(organizationId, point));
        return {
          json: { ...state.view, revision: jsonSafe(state.revision), position: jsonSafe(state.position), recordedAt: state.recordedAt },
          text: describe(state),
        };
      }),
    );
}
