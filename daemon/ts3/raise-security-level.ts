/**
 * Raises an identity to a security level (each level doubles the expected work: 8, the default, takes
 * 256 SHA-1 hashes on average, 30 takes hours), without holding up the thread that asks, which in the
 * daemon is the frame clock's.
 *
 * The search starts here, in slices of SLICE_COUNTERS (well under a millisecond each) with the event
 * loop free between them: a default level is found within the first few slices. A target still not
 * reached after INLINE_COUNTERS goes on in a worker thread. It was always a thread before: a thread
 * with its own TypeScript loader, which cost every new bot about half a second of CPU to start and,
 * started at the frame clock's raised priority, took a core from the audio workers meanwhile.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import type { Identity } from './identity';
import { findCounter } from './security-level';
import type { SecurityLevelJob } from './security-level-worker';

/** The default the client raises new identities to; common servers require 8. */
export const DEFAULT_SECURITY_LEVEL = 8;

const SLICE_COUNTERS = 256;
/** For level 8, a search still unfinished after 4096 counters has a chance of e⁻¹⁶. */
const INLINE_COUNTERS = 4096;

export async function raiseSecurityLevel(
  identity: Identity,
  target = DEFAULT_SECURITY_LEVEL,
): Promise<Identity> {
  if (identity.securityLevel >= target) return identity;
  let start = identity.counter + 1;
  for (let tried = 0; tried < INLINE_COUNTERS; tried += SLICE_COUNTERS) {
    const counter = findCounter(identity.omega, target, start, SLICE_COUNTERS);
    if (counter !== undefined) return identity.withCounter(counter);
    start += SLICE_COUNTERS;
    await nextTurn();
  }
  return identity.withCounter(await searchOnThread({ omega: identity.omega, target, start }));
}

const workerUrl = new URL('./security-level-worker.ts', import.meta.url).href;
const nicenessUrl = new URL('../../shared/thread-niceness.mjs', import.meta.url).href;
/**
 * Node 20 resolves a worker's entry file before `--import` hooks run, so a `.ts` entry fails even with
 * `execArgv: ['--import', 'tsx']`. A tiny eval'd bootstrap takes the normal priority (the thread starts
 * at its creator's, the clock's), registers tsx, then imports the entry.
 */
const bootstrap = `import(${JSON.stringify(nicenessUrl)})
  .then((niceness) => niceness.trySetThreadNiceness(niceness.NORMAL_NICENESS))
  .then(() => import('tsx/esm/api'))
  .then((tsx) => tsx.tsImport(${JSON.stringify(workerUrl)}, ${JSON.stringify(workerUrl)}));`;

function searchOnThread(job: SecurityLevelJob): Promise<number> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(bootstrap, { eval: true, workerData: job });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`security level worker exited with code ${code}`));
    });
  });
}
