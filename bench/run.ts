/**
 * `make bench`: runs every `bench/*-bench.ts` in turn, one process each so one bench's garbage and JIT
 * state do not colour the next. Each prints its own figures, measured side by side within its run.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const only = process.argv[2];
const files = readdirSync('bench')
  .filter((f) => f.endsWith('-bench.ts'))
  .filter((f) => !only || f.includes(only))
  .sort();

let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file} ===`);
  const run = spawnSync('npx', ['tsx', `bench/${file}`], { stdio: 'inherit' });
  if (run.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
