// The process launcher: a small Node process that starts a thread's children on its behalf
// (shared/exec/process-launcher.ts is the other end).
//
// Why it exists: starting a child forks the process that asks, and a fork copies that process's page
// tables while the asking thread waits. From a daemon of 400 MB a start holds the thread 45 ms or
// more: on an audio worker longer than its lookahead, so every bot on that worker lost a frame whenever
// one bot changed track; on the daemon's thread, the frame clock itself. From this process of a few
// tens of MB a start takes a few ms, and it holds up nobody's audio.
//
// The child's stdin and stdout are one unix-socket connection to the asking thread (it listens, this
// process connects and hands the connection to the child), so the audio never passes through here.
// Protocol, one JSON object per line:
//   stdin:  {op: 'spawn', id, command, args, socketPath, env, detached}  |  {op: 'kill', id}
//   stdout: {id, event: 'spawn', pid}  |  {id, event: 'error', code, message}  |  {id, event: 'stderr', text}
//           |  {id, event: 'exit', code, signal}        ('exit' is the last event of every id)
// The end of stdin (the asking thread is gone) kills every child still running and ends this process.
// argv[2] is the niceness each child gets as it starts. This process takes the normal priority (it
// starts at the asking thread's, which may be the frame clock's raised one or the api's lowered one):
// at nice 10 its forks waited behind everything else under load, and a seek's new audio with them.
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { setPriority } from 'node:os';
import { createInterface } from 'node:readline';
import { NORMAL_NICENESS, trySetThreadNiceness } from '../thread-niceness.mjs';

trySetThreadNiceness(NORMAL_NICENESS);

const childNiceness = Number(process.argv[2] ?? 0);

/** id → { child: ChildProcess | undefined, detached: boolean, killed: boolean } */
const launches = new Map();

function send(message) {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

function finish(id, code, signal) {
  if (!launches.delete(id)) return;
  send({ id, event: 'exit', code, signal });
}

function fail(id, error) {
  if (!launches.has(id)) return;
  send({ id, event: 'error', code: error.code, message: error.message });
  finish(id, null, null);
}

function start({ id, command, args, socketPath, env, detached }) {
  const launch = { child: undefined, detached, killed: false };
  launches.set(id, launch);
  const io = connect(socketPath);
  io.once('error', (error) => fail(id, error));
  io.once('connect', () => {
    if (launch.killed) {
      io.destroy();
      finish(id, null, 'SIGKILL');
      return;
    }
    const child = spawn(command, args, { stdio: [io, io, 'pipe'], env, detached });
    launch.child = child;
    // The child holds its own copy of the connection; ours would keep the asking end from seeing EOF.
    child.once('spawn', () => {
      io.destroy();
      // Raising a child's niceness is always allowed; it is gone already if this fails.
      try {
        setPriority(child.pid, childNiceness);
      } catch {}
      send({ id, event: 'spawn', pid: child.pid });
    });
    child.once('error', (error) => {
      io.destroy();
      fail(id, error);
    });
    child.stderr.on('data', (chunk) => send({ id, event: 'stderr', text: chunk.toString() }));
    child.once('close', (code, signal) => finish(id, code, signal));
  });
}

/** SIGKILL to the child, or to its whole process group when it leads one (what it started goes too). */
function end(launch) {
  const pid = launch.child?.pid;
  if (pid === undefined) return;
  try {
    process.kill(launch.detached ? -pid : pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function kill({ id }) {
  const launch = launches.get(id);
  if (!launch) return;
  launch.killed = true;
  end(launch);
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const request = JSON.parse(line);
  if (request.op === 'spawn') start(request);
  else if (request.op === 'kill') kill(request);
});
/** The asking thread is gone: nothing it started may outlive it. */
function endAll() {
  for (const launch of launches.values()) end(launch);
  process.exit(0);
}
process.stdin.on('end', endAll);
// A write to a thread that is already gone (EPIPE) means the same as the end of stdin.
process.stdout.on('error', endAll);
