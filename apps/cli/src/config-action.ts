// The store tools' action (backup, restore, copy, verify): the configuration only, with the service's modules opened
// when the work asks for them (a restore, once the log is in place), never on a store still to be checked. The
// HTTP side is loaded only to report a failure, so a backup starts in a fraction of the time (bench/backup).
import { loadConfig, type Config } from '#config';
import { printOutput, wantsJson, type CliOutput } from './cli-output.js';
import type { GetCliContext } from './cli-context.js';
import { StoreRefusal } from './store-tools/store-refusal.js';

export function configAction<Args extends unknown[]>(
  getContext: GetCliContext,
  work: (config: Config, ...args: Args) => Promise<CliOutput>,
): (...args: unknown[]) => Promise<void> {
  return async (...args: unknown[]): Promise<void> => {
    const json = wantsJson(args);
    try {
      printOutput(await work(loadConfig(process.env), ...(args.slice(0, -1) as Args)), json);
    } catch (error) {
      const [{ reportFailure }, { ProblemError }] = await Promise.all([import('./cli-action.js'), import('#api')]);
      const reported =
        error instanceof StoreRefusal ? new ProblemError(error.status, error.code, error.title, error.detail) : error;
      await reportFailure(reported, json, getContext);
    }
  };
}
