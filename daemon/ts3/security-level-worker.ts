/** Worker-thread entry: searches hashcash counters so the event loop never runs the SHA-1 loop. */
import { parentPort, workerData } from 'node:worker_threads';
import { findCounter } from './security-level';

export interface SecurityLevelJob {
  omega: string;
  target: number;
  start: number;
}

const job = workerData as SecurityLevelJob;
parentPort?.postMessage(findCounter(job.omega, job.target, job.start, Number.MAX_SAFE_INTEGER - job.start));
