/**
 * Bots at scale, measured honestly: the bots run in a process of their own (one Daemon, in-process
 * bus, libSQL file) and stream to the TS3 test server in another process, which counts packets and
 * their arrival times and decodes only a sample. The bot process and its ffmpeg children are measured
 * from outside through /proc. For each decoder the workers engine can run (see ENGINES), in the same run:
 *   - N = 10, 25, 50, 100, 150, 200 bots, each playing its own MP3: CPU per second of audio sent (node; ffmpeg),
 *     frames sent more than 10 ms late with p99 and max lateness, the packets and lateness the server
 *     saw, and memory per bot (RSS and PSS of the daemon plus its ffmpeg children, divided by N);
 *   - the largest N under 0.1 % late frames;
 *   - local-file start-to-first-packet and seek-to-audio latency (p50, p99).
 * The details of one engine's run are in bench/runtime/engine-run.ts.
 *
 * RUNTIME_BENCH_STEPS (e.g. `2,4`) and RUNTIME_BENCH_ENGINES (e.g. `workers+ffmpeg`) narrow a run while
 * developing; `make bench` runs everything.
 */
import { z } from 'zod';
import { BenchMedia } from './runtime/bench-media';
import { type EngineResult, runEngine } from './runtime/engine-run';
import { LOUDNESS_OFF_SUFFIX } from './runtime/protocol';
import { printReport } from './runtime/report';

/**
 * The worker-thread engine (decoding with native/pcm-decoder.c) and the same engine with Debian's
 * ffmpeg as decoder, in the same run, their bots with loudness normalization on (as a new bot has
 * it); and the first engine with it off, to weigh what normalization costs. The previous design, the inline engine, ran beside them up to
 * commit 861fc43 (the last with daemon/audio/inline-engine.ts).
 */
const ENGINES = ['workers', 'workers+ffmpeg', `workers ${LOUDNESS_OFF_SUFFIX}`];
const STEPS = [10, 25, 50, 100, 150, 200];
const BUDGET_MS = 900_000;
const WARMUP_MS = 2000;
const WARMUP_MS_PER_ADDED_BOT = 40;
const FIRST_WARMUP_MS = 4000;
const WINDOW_MS = 8000;
const LATENCY_REPETITIONS = 30;

const options = z
  .object({
    RUNTIME_BENCH_STEPS: z
      .string()
      .regex(/^\d+(,\d+)*$/, 'RUNTIME_BENCH_STEPS is a list of bot counts such as 2,4')
      .transform((text) => text.split(',').map(Number))
      .optional(),
    RUNTIME_BENCH_ENGINES: z
      .string()
      .transform((text) => text.split(','))
      .optional(),
  })
  .parse(process.env);

const startedAt = performance.now();
const engines = options.RUNTIME_BENCH_ENGINES ?? ENGINES;
const media = BenchMedia.render();
const results: EngineResult[] = [];
for (const [i, engine] of engines.entries()) {
  const remainingMs = BUDGET_MS - (performance.now() - startedAt);
  results.push(
    await runEngine(
      {
        engine,
        steps: options.RUNTIME_BENCH_STEPS ?? STEPS,
        warmupMs: WARMUP_MS,
        warmupMsPerAddedBot: WARMUP_MS_PER_ADDED_BOT,
        firstWarmupMs: FIRST_WARMUP_MS,
        windowMs: WINDOW_MS,
        latencyRepetitions: LATENCY_REPETITIONS,
        deadlineMs: performance.now() + remainingMs / (engines.length - i),
      },
      media,
    ),
  );
}
printReport(results, {
  windowMs: WINDOW_MS,
  warmupMs: WARMUP_MS,
  warmupMsPerAddedBot: WARMUP_MS_PER_ADDED_BOT,
  firstWarmupMs: FIRST_WARMUP_MS,
  totalMs: performance.now() - startedAt,
});
if (results.some((result) => result.failure)) process.exitCode = 1;
