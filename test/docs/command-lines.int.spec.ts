// Every `chorus` command line README.md and docs/*.md show, in code blocks and inline code, parses with the real
// command line's program: a known command, known options, the right arguments. `chorus user:export <address> --json`
// was documented while the command refused `--json`; a line like it fails here, naming the file and its line. The
// lines are parsed, never run: every action is replaced by one that does nothing. Placeholders (`<address>`) get a
// sample value; an optional part (`[--json]`) is tried both with and without. A span that only names a command
// (`chorus projector:run` in prose) must name one that exists.
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CommanderError, type Command } from 'commander';
import type { GetCliContext } from '../../apps/cli/src/cli-context.js';
import { COMMANDS } from '../../apps/cli/src/command-list.js';
import { chorusProgram } from '../../apps/cli/src/program.js';

const root = join(import.meta.dirname, '../..');
const documents = [
  'README.md',
  ...readdirSync(join(root, 'docs'), { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => `docs/${entry.name}`),
];

/** `named`: a code span of the command's name alone, as prose names it; a line of a code block is always run. */
type Shown = { where: string; line: string; named: boolean };

/** `chorus ...` or `./chorus ...`, from the program's name to the end of the code. */
const INVOCATION = /(?:^|[\s(])(?:\.\/)?chorus[ \t]+(\S[^]*)$/;

/** The command lines of one Markdown text: each line of a fenced block, and each code span, that invokes chorus. */
function commandLines(file: string, text: string): Shown[] {
  const shown: Shown[] = [];
  const lines = text.split('\n');
  let fence: string | undefined;
  const prose = lines.map((line, index) => {
    const opening = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (opening !== undefined && opening[0] === fence[0] && opening.length >= fence.length) fence = undefined;
      else {
        // A shell comment is the reader's, not the command's.
        const command = INVOCATION.exec(line.replace(/\s#\s.*$/, ''))?.[1];
        if (command !== undefined) shown.push({ where: `${file}:${index + 1}`, line: command.trim(), named: false });
      }
      return '';
    }
    if (opening !== undefined) fence = opening;
    return opening === undefined ? line : '';
  });
  const outside = prose.join('\n');
  // A code span is a run of backticks closed by a run of the same length (CommonMark), within one paragraph.
  for (const span of outside.matchAll(/(`+)((?:(?!\n[ \t]*\n)[^])*?[^`])\1(?!`)/g)) {
    const command = INVOCATION.exec((span[2] ?? '').replace(/\s+/g, ' ').trim())?.[1];
    const line = outside.slice(0, span.index).split('\n').length;
    if (command !== undefined)
      shown.push({ where: `${file}:${line}`, line: command.trim(), named: /^[^-\s]\S*$/.test(command.trim()) });
  }
  return shown;
}

/** Shell words: quotes removed, cut at a pipe, a list or a redirection (what follows is another program's). */
function words(line: string): string[] {
  const found: string[] = [];
  for (const match of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) {
    const word = match[1] ?? match[2] ?? match[3] ?? '';
    if (match[3] !== undefined && /^(\||\|\||&&|;|>|>>|<|2>)$/.test(word)) break;
    found.push(word);
  }
  return found;
}

/** The line as typed: placeholders given a sample value, its optional parts kept or dropped. */
function asTyped(line: string, optional: 'kept' | 'dropped'): string[] {
  const sampled = line.replace(/<[^<>]+>/g, 'sample');
  const typed = optional === 'kept' ? sampled.replace(/\[([^\]]*)\]/g, ' $1 ') : sampled.replace(/\[[^\]]*\]/g, ' ');
  return words(typed);
}

const noContext: GetCliContext = () => Promise.reject(new Error('a documented line is parsed, never run'));

/** The real program with every command registered as main.ts registers the one a call names, and no action. */
async function program(): Promise<Command> {
  const chorus = chorusProgram().configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
  for (const entry of COMMANDS) (await entry.load())(chorus, noContext);
  for (const command of chorus.commands) command.action(() => undefined);
  return chorus;
}

/** What commander says of the words: undefined when they parse (help and the version are a parse that ends well). */
async function refusal(argv: string[]): Promise<string | undefined> {
  try {
    await (await program()).parseAsync(argv, { from: 'user' });
    return undefined;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? undefined : `${error.code}: ${error.message}`;
    throw error;
  }
}

const shown = documents.flatMap((file) => commandLines(file, readFileSync(join(root, file), 'utf8')));
// A placeholder for any command (`./chorus <command>`) is no command line.
const generic = ({ line }: Shown) => line.startsWith('<');

describe('the command lines the docs show', () => {
  it('finds them in code blocks and inline code, also a span that wraps', () => {
    expect(shown.length).toBeGreaterThan(25);
    expect(shown).toContainEqual({ where: expect.stringMatching(/^README\.md:\d+$/), line: 'org:list', named: false });
    expect(shown).toContainEqual(
      expect.objectContaining({
        line: 'user:erase <address|user id> --yes [--json]',
        where: expect.stringMatching(/^docs\/privacy\.md:\d+$/),
      }),
    );
  });

  it('refuses what the command line refuses: an unknown command or option, a missing or extra argument', async () => {
    expect(await refusal(['org:nonsense'])).toMatch(/unknownCommand/);
    expect(await refusal(['org:list', '--nonsense'])).toMatch(/unknownOption/);
    expect(await refusal(['org:state'])).toMatch(/missingArgument/);
    expect(await refusal(['org:state', 'acme', 'globex'])).toMatch(/excessArguments/);
    expect(await refusal(['org:state', 'acme', '--json'])).toBeUndefined();
  });

  it.each(shown.filter((each) => !each.named && !generic(each)).map((each) => [each.where, each.line]))(
    '%s: chorus %s',
    async (_where, line) => {
      expect({ line, kept: await refusal(asTyped(line, 'kept')) }).toEqual({ line, kept: undefined });
      expect({ line, dropped: await refusal(asTyped(line, 'dropped')) }).toEqual({ line, dropped: undefined });
    },
  );

  it.each(shown.filter((each) => each.named && !generic(each)).map((each) => [each.where, each.line]))(
    '%s: chorus %s names a command',
    async (_where, name) => {
      expect((await program()).commands.map((command) => command.name())).toContain(name);
    },
  );
});
