/**
 * Runs the vitest suites and closes with one plain summary line ("tests: N passed, N failed"),
 * which CI reads; it fails when either run of vitest fails.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { readMeasurements, readTally, TALLY_COLUMNS, TALLY_PATH } from '../tests/hardening/tally';

/**
 * Suites that measure what other work does to the audio clock (a flood of requests, a rolling
 * restart) compare against the machine's own noise; another suite running beside them is noise they
 * cannot tell apart, so they run afterwards, one at a time, with nothing else.
 */
const ALONE = ['tests/e2e/daemon-apart.test.ts', 'tests/deploy/rolling-upgrade.test.ts'];

rmSync(TALLY_PATH, { force: true });
const chosen = process.argv.slice(2);
const phases =
  chosen.length > 0
    ? [chosen]
    : [ALONE.map((file) => `--exclude=${file}`), ['--no-file-parallelism', ...ALONE]];
const totals = { passed: 0, failed: 0, skipped: 0, reports: 0 };
let status = 0;
for (const [index, args] of phases.entries()) {
  const reportPath = `node_modules/.vitest-report-${index}.json`;
  rmSync(reportPath, { force: true });
  const run = spawnSync(
    'npx',
    ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${reportPath}`, ...args],
    { stdio: 'inherit' },
  );
  if (run.status !== 0) status = run.status ?? 1;
  try {
    const report = JSON.parse(readFileSync(reportPath, 'utf8')) as VitestJsonReport;
    totals.passed += report.numPassedTests;
    totals.failed += report.numFailedTests;
    totals.skipped += report.numPendingTests + report.numTodoTests;
    totals.reports++;
  } catch {
    // counted below as a phase without a report
  }
}

interface VitestJsonReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
}

if (totals.reports === phases.length)
  console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
else console.log('tests: no report was written');
printHardeningTable();
process.exit(status);

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
