/**
 * Finds processes by what they run and who started them, from /proc (Linux): the fault suites kill a
 * component's child (the daemon's ffmpeg decoder) the way the OOM killer or an admin would, without a
 * handle on it.
 */
import { readdirSync, readFileSync } from 'node:fs';

interface ProcStat {
  pid: number;
  command: string;
  /** R, S, D… or Z for a zombie: dead, waiting to be reaped. */
  state: string;
  parentPid: number;
}

/** `/proc/<pid>/stat`: "pid (comm) state ppid …"; comm may hold spaces and parentheses. */
function readStat(pid: string): ProcStat | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const open = stat.indexOf('(');
    const close = stat.lastIndexOf(')');
    const [state = '', parentPid] = stat.slice(close + 2).split(' ');
    return { pid: Number(pid), command: stat.slice(open + 1, close), state, parentPid: Number(parentPid) };
  } catch {
    return undefined; // gone while we looked
  }
}

/** The live (not zombie) children of `parentPid` running `command` (as /proc names it, ≤ 15 chars). */
export function childrenRunning(command: string, parentPid = process.pid): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(readStat)
    .filter(
      (stat): stat is ProcStat =>
        stat?.parentPid === parentPid && stat.command === command && stat.state !== 'Z',
    )
    .map((stat) => stat.pid);
}
