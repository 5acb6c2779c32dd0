// The listing `chorus --help` prints without loading any command must say what the commands themselves
// declare: the same names, the same arguments, and a summary that is the start of each description.
import { describe, expect, it } from '@jest/globals';
import { Command } from 'commander';
import type { GetCliContext } from './cli-context.js';
import { COMMANDS, commandNamed } from './command-list.js';

const noContext: GetCliContext = () => Promise.reject(new Error('not opened in this test'));

describe('the command list', () => {
  it.each(COMMANDS.map((entry) => [entry.name, entry] as const))(
    '%s: its module registers the same name, arguments and description',
    async (_name, entry) => {
      const program = new Command('chorus');
      (await entry.load())(program, noContext);

      const [registered, ...others] = program.commands;
      expect(others).toEqual([]);
      expect(registered?.name()).toBe(entry.name);
      const args = registered?.registeredArguments
        .map((argument) => (argument.required ? `<${argument.name()}>` : `[${argument.name()}]`))
        .join(' ');
      expect(args).toBe(entry.args);
      expect(registered?.description().startsWith(entry.summary)).toBe(true);
    },
  );

  it('finds the command a call names, also after options and behind help', () => {
    expect(commandNamed(['org:list', '--json'])?.name).toBe('org:list');
    expect(commandNamed(['--json', 'org:state', 'acme'])?.name).toBe('org:state');
    expect(commandNamed(['help', 'org:member:add'])?.name).toBe('org:member:add');
    expect(commandNamed(['--version'])).toBeUndefined();
    expect(commandNamed(['org:nonsense'])).toBeUndefined();
  });
});
