/**
 * Raises an identity to a security level in a worker thread (each level doubles the expected work; 8 is
 * quick, 30 takes hours), so the event loop stays free.
 */
import { Worker } from 'node:worker_threads';
import type { Identity } from './identity';
import type { SecurityLevelJob } from './security-level-worker';

/** The default the client raises new identities to; common servers require 8. */
export const DEFAULT_SECURITY_LEVEL = 8;

const workerUrl = new URL('./security-level-worker.ts', import.meta.url).href;
/**
 * Node 20 resolves a worker's entry file before `--import` hooks run, so a `.ts` entry fails even with
 * `execArgv: ['--import', 'tsx']`. A tiny eval'd bootstrap registers tsx first, then imports the entry.
 */
const bootstrap = `import('tsx/esm/api').then((tsx) => tsx.tsImport(${JSON.stringify(workerUrl)}, ${JSON.stringify(workerUrl)}));`;

export function raiseSecurityLevel(identity: Identity, target = DEFAULT_SECURITY_LEVEL): Promise<Identity> {
  if (identity.securityLevel >= target) return Promise.resolve(identity);
  const job: SecurityLevelJob = { omega: identity.omega, target, start: identity.counter + 1 };
  return new Promise((resolve, reject) => {
    const worker = new Worker(bootstrap, { eval: true, workerData: job });
    worker.once('message', (counter: number) => resolve(identity.withCounter(counter)));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`security level worker exited with code ${code}`));
    });
  });
}
