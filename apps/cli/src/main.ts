import 'reflect-metadata';
import { Command, CommanderError } from 'commander';
import dotenv from 'dotenv';
import { loadConfig } from '#config';
import { reportFailure } from './cli-action.js';
import { createCliContext, type CliContext } from './cli-context.js';
import { registerApiKeyCreateCommand } from './commands/api-key-create.command.js';
import { registerApiKeyListCommand } from './commands/api-key-list.command.js';
import { registerApiKeyRevokeCommand } from './commands/api-key-revoke.command.js';
import { registerBillingSignCommand } from './commands/billing-sign.command.js';
import { registerOrgChorusCommand } from './commands/org-chorus.command.js';
import { registerOrgCreateCommand } from './commands/org-create.command.js';
import { registerOrgHistoryCommand } from './commands/org-history.command.js';
import { registerOrgListCommand } from './commands/org-list.command.js';
import { registerOrgPlanCommand } from './commands/org-plan.command.js';
import { registerOrgSsoCommand, registerOrgSsoVerifyCommand } from './commands/org-sso.command.js';
import { registerOrgStateCommand } from './commands/org-state.command.js';
import { registerProjectionsRebuildCommand } from './commands/projections-rebuild.command.js';
import { registerProjectionsVerifyCommand } from './commands/projections-verify.command.js';
import { registerProjectorRunCommand } from './commands/projector-run.command.js';
import { registerUserCreateCommand } from './commands/user-create.command.js';
import { ExitCode } from './exit-codes.js';
import { chorusVersion } from './version.js';

dotenv.config({ quiet: true });

// `chorus org:history ID --json | head -1`: a reader that stops early is not an error of ours.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

// Opened on first use, so `--help` and usage errors need no configuration and no store.
let context: Promise<CliContext> | undefined;
const getContext = (): Promise<CliContext> => (context ??= Promise.resolve().then(() => createCliContext(loadConfig(process.env))));

const program = new Command('chorus')
  .description('The Chorus command line: works on the same configuration and store as the server.')
  .version(chorusVersion(), '-V, --version', 'print the version of Chorus')
  .exitOverride()
  .showHelpAfterError();

registerOrgCreateCommand(program, getContext);
registerOrgListCommand(program, getContext);
registerOrgPlanCommand(program, getContext);
registerOrgChorusCommand(program, getContext);
registerOrgSsoCommand(program, getContext);
registerOrgSsoVerifyCommand(program, getContext);
registerApiKeyCreateCommand(program, getContext);
registerApiKeyListCommand(program, getContext);
registerApiKeyRevokeCommand(program, getContext);
registerOrgHistoryCommand(program, getContext);
registerOrgStateCommand(program, getContext);
registerProjectionsRebuildCommand(program, getContext);
registerProjectionsVerifyCommand(program, getContext);
registerProjectorRunCommand(program, getContext);
registerUserCreateCommand(program, getContext);
registerBillingSignCommand(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? ExitCode.ok : ExitCode.invalidInput;
  } else {
    reportFailure(error, false);
  }
} finally {
  if (context !== undefined) await context.then((opened) => opened.close(), () => undefined);
}
