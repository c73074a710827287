/**
 * Runs the vitest suites and closes with one plain summary line ("tests: N passed, N failed"),
 * which CI reads; the exit code is vitest's.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { readMeasurements, readTally, TALLY_COLUMNS, TALLY_PATH } from '../tests/hardening/tally';

const reportPath = 'node_modules/.vitest-report.json';
rmSync(reportPath, { force: true });
rmSync(TALLY_PATH, { force: true });
const run = spawnSync(
  'npx',
  [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${reportPath}`,
    ...process.argv.slice(2),
  ],
  { stdio: 'inherit' },
);

interface VitestJsonReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
}

try {
  const report = JSON.parse(readFileSync(reportPath, 'utf8')) as VitestJsonReport;
  const skipped = report.numPendingTests + report.numTodoTests;
  console.log(`tests: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped`);
} catch {
  console.log('tests: no report was written');
}
printHardeningTable();
process.exit(run.status ?? 1);

/** The hardening suites' one summary table (tests/hardening/tally.ts), when any of them ran. */
function printHardeningTable(): void {
  const sums = readTally();
  if (sums.size === 0) return;
  const total = Object.fromEntries(TALLY_COLUMNS.map((c) => [c, 0])) as Record<string, number>;
  const rows = [...sums].map(([suite, tally]) => {
    for (const c of TALLY_COLUMNS) total[c] = (total[c] ?? 0) + tally[c];
    return { suite, ...tally };
  });
  console.log(
    '\nhardening summary (serverErrors, crashes, dataChanged, secretsSeen and answerMismatches must be 0):',
  );
  console.table([...rows, { suite: 'total', ...total }]);
  for (const line of readMeasurements()) console.log(`  ${line}`);
}
