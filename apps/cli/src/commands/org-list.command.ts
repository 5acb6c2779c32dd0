import type { Command } from 'commander';
import type { OrganizationSummary } from '#read-models';
import { jsonSafe } from '#api';
import { cliAction } from '../cli-action.js';
import type { GetCliContext } from '../cli-context.js';
import { caughtUpReadModels } from '../read-models-caught-up.js';

const columns = (id: string, name: string, plans: string, members: string, sites: string): string =>
  `${id.padEnd(36)}  ${name.padEnd(30)}  ${plans.padEnd(44)}  ${members.padStart(7)}  ${sites.padStart(5)}`;

/** 'classic essential, chorus teams (off)': both lines, the Chorus plan also while Chorus is off. */
function plansOf({ plans, chorus }: OrganizationSummary): string {
  const lines = [
    ...(plans.classic === null ? [] : [`classic ${plans.classic}`]),
    ...(plans.chorus === null ? [] : [`chorus ${plans.chorus}${chorus ? '' : ' (off)'}`]),
  ];
  return lines.length === 0 ? 'none' : lines.join(', ');
}

/** `chorus org:list [--json]`: every organization, by name, with its plans, members and sites. */
export function registerOrgListCommand(program: Command, getContext: GetCliContext): void {
  program
    .command('org:list')
    .description('list the organizations: id, name, plans, members and sites')
    .option('--json', 'print them as a JSON array')
    .action(
      cliAction(getContext, async (context) => {
        const organizations = (await caughtUpReadModels(context)).organizations.list();
        return {
          json: organizations.map((organization) => ({ ...organization, revision: jsonSafe(organization.revision) })),
          text:
            organizations.length === 0
              ? 'No organizations yet: create one with `chorus org:create --name <name>`.'
              : [
                  columns('id', 'name', 'plans', 'members', 'sites'),
                  ...organizations.map((organization) =>
                    columns(
                      organization.id,
                      organization.name,
                      plansOf(organization),
                      String(organization.members),
                      String(organization.sites),
                    ),
                  ),
                ].join('\n'),
        };
      }),
    );
}
