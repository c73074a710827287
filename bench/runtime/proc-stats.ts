/**
 * CPU time and memory of a process and its children, read from Linux /proc by the bench's parent
 * process, so the measured process spends nothing on measuring itself:
 *   - CPU: utime + stime of the process (all its threads) and of each live child, plus cutime + cstime,
 *     where the kernel adds the CPU of children that have exited and been reaped;
 *   - waiting: how long the process's main thread was runnable but waited for a CPU (schedstat), which
 *     tells a late frame caused by a busy machine from one caused by the process itself;
 *   - memory: Rss and Pss from smaps_rollup. RSS counts every page a process maps, so libraries
 *     shared by a hundred ffmpeg processes are counted a hundred times; PSS divides each shared page
 *     among the processes that map it, so a sum of PSS is the memory the group really takes.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcStat {
  pid: number;
  /** The executable's name as the kernel keeps it (at most 15 characters). */
  comm: string;
  /** R running, S sleeping, Z exited but not yet reaped by its parent, … */
  state: string;
  ppid: number;
  /** utime + stime: CPU of this process and all its threads, in clock ticks. */
  cpuTicks: number;
  /** cutime + cstime: CPU of its exited and reaped children, in clock ticks. */
  reapedChildrenCpuTicks: number;
}

export interface Memory {
  rssKb: number;
  pssKb: number;
}

/** Parses /proc/<pid>/stat. The name is in parentheses and may itself hold spaces and parentheses. */
export function parseProcStat(text: string): ProcStat {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  // Fields after the name, numbered as in proc(5): state is field 3, so field n is at index n − 3.
  const fields = text
    .slice(close + 2)
    .trim()
    .split(' ');
  const field = (n: number) => Number(fields[n - 3]);
  return {
    pid: Number(text.slice(0, open).trim()),
    comm: text.slice(open + 1, close),
    state: fields[0] ?? '',
    ppid: field(4),
    cpuTicks: field(14) + field(15),
    reapedChildrenCpuTicks: field(16) + field(17),
  };
}

/** Parses /proc/<pid>/schedstat: time on a CPU, time runnable but waiting for one (ns), timeslices. */
export function parseSchedstat(text: string): { runningMs: number; waitingMs: number } {
  const [running, waiting] = text.trim().split(/\s+/).map(Number);
  return { runningMs: (running ?? 0) / 1e6, waitingMs: (waiting ?? 0) / 1e6 };
}

/** How long so far the process's main thread (where the frame clock runs) waited for a CPU. */
export function mainThreadWaitingMs(pid: number): number {
  try {
    return parseSchedstat(readFileSync(`/proc/${pid}/schedstat`, 'utf8')).waitingMs;
  } catch {
    return 0;
  }
}

/** Parses /proc/<pid>/smaps_rollup (sizes in kB). */
export function parseSmapsRollup(text: string): Memory {
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
  return { rssKb: kb('Rss'), pssKb: kb('Pss') };
}

export const CLOCK_TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

export const ticksToMs = (ticks: number) => (ticks * 1000) / CLOCK_TICKS_PER_SECOND;

/** Undefined when the process has exited (its /proc entry is gone). */
export function readProcStat(pid: number): ProcStat | undefined {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Every process below `pid`, children of children included: a thread's decoders are children of its
 * launcher process (daemon/audio/process-launcher.ts), not of the daemon.
 */
export function descendantsOf(pid: number): ProcStat[] {
  const byParent = new Map<number, ProcStat[]>();
  for (const entry of readdirSync('/proc')) {
    const stat = /^\d+$/.test(entry) ? readProcStat(Number(entry)) : undefined;
    if (stat) byParent.set(stat.ppid, [...(byParent.get(stat.ppid) ?? []), stat]);
  }
  const found: ProcStat[] = [];
  for (let next = byParent.get(pid) ?? []; next.length > 0; ) {
    found.push(...next);
    next = next.flatMap((child) => byParent.get(child.pid) ?? []);
  }
  return found;
}

/** Zero for a process that has exited meanwhile. */
export function readMemory(pid: number): Memory {
  try {
    return parseSmapsRollup(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
  } catch {
    return { rssKb: 0, pssKb: 0 };
  }
}

export interface GroupCpu {
  /** The process itself, all threads. */
  ownMs: number;
  /** Its descendants, live and reaped. */
  childrenMs: number;
}

/**
 * CPU so far of a process and of its descendants; subtract two readings for a window. A reaped
 * process's CPU is in its parent's reaped-children count, so each live descendant adds both.
 */
export function groupCpu(pid: number): GroupCpu {
  const own = readProcStat(pid);
  if (!own) throw new Error(`process ${pid} has exited`);
  const liveChildrenTicks = descendantsOf(pid).reduce(
    (sum, child) => sum + child.cpuTicks + child.reapedChildrenCpuTicks,
    0,
  );
  return {
    ownMs: ticksToMs(own.cpuTicks),
    childrenMs: ticksToMs(own.reapedChildrenCpuTicks + liveChildrenTicks),
  };
}

export interface GroupMemory {
  own: Memory;
  /** Descendants named as a track decoder is (ffmpeg, or the project's pcm-decoder). */
  decoders: Memory;
  decoderCount: number;
  /** Any other descendants (the decoder launchers; tsx's esbuild service, when TypeScript is compiled at run time). */
  others: Memory;
  otherNames: string[];
}

const sumMemory = (list: Memory[]): Memory => ({
  rssKb: list.reduce((sum, m) => sum + m.rssKb, 0),
  pssKb: list.reduce((sum, m) => sum + m.pssKb, 0),
});

/** What a bot's decoder process is called: native/pcm-decoder.c when built, else ffmpeg. */
const DECODER_NAMES = ['ffmpeg', 'pcm-decoder'];

/** Memory of a process and its live descendants (an exited one waiting to be reaped holds none). */
export function groupMemory(pid: number, decoderNames: readonly string[] = DECODER_NAMES): GroupMemory {
  const children = descendantsOf(pid).filter((child) => child.state !== 'Z');
  const decoders = children.filter((child) => decoderNames.includes(child.comm));
  const others = children.filter((child) => !decoderNames.includes(child.comm));
  return {
    own: readMemory(pid),
    decoders: sumMemory(decoders.map((child) => readMemory(child.pid))),
    decoderCount: decoders.length,
    others: sumMemory(others.map((child) => readMemory(child.pid))),
    otherNames: others.map((child) => child.comm),
  };
}
