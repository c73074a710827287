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

/** Every live (not zombie) process below `ancestorPid`, children of children included. */
function descendants(ancestorPid: number): ProcStat[] {
  const stats = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(readStat)
    .filter((stat): stat is ProcStat => stat !== undefined && stat.state !== 'Z');
  const below = new Map<number, ProcStat>();
  // Parents are usually listed before their children; repeat until no process joins.
  for (let grown = true; grown; ) {
    grown = false;
    for (const stat of stats)
      if ((stat.parentPid === ancestorPid || below.has(stat.parentPid)) && !below.has(stat.pid)) {
        below.set(stat.pid, stat);
        grown = true;
      }
  }
  return [...below.values()];
}

/**
 * The live processes below `ancestorPid` running `command` (as /proc names it, at most 15 chars):
 * decoders are the children of the thread's launcher process, not of the daemon itself.
 */
export function descendantsRunning(command: string, ancestorPid = process.pid): number[] {
  return descendants(ancestorPid)
    .filter((stat) => stat.command === command)
    .map((stat) => stat.pid);
}

/**
 * The command line (`/proc/<pid>/cmdline`, arguments joined by spaces) of every live process below
 * `ancestorPid`, children of children included: what any local user can read with `ps`.
 */
export function descendantCommandLines(ancestorPid = process.pid): string[] {
  return descendants(ancestorPid).flatMap(({ pid }) => {
    try {
      return [readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim()];
    } catch {
      return []; // gone while we looked
    }
  });
}
