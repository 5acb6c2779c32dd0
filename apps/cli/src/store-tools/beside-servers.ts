// store:backup and store:copy run beside serving nodes, often on their machine: they take the CPU the servers leave
// (bench/backup, during-writes: on two cores a backup at the servers' priority took a quarter of their adds, at nice
// 19 still a quarter of them, in Linux's idle class a twentieth).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { constants, setPriority } from 'node:os';

/**
 * Puts every thread of this process in Linux's idle scheduling class (SCHED_IDLE, through util-linux's `chrt`: Node
 * has no call for it), at nice 19 as well. Linux gives each thread its own: the main thread's alone would leave the
 * garbage collector's threads at the servers' level. Threads started later (the thread pool's) inherit both from the
 * thread that starts them. A CPU with nothing else to run still runs the tool at full speed.
 */
export function yieldCpuToServers(): void {
  // The calling thread last: once it shows the lowest priority, so does every other (what a watcher may rely on).
  const threads = [...otherThreadsOfThisProcess(), process.pid];
  for (const thread of threads) {
    try {
      setPriority(thread === process.pid ? 0 : thread, constants.priority.PRIORITY_LOW);
    } catch {
      // A thread that ended meanwhile, or a system that does not allow it: the tool runs as it is.
    }
  }
  // Nice 19 still takes a core from a server's thread that wakes (a sync done, the garbage collector): the idle class
  // gives it up at once. One shell for every thread, in the same order; without `chrt` the tool stays at nice 19.
  spawnSync(
    '/bin/sh',
    ['-c', 'for thread in "$@"; do chrt --idle --pid 0 "$thread"; done', 'sh', ...threads.map(String)],
    {
      stdio: 'ignore',
      timeout: 5_000,
    },
  );
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
