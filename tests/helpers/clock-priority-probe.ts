/**
 * Run as a worker thread by tests/ops/clock-priority.test.ts, so the test runner's own thread keeps
 * its priority: asks for the real-time clock, then reports this thread's scheduling and that of a
 * thread it starts afterwards (as the daemon starts its audio workers).
 */
import { readFileSync } from 'node:fs';
import { parentPort, Worker } from 'node:worker_threads';
import { requestRealtimeClock } from '../../shared/thread-priority';

export interface ThreadScheduling {
  /** SCHED_OTHER 0, SCHED_FIFO 1, SCHED_RR 2 (field 41 of /proc/<tid>/stat). */
  policy: number;
  nice: number;
}

/** Fields after the command name, which sits in parentheses and may hold spaces. */
function schedulingOf(stat: string): ThreadScheduling {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { policy: Number(fields[38]), nice: Number(fields[16]) };
}

const CHILD_SOURCE = `
  const { readFileSync } = require('node:fs');
  require('node:worker_threads').parentPort.postMessage(readFileSync('/proc/thread-self/stat', 'utf8'));
`;

const realtime = await requestRealtimeClock();
const own = schedulingOf(readFileSync('/proc/thread-self/stat', 'utf8'));
const child = await new Promise<ThreadScheduling>((resolve, reject) => {
  const worker = new Worker(CHILD_SOURCE, { eval: true });
  worker.once('message', (stat: string) => resolve(schedulingOf(stat)));
  worker.once('error', reject);
});
parentPort?.postMessage({ realtime, own, child });
