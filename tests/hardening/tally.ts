/**
 * The hardening suites' shared tally (issue #16): each suite adds what it tried and what went wrong, and
 * `make test` ends with one table of the sums (scripts/run-tests.ts prints it). Every test file adds
 * its answers checked against the OpenAPI document as the row `openapi answers`. Vitest runs files in
 * separate processes, so every record is one appended JSON line in a file the test runner clears first.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';

export const TALLY_PATH = 'node_modules/.hardening-tally.jsonl';

export interface HardeningTally {
  /** HTTP requests and WebSocket attempts sent. */
  requests: number;
  /** Kinds of caller the suite used (none, guest, member, admin, API key...). */
  principals: number;
  /** Malformed or hostile inputs tried. */
  badInputs: number;
  /** Faults injected (a process killed, a server stopped, a disk filled...). */
  faults: number;
  /** Answers with a 5xx status where a 4xx (or success) was due. Must stay 0. */
  serverErrors: number;
  /** Processes that died unasked. Must stay 0. */
  crashes: number;
  /** Refused requests after which the database differed. Must stay 0. */
  dataChanged: number;
  /** Stored secrets found in a body, header or log line. Must stay 0. */
  secretsSeen: number;
  /** Answers of every suite checked against the OpenAPI document (testkit/checked-answers.ts). */
  answersValidated: number;
  /** Checked answers the document does not describe. Must stay 0. */
  answerMismatches: number;
}

export const TALLY_COLUMNS: readonly (keyof HardeningTally)[] = [
  'requests',
  'principals',
  'badInputs',
  'faults',
  'serverErrors',
  'crashes',
  'dataChanged',
  'secretsSeen',
  'answersValidated',
  'answerMismatches',
];

/** Adds one suite's figures (missing ones count 0). */
export function recordTally(suite: string, figures: Partial<HardeningTally>): void {
  appendFileSync(TALLY_PATH, `${JSON.stringify({ suite, ...figures })}\n`);
}

/** A figure a suite measured, printed as one line under the table (e.g. how long a hand-over took). */
export function recordMeasurement(suite: string, measured: string): void {
  appendFileSync(TALLY_PATH, `${JSON.stringify({ suite, measured })}\n`);
}

/** Every measured line, as `suite: text`, in the order they were recorded. */
export function readMeasurements(path = TALLY_PATH): string[] {
  return readRecords(path).flatMap((r) => (r.measured === undefined ? [] : [`${r.suite}: ${r.measured}`]));
}

type TallyRecord = Partial<HardeningTally> & { suite: string; measured?: string };

function readRecords(path: string): TallyRecord[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as TallyRecord);
}

/** Sums every record per suite, in the order suites first reported. */
export function readTally(path = TALLY_PATH): Map<string, HardeningTally> {
  const sums = new Map<string, HardeningTally>();
  for (const record of readRecords(path)) {
    if (record.measured !== undefined) continue;
    const sum = sums.get(record.suite) ?? emptyTally();
    for (const column of TALLY_COLUMNS) sum[column] += record[column] ?? 0;
    sums.set(record.suite, sum);
  }
  return sums;
}

function emptyTally(): HardeningTally {
  return Object.fromEntries(TALLY_COLUMNS.map((column) => [column, 0])) as unknown as HardeningTally;
}
