// Progress of projections:rebuild and projections:verify on stderr (stdout stays the result): a bar
// redrawn in place on a terminal, a plain line every tenth of the way otherwise (none with --json).
import type { ReplayProgress } from '#read-models';

const barWidth = 30;
const redrawEveryMs = 100;

export type ProgressReporter = { update: (progress: ReplayProgress) => void; done: () => void };

export function progressReporter(
  label: string,
  json: boolean,
  stream: NodeJS.WriteStream = process.stderr,
): ProgressReporter {
  let lastDraw = 0;
  let lastTenth = -1;
  let drawn = false;
  return {
    update(progress) {
      const { fraction } = progress;
      if (stream.isTTY) {
        const now = performance.now();
        if (now - lastDraw < redrawEveryMs && fraction < 1) return;
        lastDraw = now;
        const filled = Math.round(fraction * barWidth);
        stream.write(
          `\r${label} [${'#'.repeat(filled)}${'-'.repeat(barWidth - filled)}] ${describe(progress, fraction)}\u001b[K`,
        );
        drawn = true;
        return;
      }
      const tenth = Math.floor(fraction * 10);
      if (json || tenth === lastTenth) return;
      lastTenth = tenth;
      stream.write(`${label}: ${describe(progress, fraction)}\n`);
    },
    done() {
      if (drawn) stream.write('\n');
    },
  };
}

function describe(progress: ReplayProgress, fraction: number): string {
  const perSecond = progress.elapsedMs > 0 ? Math.round((progress.events * 1000) / progress.elapsedMs) : 0;
  return `${String(Math.floor(fraction * 100)).padStart(3)}%  ${counted(progress.events, 'event', 'events')}  ${count(perSecond)} events/s`;
}

export function count(value: number): string {
  return value.toLocaleString('en-US');
}

/** '1 organization', '2 organizations', '1,024 events': a count with the noun it agrees with. */
export function counted(value: number, one: string, many: string): string {
  return `${count(value)} ${value === 1 ? one : many}`;
}
