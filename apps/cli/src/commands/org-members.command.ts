import type { Command } from 'commander';
import type { Member } from '#domain';
import { jsonSafe, memberCursorText, organizationIdSchema, ProblemError, validMembersPageQuery } from '#api';
import { cliAction, parseInput } from '../cli-action.js';
import type { GetCliContext } from '../cli-context.js';
import { caughtUpReadModels } from '../read-models-caught-up.js';

type Options = { after?: string; limit?: string; q?: string };

type ListedMember = Member & { invited: boolean };

/** A word the shell passes as it is, else in single quotes: the hint is meant to be pasted. */
const shellWord = (word: string): string =>
  /^[\w@.+,:=/-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;

const counted = (count: number): string => `${count.toLocaleString('en')} member${count === 1 ? '' : 's'}`;

function memberLine(member: ListedMember, width: number): string {
  const flags = `${member.chorusUser ? ', Chorus user' : ''}${member.invited ? ', invited' : ''}`;
  return `${member.email.padEnd(width)}  ${member.role}${flags}  [${member.userId}]`;
}

/** "3 of 7 members; next page: chorus org:members acme --limit 3 --after …", the search and the limit kept. */
function summaryLine(
  id: string,
  limit: number | undefined,
  q: string | undefined,
  members: number,
  total: number,
  next: string | null,
): string {
  const matching = q === undefined ? '' : ` whose address contains ${JSON.stringify(q)}`;
  const counts = `${members.toLocaleString('en')} of ${counted(total)}${matching}`;
  if (next === null) return `${counts}; no more pages.`;
  const kept = [
    ...(q === undefined ? [] : ['--q', shellWord(q)]),
    ...(limit === undefined ? [] : ['--limit', String(limit)]),
  ];
  return `${counts}; next page: chorus org:members ${[id, ...kept, '--after', next].join(' ')}`;
}

/**
 * `chorus org:members ID [--after CURSOR] [--limit N] [--q TEXT]`: one page of the members, as GET
 * /organizations/:id/members answers it, so that no call reads more than a page of an organization of any size.
 */
export function registerOrgMembersCommand(program: Command, getContext: GetCliContext): void {
  program
    .command('org:members')
    .description("list one page of an organization's members, in the order they joined")
    .argument('<id>', 'the organization id')
    .option('--after <cursor>', 'start after the page that printed this cursor (its "next page" line)')
    .option('--limit <n>', 'members on the page, from 1 to 200 (default 50)')
    .option('--q <text>', 'only the members whose address contains this text, whatever its case')
    .option('--json', 'print the page as JSON (the shape of GET /organizations/:id/members)')
    .action(
      cliAction(getContext, async (context, id: string, options: Options) => {
        const organizationId = parseInput(organizationIdSchema, id, 'id');
        // The route's own schema: the same limits, defaults and refusals as `?after=&limit=&q=`.
        const { after, limit, q } = parseInput(validMembersPageQuery.schema, {
          after: options.after,
          limit: options.limit,
          q: options.q,
        });
        const readModels = await caughtUpReadModels(context);
        const page = readModels.organizations.membersPage(organizationId, {
          limit,
          ...(after === undefined ? {} : { after }),
          ...(q === undefined ? {} : { q }),
        });
        if (page === undefined) {
          throw new ProblemError(404, 'NOT_FOUND', 'Not found', `There is no organization ${organizationId}.`, {
            entity: 'organization',
          });
        }
        const signedIn = readModels.signIns.signedInOnce(page.members.map((member) => member.userId));
        const members = page.members.map((member) => ({ ...member, invited: !signedIn.has(member.userId) }));
        const next = page.next === undefined ? null : memberCursorText(page.next);
        const width = Math.max(0, ...members.map((member) => member.email.length));
        let text: string;
        if (page.total === 0)
          text =
            q === undefined
              ? `${organizationId} has no members.`
              : `No member's address contains ${JSON.stringify(q)}.`;
        else
          text = [
            ...members.map((member) => memberLine(member, width)),
            summaryLine(
              organizationId,
              options.limit === undefined ? undefined : limit,
              q,
              members.length,
              page.total,
              next,
            ),
          ].join('\n');
        return {
          json: { organizationId, members, total: page.total, next, position: jsonSafe(page.position) },
          text,
        };
      }),
    );
}
