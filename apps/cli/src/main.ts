// The `chorus` command line. Only commander and the command a call names are loaded: the store, Nest and
// the configuration come with that command's first use of its context, never for --version or --help.
import type { CliContext } from './cli-context.js';
import { COMMANDS, commandNamed } from './command-list.js';
import { yieldCpuToServers } from './store-tools/beside-servers.js';

const named = commandNamed(process.argv.slice(2));
// Before anything else is loaded: loading is a third of a back-to-back backup's CPU (bench/backup, during-writes).
if (named?.besideServers === true) yieldCpuToServers();

const [{ CommanderError }, { default: dotenv }, { ExitCode }, { chorusProgram }] = await Promise.all([
  import('commander'),
  import('dotenv'),
  import('./exit-codes.js'),
  import('./program.js'),
]);

dotenv.config({ quiet: true });

// `chorus org:history ID --json | head -1`: a reader that stops early is not an error of ours.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

// Opened on first use, so `--help` and usage errors need no configuration and no store.
let context: Promise<CliContext> | undefined;
const getContext = (): Promise<CliContext> =>
  (context ??= (async () => {
    const [{ loadConfig }, { createCliContext }] = await Promise.all([import('#config'), import('./cli-context.js')]);
    return createCliContext(loadConfig(process.env));
  })());

const program = chorusProgram();

for (const entry of COMMANDS) {
  if (entry === named) {
    // Nest's decorators need it before any of the command's modules is evaluated.
    await import('reflect-metadata');
    (await entry.load())(program, getContext);
  }
  // The others are listed by name and summary; they are never run in this call (it names another).
  else program.command(`${entry.name}${entry.args === '' ? '' : ` ${entry.args}`}`).description(entry.summary);
}

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? ExitCode.ok : ExitCode.invalidInput;
  } else {
    const { reportFailure } = await import('./cli-action.js');
    await reportFailure(error, false, getContext);
  }
} finally {
  if (context !== undefined)
    await context.then(
      (opened) => opened.close(),
      () => undefined,
    );
}
