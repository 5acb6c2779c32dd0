// CPU time of a process or one of its threads, from /proc (Linux): CPU, not wall time, so it holds on a
// shared machine where a profile's samples (wall time) charge a preempted thread to the frame it stopped in.
import { readFileSync } from 'node:fs';

/** USER_HZ: /proc counts CPU time in clock ticks of 10 ms. */
const ticksPerSecond = 100;

/** User and system CPU seconds so far of process `pid` (all its threads), or of its thread `tid`. */
export function cpuTimes(pid, tid) {
  const stat = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8');
  // The command name, in parentheses, may hold spaces: the fields are counted from its closing one.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(fields[11]) / ticksPerSecond, system: Number(fields[12]) / ticksPerSecond };
}

/** User plus system CPU seconds so far of process `pid`, or of its thread `tid`. */
export function cpuSeconds(pid, tid) {
  const { user, system } = cpuTimes(pid, tid);
  return user + system;
}
