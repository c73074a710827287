/**
 * Finds processes by what they run and who started them, from /proc (Linux): the fault suites kill a
 * component's child (the daemon's ffmpeg decoder) the way the OOM killer or an admin would, without a
 * handle on it; the secret checks read every child's command line as `ps` shows it to any local user.
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

/**
 * The command line (`/proc/<pid>/cmdline`, arguments joined by spaces) of every live process below
 * `ancestorPid`, children of children included: what any local user can read with `ps`.
 */
export function descendantCommandLines(ancestorPid = process.pid): string[] {
  const stats = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(readStat)
    .filter((stat): stat is ProcStat => stat !== undefined && stat.state !== 'Z');
  const below = new Set([ancestorPid]);
  // Parents are usually listed before their children; repeat until no process joins.
  for (let grown = true; grown; ) {
    grown = false;
    for (const stat of stats)
      if (below.has(stat.parentPid) && !below.has(stat.pid)) {
        below.add(stat.pid);
        grown = true;
      }
  }
  below.delete(ancestorPid);
  return [...below].flatMap((pid) => {
    try {
      return [readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim()];
    } catch {
      return []; // gone while we looked
    }
  });
}
