/**
 * The process launcher with real processes: a child's stdin and stdout are one connection to this
 * thread, its stderr and exit come back as events, and the child is the launcher's (this process is
 * never forked for it), at nice 10; kills, start failures and a dead launcher all end in `close`.
 */
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { type LaunchedProcess, launchProcess } from './process-launcher';

/** `/proc/<pid>/stat` fields after the command name: state is [0], the parent [1], nice [16]. */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

function isAlive(pid: number): boolean {
  try {
    return statFields(pid)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Not `events.once`, which rejects at an 'error' event. */
const closed = (child: LaunchedProcess) =>
  new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once('close', (code, signal) => resolve([code, signal])),
  );

async function spawned(child: LaunchedProcess): Promise<number> {
  await once(child, 'spawn');
  return child.pid ?? -1;
}

describe('launchProcess', () => {
  it('runs a child whose stdin and stdout are one connection to this thread', async () => {
    const child = launchProcess('tr', ['a-z', 'A-Z']);
    const ended = closed(child);
    await spawned(child);
    const output: Buffer[] = [];
    child.io?.on('data', (chunk: Buffer) => output.push(chunk));
    child.io?.end('decoded audio');
    expect(await ended).toEqual([0, null]);
    expect(Buffer.concat(output).toString()).toBe('DECODED AUDIO');
  });

  it('starts the child from the launcher at nice 10, not by forking this process, the launcher at ours', async () => {
    const child = launchProcess('sleep', ['5']);
    const ended = closed(child);
    const pid = await spawned(child);
    const [, parent = '', , , , , , , , , , , , , , , nice] = statFields(pid);
    expect(Number(parent)).not.toBe(process.pid);
    expect(statFields(Number(parent))[1]).toBe(String(process.pid));
    expect(Number(nice)).toBe(10);
    // The launcher keeps this process's priority, so its starts are not put off under load.
    expect(statFields(Number(parent))[16]).toBe(statFields(process.pid)[16]);
    child.kill();
    expect(await ended).toEqual([null, 'SIGKILL']);
    expect(isAlive(pid)).toBe(false);
  });

  it('passes the child’s stderr on and says how it exited', async () => {
    const child = launchProcess('sh', ['-c', 'echo "Invalid data found" >&2; exit 3']);
    const stderr: Buffer[] = [];
    child.on('stderr', (chunk) => stderr.push(chunk));
    const ended = closed(child);
    await spawned(child);
    child.io?.resume();
    expect(await ended).toEqual([3, null]);
    expect(Buffer.concat(stderr).toString()).toBe('Invalid data found\n');
  });

  it('says a command that cannot start is missing, then closes', async () => {
    const child = launchProcess('/nonexistent/ffmpeg', ['-i', 'x']);
    const events: string[] = [];
    child.on('spawn', () => events.push('spawn'));
    child.on('error', (error) => events.push(`error ${error.code}`));
    await closed(child);
    expect(events).toEqual(['error ENOENT']);
    expect(child.exited).toBe(true);
  });

  it('kills a child asked to stop before it has started', async () => {
    const child = launchProcess('sleep', ['5']);
    child.kill();
    const [code, signal] = await closed(child);
    expect(code).toBeNull();
    expect(signal).toBe('SIGKILL');
    if (child.pid !== undefined) expect(isAlive(child.pid)).toBe(false);
  });

  it('stops the children of a launcher that dies, and starts a new launcher for the next one', async () => {
    const child = launchProcess('sleep', ['5']);
    const ended = closed(child);
    const pid = await spawned(child);
    child.io?.resume();
    const launcher = Number(statFields(pid)[1]);
    process.kill(launcher, 'SIGKILL');
    expect((await ended)[1]).toBe('SIGKILL');
    await vi.waitFor(() => expect(isAlive(pid)).toBe(false));

    const next = launchProcess('true', []);
    const nextEnded = closed(next);
    const nextPid = await spawned(next);
    next.io?.resume();
    expect(await nextEnded).toEqual([0, null]);
    expect(nextPid).not.toBe(pid);
  });
});
