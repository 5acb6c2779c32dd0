// The `chorus` program before any command is registered: main.ts runs it, test/docs holds the docs' lines to it.
import { Command } from 'commander';
import { chorusVersion } from './version.js';

/** Usage errors throw (exitOverride) rather than exit, so main.ts picks the exit code and a test sees the refusal. */
export function chorusProgram(): Command {
  return new Command('chorus')
    .description('The Chorus command line: works on the same configuration and store as the server.')
    .version(chorusVersion(), '-V, --version', 'print the version of Chorus')
    .exitOverride()
    .showHelpAfterError();
}
