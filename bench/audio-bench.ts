/**
 * Audio engine bench (`npx tsx bench/audio-bench.ts`), measured side by side in one run:
 * 1. Opus encoders × complexity: CPU per second of audio and signal-to-noise ratio of what comes back
 *    out of a decoder, for @evan/opus (native and its WASM build) and opus-encdec (WASM libopus, the
 *    daemon's encoder before), on the same music-like PCM at the daemon's bitrate. The default is marked.
 * 2. The workers engine on the shared clock: players are added step by step while the earlier ones
 *    keep playing; each step's window gives the frames sent late (> 10 ms) and missed, CPU per
 *    player-second on the main thread, on the worker threads and in ffmpeg, and resident memory per
 *    player (node's RSS growth plus each ffmpeg's PSS). A step passes under 0.1 % late and 0.1 % missed
 *    frames; the most players passing is the capacity. The previous design, the inline engine
 *    (everything on the main thread between ticks), was measured beside it here up to commit 861fc43,
 *    the last with daemon/audio/inline-engine.ts: check that commit out to compare again.
 * 3. Where a streaming player's CPU goes: ffmpeg's start-up and its steady decoding, and on the node
 *    side reading ffmpeg's PCM, gain and encoding, each measured on its own; the rest (clock, hand-over
 *    between threads, packet building, sink) is what part 2's measured node total leaves.
 */

import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { AudioPlayer as AudioPlayerClass } from '../daemon/audio/audio-player';
import type { OpusBuild } from '../daemon/audio/encode/encoder';
import type { VoiceSink } from '../daemon/audio/voice-sink';
import { configureLogging } from '../shared/logger';
import { ok } from '../shared/result';
import { groupCpu, groupMemory, parseProcStat, ticksToMs } from './runtime/proc-stats';

// Stall warnings from the clock would interleave with the tables; the counters below report them.
configureLogging({ level: 'error', pretty: false });
const { AudioPlayer } = await import('../daemon/audio/audio-player');
const { audioWorkerPool } = await import('../daemon/audio/engine/audio-worker-pool');
const { Decoder } = await import('../daemon/audio/decode/decoder');
const { DEFAULT_OPUS_COMPLEXITY, OPUS_MUSIC_BITRATE_BPS, OpusEncoder, opusBuild } = await import(
  '../daemon/audio/encode/encoder'
);
const { frameScheduler } = await import('../daemon/audio/clock/frame-scheduler');
const { LATE_FRAME_THRESHOLD_MS } = await import('../daemon/audio/clock/frame-health');
const { Gain } = await import('../daemon/audio/encode/gain');
const { OpusDecoder } = await import('../daemon/audio/encode/opus-decoder');
const { OPUS, opusEncoderModule } = await import('../daemon/audio/encode/opus-wasm');
const { FRAME_BYTES, FRAME_SECONDS, SAMPLES_PER_CHANNEL_PER_FRAME, SAMPLES_PER_FRAME } = await import(
  '../daemon/audio/pcm-format'
);
const { FFMPEG, makeTempDir, OPUS_DELAY_SAMPLES } = await import('../testkit/audio-signals');

const ENCODE_SECONDS = 10;
const COMPLEXITIES = [10, 8, 5] as const;
const STARTUP_RUNS = 10;
const DECODE_SECONDS = 30;
const ENGINE_BUDGET_MS = 55_000;
const RAMP_TRACK_SECONDS = 150;
const RAMP_STEPS = [16, 32, 48, 64, 96, 128];
const SETTLE_SECONDS = 1.5;
const WINDOW_SECONDS = 5;
const LIMIT_PERCENT = 0.1;

const benchStartMs = performance.now();
const dir = makeTempDir('audio-bench-');

/** Music-like signal: a chord with vibrato over a little white noise, so Opus has real work to do. */
const MUSIC =
  '0.2*sin(2*PI*220*t+3*sin(2*PI*5*t))+0.15*sin(2*PI*277*t)+0.15*sin(2*PI*330*t)+0.05*(random(0)-0.5)' +
  '|0.2*sin(2*PI*221*t+3*sin(2*PI*4*t))+0.15*sin(2*PI*440*t)+0.05*(random(1)-0.5)';

function render(path: string, seconds: number, outputArgs: string[]): void {
  const source = `aevalsrc='${MUSIC}':s=48000:d=${seconds}`;
  const run = spawnSync(FFMPEG, [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    source,
    ...outputArgs,
    path,
  ]);
  if (run.status !== 0) throw new Error(`ffmpeg could not render ${path}: ${run.stderr.toString()}`);
}

const renderMp3 = (path: string, seconds: number) =>
  render(path, seconds, ['-c:a', 'libmp3lame', '-b:a', '320k']);

/** CPU seconds of this process's exited children (/proc/self/stat cutime + cstime). */
const reapedChildrenCpuMs = () =>
  ticksToMs(parseProcStat(readFileSync('/proc/self/stat', 'utf8')).reapedChildrenCpuTicks);
/** CPU of the main thread alone (its task's utime + stime). */
const mainThreadCpuMs = () =>
  ticksToMs(parseProcStat(readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8')).cpuTicks);
const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;

const fmt = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '–');
const row = (cells: (string | number)[], widths: number[]) =>
  console.log(cells.map((cell, i) => String(cell).padStart(widths[i] ?? 10)).join('  '));

// ---- 1. encoders ----

type Encode = (pcm: Int16Array) => Uint8Array;

interface EncoderUnderTest {
  name: string;
  create(complexity: number): { encode: Encode; free(): void };
}

/** opus-encdec's WASM libopus, called the way the daemon's encoder did before. */
const opusEncdec: EncoderUnderTest = {
  name: 'opus-encdec (WASM)',
  create(complexity) {
    const wasm = opusEncoderModule();
    const errorPointer = wasm._malloc(4);
    const state = wasm._opus_encoder_create(48_000, 2, OPUS.APPLICATION_AUDIO, errorPointer);
    wasm._free(errorPointer);
    const control = (request: number, value: number) => {
      const pointer = wasm._malloc(4);
      wasm.HEAP32[pointer >> 2] = value;
      wasm._opus_encoder_ctl(state, request, pointer);
      wasm._free(pointer);
    };
    control(OPUS.SET_BITRATE_REQUEST, OPUS_MUSIC_BITRATE_BPS);
    control(OPUS.SET_SIGNAL_REQUEST, OPUS.SIGNAL_MUSIC);
    control(OPUS.SET_COMPLEXITY_REQUEST, complexity);
    const input = wasm._malloc(SAMPLES_PER_FRAME * 4);
    const output = wasm._malloc(4000);
    return {
      encode: (pcm) => {
        const floats = wasm.HEAPF32.subarray(input >> 2, (input >> 2) + SAMPLES_PER_FRAME);
        for (let i = 0; i < SAMPLES_PER_FRAME; i++) floats[i] = (pcm[i] ?? 0) / 32768;
        const bytes = wasm._opus_encode_float(state, input, SAMPLES_PER_CHANNEL_PER_FRAME, output, 4000);
        return wasm.HEAPU8.slice(output, output + bytes);
      },
      free: () => {
        wasm._opus_encoder_destroy(state);
        wasm._free(input);
        wasm._free(output);
      },
    };
  },
};

/** The daemon's encoder with one of its builds (encoder.ts), if that build loads here. */
function daemonEncoderOf(build: OpusBuild): EncoderUnderTest | undefined {
  if (opusBuild(build) !== build) return undefined;
  return {
    name: { system: 'system libopus addon', native: '@evan/opus (native)', wasm: '@evan/opus (wasm)' }[build],
    create(complexity) {
      const encoder = new OpusEncoder({ build, complexity });
      return { encode: (pcm) => encoder.encode(pcm), free: () => encoder.destroy() };
    },
  };
}

/** What the daemon encodes with here: the first build that loads. */
const daemonEncoder = daemonEncoderOf(opusBuild()) as EncoderUnderTest;
const otherBuilds = (['native', 'wasm'] as const)
  .filter((build) => build !== opusBuild())
  .flatMap((build) => daemonEncoderOf(build) ?? []);

interface EncoderFigures {
  name: string;
  complexity: number;
  msPerAudioSecond: number;
  snrDb: number;
  averageBytes: number;
}

function pcmFrames(path: string): Int16Array[] {
  const pcm = readFileSync(path);
  const frames: Int16Array[] = [];
  for (let offset = 0; offset + FRAME_BYTES <= pcm.length; offset += FRAME_BYTES)
    frames.push(
      new Int16Array(pcm.buffer.slice(pcm.byteOffset + offset, pcm.byteOffset + offset + FRAME_BYTES)),
    );
  return frames;
}

/** Source against decoded output (shifted by the codec's delay), both channels, the first 100 ms left out. */
function snrDb(source: Int16Array[], packets: Uint8Array[]): number {
  const decoder = new OpusDecoder();
  const decoded = packets.map((packet) => {
    const result = decoder.decode(packet);
    if (!result.ok) throw new Error(result.error);
    return result.value;
  });
  decoder.destroy();
  const flat = (frames: Int16Array[]) => {
    const all = new Int16Array(frames.length * SAMPLES_PER_FRAME);
    for (const [i, frame] of frames.entries()) all.set(frame, i * SAMPLES_PER_FRAME);
    return all;
  };
  const input = flat(source);
  const output = flat(decoded);
  const shift = OPUS_DELAY_SAMPLES * 2;
  let signal = 0;
  let noise = 0;
  for (let i = 9600; i + shift < output.length; i++) {
    const s = input[i] ?? 0;
    const e = s - (output[i + shift] ?? 0);
    signal += s * s;
    noise += e * e;
  }
  return 10 * Math.log10(signal / Math.max(1, noise));
}

function encoderBench(frames: Int16Array[]): EncoderFigures[] {
  const figures: EncoderFigures[] = [];
  for (const candidate of [daemonEncoder, ...otherBuilds, opusEncdec]) {
    for (const complexity of COMPLEXITIES) {
      const encoder = candidate.create(complexity);
      // V8 first runs WASM through its baseline compiler; the second pass measures what a long-running
      // daemon runs. Each pass encodes with fresh state, so both see the same work.
      const warm = candidate.create(complexity);
      for (const frame of frames) warm.encode(frame);
      warm.free();
      const before = process.cpuUsage();
      const packets = frames.map((frame) => encoder.encode(frame));
      const spentMs = cpuMs(process.cpuUsage(before));
      encoder.free();
      figures.push({
        name: candidate.name,
        complexity,
        msPerAudioSecond: spentMs / (frames.length * FRAME_SECONDS),
        snrDb: snrDb(frames, packets),
        averageBytes: packets.reduce((sum, p) => sum + p.length, 0) / packets.length,
      });
    }
  }
  return figures;
}

// ---- 2. where the CPU goes ----

interface CpuParts {
  ffmpegStartupMs: number;
  ffmpegDecodeMsPerSecond: number;
  pcmReadMsPerSecond: number;
  gainMsPerSecond: number;
}

function ffmpegChildCpuMs(args: string[]): number {
  const before = reapedChildrenCpuMs();
  const run = spawnSync(FFMPEG, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  if (run.status !== 0) throw new Error(`ffmpeg failed: ${run.stderr.toString()}`);
  return reapedChildrenCpuMs() - before;
}

async function cpuParts(mp3Path: string, frames: Int16Array[]): Promise<CpuParts> {
  const decodeArgs = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    '-i',
    mp3Path,
    '-f',
    's16le',
    '-ar',
    '48000',
    '-ac',
    '2',
  ];
  let startupMs = 0;
  for (let run = 0; run < STARTUP_RUNS; run++)
    startupMs += ffmpegChildCpuMs([...decodeArgs.slice(0, 4), '-t', '0.02', ...decodeArgs.slice(4), '-']);
  startupMs /= STARTUP_RUNS;
  const fullMs = ffmpegChildCpuMs([...decodeArgs, '-']);

  // Node's side of decoding: the pipe's reads, the PCM buffer and cutting it into frames.
  const before = process.cpuUsage();
  const decoder = new Decoder({ ffmpegPath: FFMPEG, input: { kind: 'file', path: mp3Path } });
  const frame = new Int16Array(SAMPLES_PER_FRAME);
  decoder.on('data', () => {
    while (decoder.pcm.readFrame(frame));
  });
  await once(decoder, 'exit');
  while (decoder.pcm.readFrame(frame));
  const pcmReadMs = cpuMs(process.cpuUsage(before));

  const gain = new Gain({ volumePercent: 80 });
  const scratch = new Int16Array(SAMPLES_PER_FRAME);
  // Warm-up, so the JIT has compiled the loop before it is timed.
  for (let i = 0; i < frames.length; i++) gain.apply(scratch.fill(1000));
  const gainBefore = process.cpuUsage();
  for (const f of frames) {
    scratch.set(f);
    gain.apply(scratch);
  }
  const gainMs = cpuMs(process.cpuUsage(gainBefore));

  return {
    ffmpegStartupMs: startupMs,
    ffmpegDecodeMsPerSecond: (fullMs - startupMs) / DECODE_SECONDS,
    pcmReadMsPerSecond: pcmReadMs / DECODE_SECONDS,
    gainMsPerSecond: gainMs / (frames.length * FRAME_SECONDS),
  };
}

// ---- 3. engines side by side ----

class CountingSink implements VoiceSink {
  sendVoice(): void {}
  endVoice(): void {}
}

interface FrameTotals {
  sent: number;
  late: number;
  missed: number;
}

interface Window extends FrameTotals {
  players: number;
  mainMs: number;
  /** All threads of this process but the main one: the audio workers (and V8's helpers). */
  otherThreadsMs: number;
  ffmpegMs: number;
  droppedTicks: number;
  /** Node's resident memory growth since the engine's run started, per player. */
  nodeMbPerPlayer: number;
  ffmpegMbPerPlayer: number;
}

const totalsOf = (players: AudioPlayerClass[]): FrameTotals =>
  players.reduce(
    (sum, player) => {
      const { total } = player.frameHealth;
      return { sent: sum.sent + total.sent, late: sum.late + total.late, missed: sum.missed + total.missed };
    },
    { sent: 0, late: 0, missed: 0 },
  );

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function measureWindow(players: AudioPlayerClass[], baselineRssKb: number): Promise<Window> {
  const before = totalsOf(players);
  const dropped = frameScheduler.stats().droppedTicks;
  const cpu = groupCpu(process.pid);
  const main = mainThreadCpuMs();
  await sleep(WINDOW_SECONDS * 1000);
  const after = totalsOf(players);
  const cpuAfter = groupCpu(process.pid);
  const mainAfter = mainThreadCpuMs();
  const memory = groupMemory(process.pid);
  const n = players.length;
  return {
    players: n,
    sent: after.sent - before.sent,
    late: after.late - before.late,
    missed: after.missed - before.missed,
    mainMs: mainAfter - main,
    otherThreadsMs: cpuAfter.ownMs - cpu.ownMs - (mainAfter - main),
    ffmpegMs: cpuAfter.childrenMs - cpu.childrenMs,
    droppedTicks: frameScheduler.stats().droppedTicks - dropped,
    nodeMbPerPlayer: (memory.own.rssKb - baselineRssKb) / 1024 / n,
    ffmpegMbPerPlayer: memory.decoders.pssKb / 1024 / Math.max(1, memory.decoderCount),
  };
}

const latePercent = (w: FrameTotals) => (w.late / Math.max(1, w.sent)) * 100;
const missedPercent = (w: FrameTotals) => (w.missed / Math.max(1, w.sent + w.missed)) * 100;
const perPlayerSecond = (ms: number, w: Window) => ms / (w.players * WINDOW_SECONDS);

/**
 * Adds players step by step while the earlier ones keep playing and judges each step on a window. A
 * shared machine stalls now and then on its own, so a step fails only when a second window fails too.
 */
async function rampEngine(path: string, limitPercent: number, print: (w: Window, verdict: string) => void) {
  const deadline = performance.now() + ENGINE_BUDGET_MS;
  const baselineRssKb = groupMemory(process.pid).own.rssKb;
  const players: AudioPlayerClass[] = [];
  const passed: Window[] = [];
  const windows: Window[] = [];
  let stopReason = 'time budget reached';
  const judge = (w: Window) => {
    const pass = latePercent(w) < limitPercent && missedPercent(w) < LIMIT_PERCENT;
    windows.push(w);
    print(w, pass ? 'pass' : 'FAIL');
    return pass;
  };
  try {
    for (const count of RAMP_STEPS) {
      if (performance.now() + (SETTLE_SECONDS + 2 * WINDOW_SECONDS) * 1000 > deadline) break;
      const added: Promise<unknown>[] = [];
      while (players.length < count) {
        const player = new AudioPlayer({
          sink: new CountingSink(),
          volumePercent: 80,
          locateFfmpeg: () => ok(FFMPEG),
        });
        added.push(once(player, 'trackStart'));
        player.play({ input: { kind: 'file', path }, durationSeconds: RAMP_TRACK_SECONDS });
        players.push(player);
      }
      // Every new track has started (the workers are up, ffmpeg has loaded) before the clock is judged.
      await Promise.all(added);
      await sleep(SETTLE_SECONDS * 1000);
      let window = await measureWindow(players, baselineRssKb);
      if (!judge(window)) {
        window = await measureWindow(players, baselineRssKb);
        if (!judge(window)) {
          stopReason = `failed at ${count}`;
          break;
        }
      }
      passed.push(window);
    }
  } finally {
    for (const player of players) player.destroy();
  }
  return { best: passed.at(-1), stopReason, windows };
}

/** The machine's own noise floor: the shared clock driving one player that does nothing. */
async function clockOnlyLatePercent(): Promise<number> {
  const counts = { sent: 0, late: 0 };
  const idle = {
    dispatch: ({ latenessMs }: { latenessMs: number }) => {
      counts.sent++;
      if (latenessMs > LATE_FRAME_THRESHOLD_MS) counts.late++;
    },
    prepare: () => {},
  };
  frameScheduler.add(idle);
  await sleep(WINDOW_SECONDS * 1000);
  frameScheduler.remove(idle);
  return (counts.late / Math.max(1, counts.sent)) * 100;
}

// ---- the run ----

try {
  console.log(
    `audio bench: ${availableParallelism()} cores, Opus ${OPUS_MUSIC_BITRATE_BPS / 1000} kbps, 20 ms frames, ` +
      `encoder build here: ${opusBuild()}\n`,
  );

  const pcmPath = dir.file('music.pcm');
  render(pcmPath, ENCODE_SECONDS, ['-f', 's16le', '-ac', '2']);
  const frames = pcmFrames(pcmPath);
  const encoders = encoderBench(frames);
  console.log(
    `1. Opus encoders, ${ENCODE_SECONDS} s of 48 kHz stereo music-like PCM (CPU time; SNR after decoding)`,
  );
  const encodeWidths = [22, 10, 16, 8, 12, 10];
  row(['encoder', 'complexity', 'ms CPU / audio s', 'SNR dB', 'bytes/frame', ''], encodeWidths);
  for (const e of encoders) {
    const isDefault = e.name === daemonEncoder.name && e.complexity === DEFAULT_OPUS_COMPLEXITY;
    row(
      [
        e.name,
        e.complexity,
        fmt(e.msPerAudioSecond, 2),
        fmt(e.snrDb, 2),
        fmt(e.averageBytes, 0),
        isDefault ? '← default' : '',
      ],
      encodeWidths,
    );
  }
  const figure = (name: string, complexity: number) =>
    encoders.find((e) => e.name === name && e.complexity === complexity) ?? encoders[0];
  const chosen = figure(daemonEncoder.name, DEFAULT_OPUS_COMPLEXITY);
  const atTen = figure(daemonEncoder.name, 10);
  const before = figure(opusEncdec.name, 10);
  if (chosen && atTen && before) {
    console.log(
      `   default ${daemonEncoder.name} at complexity ${DEFAULT_OPUS_COMPLEXITY}: ${fmt((chosen.msPerAudioSecond / before.msPerAudioSecond) * 100, 0)} % ` +
        `of the CPU of the previous encoder (opus-encdec at 10), ${fmt((chosen.msPerAudioSecond / atTen.msPerAudioSecond) * 100, 0)} % of its own at 10;`,
    );
    console.log(
      `   SNR ${fmt(chosen.snrDb - atTen.snrDb, 2)} dB against complexity 10. At 96 kbps music is CELT-only: complexity 8-10 cost the same;`,
    );
    console.log(
      '   below 7 the tonality analysis (VBR steering, bandwidth choice) and below 8 the second MDCT on transients are off,',
    );
    console.log(
      '   while 5 keeps the pitch pre-filter and transient detection that matter most for music.\n',
    );
  }

  const mp3Path = dir.file('decode.mp3');
  renderMp3(mp3Path, DECODE_SECONDS);
  const parts = await cpuParts(mp3Path, frames);
  const encodeMs = chosen?.msPerAudioSecond ?? Number.NaN;

  const rampPath = dir.file('ramp.mp3');
  renderMp3(rampPath, RAMP_TRACK_SECONDS);
  const floor = await clockOnlyLatePercent();
  const limitPercent = LIMIT_PERCENT + floor;
  const engineWidths = [8, 9, 8, 8, 10, 10, 10, 9, 9, 7];
  console.log(
    `2. The workers engine: players added while the others play (${SETTLE_SECONDS} s to settle, ${WINDOW_SECONDS} s measured;` +
      ` pass = under ${fmt(limitPercent, 3)} % late > ${LATE_FRAME_THRESHOLD_MS} ms and ${LIMIT_PERCENT} % missed)`,
  );
  console.log(`   clock alone on this machine: ${fmt(floor, 3)} % late`);
  row(
    [
      'players',
      'frames',
      'late %',
      'missed %',
      'main ms/s',
      'thread ms/s',
      'ffmpeg ms/s',
      'node MB',
      'ffmpeg MB',
      'result',
    ],
    engineWidths,
  );
  const run = await rampEngine(rampPath, limitPercent, (w, verdict) =>
    row(
      [
        w.players,
        w.sent,
        fmt(latePercent(w), 3),
        fmt(missedPercent(w), 3),
        fmt(perPlayerSecond(w.mainMs, w), 2),
        fmt(perPlayerSecond(w.otherThreadsMs, w), 2),
        fmt(perPlayerSecond(w.ffmpegMs, w), 2),
        fmt(w.nodeMbPerPlayer, 2),
        fmt(w.ffmpegMbPerPlayer, 1),
        verdict,
      ],
      engineWidths,
    ),
  );
  console.log(`   → workers: ${run.best?.players ?? 0} players within the limits (${run.stopReason})`);
  console.log('   ms/s = CPU ms per player per second of audio; "thread" = worker threads (and V8 helpers);');
  console.log(
    "   MB = resident memory per player: node's RSS growth, and each ffmpeg's PSS (shared libraries split).",
  );
  console.log(
    '   The inline engine (the previous design) was measured beside it up to commit 861fc43 (git checkout 861fc43).\n',
  );

  // Last, because its "rest" is what the engine's measured node total leaves.
  const firstWindow = run.windows.at(0);
  const nodeTotal = firstWindow
    ? perPlayerSecond(firstWindow.mainMs + firstWindow.otherThreadsMs, firstWindow)
    : Number.NaN;
  const partsWidths = [52, 14];
  console.log(
    `3. Where a streaming player's CPU goes (ms CPU per second of audio; ${DECODE_SECONDS} s 320 kbps MP3)`,
  );
  row(['part', 'ms CPU / s'], partsWidths);
  row(
    [
      `ffmpeg start-up: ${fmt(parts.ffmpegStartupMs, 0)} ms per process, over a 4 s track`,
      fmt(parts.ffmpegStartupMs / 4, 2),
    ],
    partsWidths,
  );
  row(['ffmpeg start-up, over a 4 min song', fmt(parts.ffmpegStartupMs / 240, 2)], partsWidths);
  row(['ffmpeg steady decoding', fmt(parts.ffmpegDecodeMsPerSecond, 2)], partsWidths);
  row(["node: reading ffmpeg's PCM (pipe, buffer, frames)", fmt(parts.pcmReadMsPerSecond, 2)], partsWidths);
  row(['node: gain', fmt(parts.gainMsPerSecond, 2)], partsWidths);
  row(
    [`node: Opus encoding (${daemonEncoder.name}, complexity ${DEFAULT_OPUS_COMPLEXITY})`, fmt(encodeMs, 2)],
    partsWidths,
  );
  const rest = nodeTotal - parts.pcmReadMsPerSecond - parts.gainMsPerSecond - encodeMs;
  row(['node: the rest (clock, hand-over, packets, sink)', fmt(rest, 2)], partsWidths);
  console.log("   ffmpeg's start-up is the loading of its ~200 shared libraries; with short tracks (the old");
  console.log(
    '   bench played 4 s ones) it outweighs decoding many times over, with real songs it is noise.',
  );
  console.log(`\nbench time: ${fmt((performance.now() - benchStartMs) / 1000)} s`);
} finally {
  await audioWorkerPool().close();
  dir.remove();
}
