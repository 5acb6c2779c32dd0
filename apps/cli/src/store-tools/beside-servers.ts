// store:backup and store:copy run beside serving nodes, often on their machine: they take the CPU the servers leave
// (bench/backup, during-writes: on two cores a backup at the servers' priority took a quarter of their adds).
import { readdirSync } from 'node:fs';
import { constants, setPriority } from 'node:os';

/**
 * Lowers every thread of this process to the lowest CPU priority. Linux gives each thread its own: the main thread's
 * alone would leave the garbage collector's threads at the servers' level. Threads started later (the thread pool's)
 * inherit it from the thread that starts them. A CPU with nothing else to run still runs the tool at full speed.
 */
export function yieldCpuToServers(): void {
  // The calling thread last: once it shows the lowest priority, so does every other (what a watcher may rely on).
  for (const thread of [...otherThreadsOfThisProcess(), 0]) {
    try {
      setPriority(thread, constants.priority.PRIORITY_LOW);
    } catch {
      // A thread that ended meanwhile, or a system that does not allow it: the tool runs as it is.
    }
  }
}

/** Each other thread's id where the system lists them (Linux's /proc), else none. */
function otherThreadsOfThisProcess(): number[] {
  try {
    return readdirSync('/proc/self/task')
      .map(Number)
      .filter((thread) => thread !== process.pid);
  } catch {
    return [];
  }
}
