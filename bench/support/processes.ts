import { readdirSync, readFileSync } from 'node:fs';
import { readCpuSeconds } from './server.ts';

/** The children of `parent` whose command name (/proc/{pid}/stat field 2) is `name`. */
export function childPids(parent: number, name: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (comm === name && ppid === parent) found.push(Number(entry));
    } catch {
      // The process ended while the list was read.
    }
  }
  return found;
}

/** User + system CPU seconds of each process still running. */
export function cpuSnapshot(pids: readonly number[]): Map<number, number> {
  const snapshot = new Map<number, number>();
  for (const pid of pids) {
    try {
      snapshot.set(pid, readCpuSeconds(pid));
    } catch {
      // Ended: its time is gone from /proc.
    }
  }
  return snapshot;
}

/** CPU seconds used between two snapshots (a process new in `after` counts whole, one gone from it not at all). */
export function cpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0;
  for (const [pid, seconds] of after) sum += seconds - (before.get(pid) ?? 0);
  return sum;
}
