/**
 * What the runtime bench prints: one table of the steps of every engine, the goal lines per engine
 * (issue 23: at least 150 streaming bots under 0.1 % late frames, 200 aimed at, at most 10 MB PSS each
 * with its decoder),
 * the latency table, and a few lines on how to read them.
 */

import type { EngineResult, StepRow } from './engine-run';
import { LATE_THRESHOLD_MS } from './lateness';
import { p50p99 } from './percentiles';
import { SONG_SECONDS } from './track-churn';

const LATE_GOAL_PERCENT = 0.1;
const GOAL_BOTS = 150;
const GOAL_MB_PER_BOT = 10;
/** Below this many packets a second, a bot was starved (50 is real time). */
const STARVED_PACKETS_PER_SECOND = 45;

export interface ReportTiming {
  windowMs: number;
  warmupMs: number;
  warmupMsPerAddedBot: number;
  firstWarmupMs: number;
  totalMs: number;
}

const fixed = (value: number, digits = 1) => (Number.isNaN(value) ? '—' : value.toFixed(digits));
const percent = (value: number) => (Number.isNaN(value) ? '—' : `${value.toFixed(3)} %`);

export function printReport(results: EngineResult[], timing: ReportTiming): void {
  const rows = results.flatMap((result) => result.rows);
  console.log(
    `${timing.windowMs / 1000} s window per step after a warm-up of ${timing.warmupMs / 1000} s ` +
      `(${timing.firstWarmupMs / 1000} s for the first) + ${timing.warmupMsPerAddedBot} ms per bot added; ` +
      `${(timing.totalMs / 1000).toFixed(0)} s in all`,
  );
  printSteps(rows);
  for (const result of results) printGoals(result);
  printLatency(results);
  printNotes(rows);
}

function printSteps(rows: StepRow[]): void {
  if (rows.length === 0) {
    console.log('no step was measured');
    return;
  }
  console.table(
    rows.map((row) => ({
      engine: row.engine,
      N: row.bots,
      'node ms/audio-s': fixed(row.nodeCpuMsPerAudioSecond, 2),
      'ffmpeg ms/audio-s': fixed(row.decoderCpuMsPerAudioSecond, 2),
      [`late >${LATE_THRESHOLD_MS} ms`]: percent(row.frames.latePercent),
      'p99 ms': fixed(row.frames.p99Ms),
      'max ms': fixed(row.frames.maxMs),
      missed: row.missedFrames,
      'track changes': row.trackChanges,
      'server late': percent(row.arrivals.latePercent),
      'server p99 ms': fixed(row.arrivals.p99Ms),
      'packets/bot/s': fixed(row.packetsPerBotSecond),
      'MB/bot RSS': fixed(row.rssMbPerBot),
      'MB/bot PSS': fixed(row.pssMbPerBot),
      'CPU wait': `${fixed(row.waitingForCpuPercent)} %`,
    })),
  );
}

function printGoals(result: EngineResult): void {
  const { engine } = result;
  if (result.failure) console.log(`${engine}: the run ended early: ${result.failure}`);
  if (result.retriedStarts > 0)
    console.log(
      `${engine}: ${result.retriedStarts} bots missed the 15 s start deadline once (a busy machine)`,
    );
  else if (result.skipped.length > 0)
    console.log(`${engine}: not run for lack of time: N = ${result.skipped.join(', ')}`);
  console.log(
    `${engine}: largest N with every step under ${LATE_GOAL_PERCENT} % late or missed frames: ` +
      `${largestPassingN(result.rows) ?? 'none'} (goal: at least ${GOAL_BOTS})`,
  );
  const row = result.rows.find((r) => r.bots === GOAL_BOTS) ?? result.rows.at(-1);
  if (!row) return;
  console.log(
    `${engine}: at N = ${row.bots}, ${fixed(row.pssMbPerBot)} MB PSS per bot (goal: under ${GOAL_MB_PER_BOT} MB); ` +
      `node ${fixed(row.node.pssMb, 0)} MB PSS (${fixed(row.node.rssMb, 0)} MB RSS), ` +
      `${row.decoders} decoders of ${fixed(row.perDecoder.pssMb)} MB PSS each (${fixed(row.perDecoder.rssMb)} MB RSS)` +
      (row.others.names.length > 0
        ? `, ${row.others.names.join(', ')}: ${fixed(row.others.pssMb)} MB PSS (${fixed(row.others.rssMb)} MB RSS)`
        : ''),
  );
}

/** The largest N such that it and every smaller step stayed under the goal; a missed frame counts as late. */
export function largestPassingN(rows: StepRow[]): number | undefined {
  let passing: number | undefined;
  for (const row of rows) {
    const due = row.frames.frames + row.missedFrames;
    if (due === 0 || ((row.frames.late + row.missedFrames) / due) * 100 >= LATE_GOAL_PERCENT) break;
    passing = row.bots;
  }
  return passing;
}

function printLatency(results: EngineResult[]): void {
  const rows = results.flatMap(({ engine, latency }) => {
    if (!latency) return [];
    const start = p50p99(latency.startMs);
    const seek = p50p99(latency.seekMs);
    return {
      engine,
      'play → first packet p50 ms': fixed(start.p50),
      'p99 ms': fixed(start.p99),
      'seek → new audio p50 ms': fixed(seek.p50),
      // console.table needs distinct keys; the trailing space keeps the header reading "p99 ms".
      'p99 ms ': fixed(seek.p99),
      repetitions: latency.startMs.length,
      lost: latency.lost,
    };
  });
  if (rows.length > 0) console.table(rows);
}

function printNotes(rows: StepRow[]): void {
  const sum = (of: (row: StepRow) => number) => rows.reduce((total, row) => total + of(row), 0);
  const starved = rows
    .filter((row) => row.slowestBotPacketsPerSecond < STARVED_PACKETS_PER_SECOND)
    .map((row) => `${row.engine} N=${row.bots}`);
  const serverCpu = rows.map((row) => row.serverCpuMsPerAudioSecond.toFixed(2)).join(', ') || '—';
  console.log(
    [
      'CPU: the bot process alone (node, all threads) and its ffmpeg decoders, per second of audio sent (50 frames of one bot), so a starved step does not look cheap.',
      `Late: frames the daemon's clock sent more than ${LATE_THRESHOLD_MS} ms after their deadline (p99/max over all frames); missed: frames never sent.`,
      `Track changes: inside each window one bot after another restarts its decoder every ${SONG_SECONDS}/N s, as N bots playing songs of ${SONG_SECONDS / 60} minutes change track (a seek, so no track ends; track-churn.ts). MB/bot and CPU include the process launcher that starts the decoders.`,
      'CPU wait: share of the window the bot process’s main thread (the frame clock) was ready to run but waited for a CPU, taken by other processes or by its own worker threads; near 0 on a quiet machine with cores to spare.',
      'Server: lateness of packet arrivals against each stream’s own 20 ms grid, seen by the test server in its own process (it shares the 2 cores).',
      'MB/bot: (daemon + its ffmpeg children) / N. RSS counts ffmpeg’s shared libraries once per process; PSS splits shared pages among the processes that map them, so its sum is the memory really taken: the goal is read on PSS.',
      `Proof of audio: the server decoded one stream at a time for a second each: ${sum((r) => r.audibleStreams)} of ${sum((r) => r.sampledStreams)} audible, ` +
        `${sum((r) => r.decodeErrors)} decode errors; ${sum((r) => r.endPackets)} end-of-voice packets inside windows (0: no track ended); ` +
        (starved.length > 0
          ? `a bot got under ${STARVED_PACKETS_PER_SECOND} packets/s in: ${starved.join(', ')}.`
          : `every bot got at least ${STARVED_PACKETS_PER_SECOND} packets/s.`),
      `The counting server used ${serverCpu} ms CPU per audio second (per row), not counted above.`,
      'Figures from a shared machine are noisy: compare the engines within one run.',
    ].join('\n'),
  );
}
