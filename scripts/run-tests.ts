/**
 * Runs the vitest suites and closes with one plain summary line ("tests: N passed, N failed"),
 * which CI reads; the exit code is vitest's.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';

const reportPath = 'node_modules/.vitest-report.json';
rmSync(reportPath, { force: true });
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
process.exit(run.status ?? 1);
