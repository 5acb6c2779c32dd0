import type { Command } from 'commander';
import { z } from 'zod';
import { READ_MODELS, type ReadModels } from '#read-models';
import { cliAction, parseInput } from '../cli-action.js';
import type { GetCliContext } from '../cli-context.js';
import { count, counted, progressReporter } from './projections-progress.js';

/**
 * `chorus projections:rebuild [--json]`: drops and rebuilds every read model from the events. The new
 * models are built aside and swapped in at once, so a running server keeps answering throughout.
 */
export function registerProjectionsRebuildCommand(program: Command, getContext: GetCliContext): void {
  program
    .command('projections:rebuild')
    .description(
      'drop and rebuild every read model from the events (built aside, then swapped in; the server may keep running)',
    )
    .option('--only <names>', 'comma-separated read models to rebuild (default: all)')
    .option('--json', 'print the result as JSON')
    .action(
      cliAction(getContext, async (context, options: { json?: boolean; only?: string }) => {
        const readModels = context.app.get<ReadModels>(READ_MODELS);
        const progress = progressReporter('rebuilding', options.json === true);
        const names = readModels.projections.map((projection) => projection.name);
        const only = parseInput(
          z.array(z.enum(names)).min(1).optional(),
          options.only?.split(',').map((name) => name.trim()),
          'only',
        );
        const rebuilt = await readModels.rebuild({
          onProgress: progress.update,
          ...(only === undefined ? {} : { only }),
        });
        progress.done();
        const seconds = rebuilt.elapsedMs / 1000;
        const perSecond = seconds > 0 ? Math.round(rebuilt.events / seconds) : rebuilt.events;
        const position = rebuilt.position?.toString() ?? 'none (no events)';
        return {
          json: { ...rebuilt, position: rebuilt.position?.toString() ?? null, eventsPerSecond: perSecond },
          text: `Rebuilt ${rebuilt.projections.join(', ')} from ${counted(rebuilt.events, 'event', 'events')} up to position ${position} in ${seconds.toFixed(1)} s (${count(perSecond)} events/s).`,
        };
      }),
    );
}
