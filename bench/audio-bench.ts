/**
 * Audio engine bench (`npx tsx bench/audio-bench.ts`), three figures measured in one run:
 * 1. Opus encode speed: opus-encdec (WASM libopus, what the daemon uses) against ffmpeg's native
 *    libopus on the same PCM at the same bitrate, as realtime factors and their ratio.
 * 2. CPU per streaming player: real players (ffmpeg decode → gain → Opus → counting sink) on the
 *    shared clock; node CPU plus the ffmpeg children's CPU, per second of audio played.
 * 3. Capacity: the most concurrent players with under 0.1 % of frames sent more than 10 ms late,
 *    adding players while the earlier ones play, until a step fails or the ~60 s budget runs out.
 */
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { AudioPlayer as AudioPlayerClass } from '../daemon/audio/audio-player';
import type { VoiceSink } from '../daemon/audio/voice-sink';

// Stall warnings from the clock would interleave with the table; the counters below report them.
process.env.LOG_LEVEL ??= 'error';
const { AudioPlayer } = await import('../daemon/audio/audio-player');
const { OpusEncoder, OPUS_MUSIC_BITRATE_BPS } = await import('../daemon/audio/encoder');
const { frameScheduler } = await import('../daemon/audio/frame-scheduler');
const { LATE_FRAME_THRESHOLD_MS } = await import('../daemon/audio/frame-health');
const { FRAME_BYTES, FRAME_SECONDS, SAMPLES_PER_FRAME } = await import('../daemon/audio/pcm-format');
const { FFMPEG, makeTempDir } = await import('../tests/helpers/audio-signals');

const BUDGET_MS = 60_000;
const ENCODE_SECONDS = 10;
const CPU_PLAYERS = 4;
const CPU_TRACK_SECONDS = 4;
const RAMP_TRACK_SECONDS = 50;
const RAMP_STEPS = [4, 8, 16, 24, 32, 48, 64, 96, 128];
const SETTLE_SECONDS = 1;
const WINDOW_SECONDS = 5;
const LATE_LIMIT_PERCENT = 0.1;

const benchStartMs = performance.now();
const remainingMs = () => BUDGET_MS - (performance.now() - benchStartMs);
const dir = makeTempDir('audio-bench-');

/** Music-like signal: a chord with vibrato over a little white noise, so Opus has real work to do. */
const MUSIC =
  '0.2*sin(2*PI*220*t+3*sin(2*PI*5*t))+0.15*sin(2*PI*277*t)+0.15*sin(2*PI*330*t)+0.05*(random(0)-0.5)' +
  '|0.2*sin(2*PI*221*t+3*sin(2*PI*4*t))+0.15*sin(2*PI*440*t)+0.05*(random(1)-0.5)';

function ffmpeg(args: string[]): string {
  const run = spawnSync(FFMPEG, ['-hide_banner', '-nostats', '-y', ...args]);
  if (run.status !== 0) throw new Error(`ffmpeg ${args.join(' ')} failed: ${run.stderr.toString()}`);
  return run.stderr.toString();
}

function render(path: string, seconds: number, outputArgs: string[]): void {
  ffmpeg([
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    `aevalsrc='${MUSIC}':s=48000:d=${seconds}`,
    ...outputArgs,
    path,
  ]);
}

const renderMp3 = (path: string, seconds: number) =>
  render(path, seconds, ['-c:a', 'libmp3lame', '-b:a', '320k']);

/** CPU seconds of this process's exited children (Linux /proc: cutime + cstime, at USER_HZ = 100). */
function childCpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  // Split after the command name, so index 0 is field 3; cutime and cstime are fields 16 and 17.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

const cpuSeconds = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1e6;

class CountingSink implements VoiceSink {
  frames = 0;
  sendVoice(): void {
    this.frames++;
  }
  endVoice(): void {}
}

interface EncodeFigures {
  wasmRealtime: number;
  nativeRealtime: number;
}

function encodeBench(): EncodeFigures {
  const pcmPath = dir.file('music.pcm');
  render(pcmPath, ENCODE_SECONDS, ['-f', 's16le', '-ac', '2']);
  const pcm = readFileSync(pcmPath);
  const encoder = new OpusEncoder();
  const frame = new Int16Array(SAMPLES_PER_FRAME);
  const frameBytes = new Uint8Array(frame.buffer);
  const encodeAll = () => {
    for (let offset = 0; offset + FRAME_BYTES <= pcm.length; offset += FRAME_BYTES) {
      pcm.copy(frameBytes, 0, offset, offset + FRAME_BYTES);
      encoder.encode(frame);
    }
  };
  // V8 first runs WASM through its baseline compiler; a warm-up pass measures the optimised code a
  // long-running daemon actually runs.
  encodeAll();
  const cpuBefore = process.cpuUsage();
  encodeAll();
  const wasmCpuSeconds = cpuSeconds(process.cpuUsage(cpuBefore));
  encoder.destroy();
  // -benchmark reports the transcode's own CPU time, leaving ffmpeg's start-up out of the figure.
  const report = ffmpeg([
    '-benchmark',
    ...['-f', 's16le', '-ar', '48000', '-ac', '2', '-i', pcmPath],
    ...['-c:a', 'libopus', '-b:a', `${OPUS_MUSIC_BITRATE_BPS / 1000}k`, '-f', 'null', '-'],
  ]);
  const times = /utime=([\d.]+)s stime=([\d.]+)s/.exec(report);
  if (!times) throw new Error(`no -benchmark line in ffmpeg output:\n${report}`);
  const nativeCpuSeconds = Number(times[1]) + Number(times[2]);
  return { wasmRealtime: ENCODE_SECONDS / wasmCpuSeconds, nativeRealtime: ENCODE_SECONDS / nativeCpuSeconds };
}

interface FrameTotals {
  sent: number;
  late: number;
  missed: number;
}

interface Measurement extends FrameTotals {
  nodeCpuSeconds: number;
  childCpuSeconds: number;
  droppedTicks: number;
}

const playerTotals = (players: AudioPlayerClass[]): FrameTotals =>
  players.reduce(
    (sum, player) => {
      const { total } = player.frameHealth;
      return { sent: sum.sent + total.sent, late: sum.late + total.late, missed: sum.missed + total.missed };
    },
    { sent: 0, late: 0, missed: 0 },
  );

/** Frame counts, CPU and dropped ticks over whatever `during` waits for. */
async function measure(totals: () => FrameTotals, during: () => Promise<unknown>): Promise<Measurement> {
  const before = totals();
  const droppedBefore = frameScheduler.stats().droppedTicks;
  const cpuBefore = process.cpuUsage();
  const childBefore = childCpuSeconds();
  await during();
  const after = totals();
  return {
    sent: after.sent - before.sent,
    late: after.late - before.late,
    missed: after.missed - before.missed,
    nodeCpuSeconds: cpuSeconds(process.cpuUsage(cpuBefore)),
    childCpuSeconds: childCpuSeconds() - childBefore,
    droppedTicks: frameScheduler.stats().droppedTicks - droppedBefore,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const newPlayer = () => new AudioPlayer({ sink: new CountingSink(), volumePercent: 80 });
const playFile = (player: AudioPlayerClass, path: string, durationSeconds: number) =>
  player.play({ input: { kind: 'file', path }, durationSeconds });

/** Plays one file on several players at once, to the end, so every decoder has exited and been booked. */
async function cpuBench(path: string): Promise<Measurement> {
  const players = Array.from({ length: CPU_PLAYERS }, newPlayer);
  try {
    return await measure(
      () => playerTotals(players),
      async () => {
        const ended = players.map((player) => once(player, 'trackEnd'));
        for (const player of players) playFile(player, path, CPU_TRACK_SECONDS);
        await Promise.all(ended);
        // The last child may be reaped a moment after its track ends.
        await sleep(50);
      },
    );
  } finally {
    for (const player of players) player.destroy();
  }
}

/** The machine's own noise floor: the shared clock driving one player that does nothing. */
async function clockOnlyWindow(): Promise<Measurement> {
  const counts = { sent: 0, late: 0, missed: 0 };
  const idle = {
    dispatch: ({ latenessMs }: { latenessMs: number }) => {
      counts.sent++;
      if (latenessMs > LATE_FRAME_THRESHOLD_MS) counts.late++;
    },
    prepare: () => {},
  };
  frameScheduler.add(idle);
  try {
    return await measure(
      () => ({ ...counts }),
      () => sleep(WINDOW_SECONDS * 1000),
    );
  } finally {
    frameScheduler.remove(idle);
  }
}

/**
 * Adds players step by step while the earlier ones keep playing (as bots changing tracks would) and
 * judges each step on a measured window. A shared machine stalls now and then on its own, and one
 * late tick fails a window, so a step fails only when a second window fails too (a lasting overload).
 */
async function rampBench(path: string, judge: (players: number, window: Measurement) => boolean) {
  const players: AudioPlayerClass[] = [];
  const window = () =>
    measure(
      () => playerTotals(players),
      () => sleep(WINDOW_SECONDS * 1000),
    );
  let best = 0;
  let stopReason = 'time budget reached';
  try {
    for (const count of RAMP_STEPS) {
      if (remainingMs() < (SETTLE_SECONDS + 2 * WINDOW_SECONDS) * 1000) break;
      while (players.length < count) {
        const player = newPlayer();
        playFile(player, path, RAMP_TRACK_SECONDS);
        players.push(player);
      }
      await sleep(SETTLE_SECONDS * 1000);
      if (!judge(count, await window()) && !judge(count, await window())) {
        stopReason = `failed at ${count}`;
        break;
      }
      best = count;
    }
  } finally {
    for (const player of players) player.destroy();
  }
  return { best, stopReason };
}

const fmt = (value: number, digits = 1) => value.toFixed(digits);
const row = (cells: (string | number)[], widths: number[]) =>
  console.log(cells.map((cell, i) => String(cell).padStart(widths[i] ?? 10)).join('  '));
const latePercentOf = (m: Measurement) => (m.late / Math.max(1, m.sent)) * 100;

try {
  console.log(
    `audio bench: ${availableParallelism()} cores, Opus ${OPUS_MUSIC_BITRATE_BPS / 1000} kbps, 20 ms frames\n`,
  );

  const encode = encodeBench();
  const encodeWidths = [28, 12, 18];
  console.log(`1. Opus encode, ${ENCODE_SECONDS} s of 48 kHz stereo music-like PCM (CPU time)`);
  row(['encoder', 'realtime ×', 'ms CPU / audio s'], encodeWidths);
  row(
    ['opus-encdec (WASM libopus)', fmt(encode.wasmRealtime), fmt(1000 / encode.wasmRealtime, 2)],
    encodeWidths,
  );
  row(
    ['ffmpeg native libopus', fmt(encode.nativeRealtime), fmt(1000 / encode.nativeRealtime, 2)],
    encodeWidths,
  );
  console.log(`   native is ${fmt(encode.nativeRealtime / encode.wasmRealtime, 2)}× as fast as WASM\n`);

  const cpuPath = dir.file('cpu.mp3');
  renderMp3(cpuPath, CPU_TRACK_SECONDS);
  const cpu = await cpuBench(cpuPath);
  const audioSeconds = cpu.sent * FRAME_SECONDS;
  const cpuWidths = [28, 18, 14];
  console.log(
    `2. CPU per streaming player (${CPU_PLAYERS} players, ${CPU_TRACK_SECONDS} s 320 kbps MP3 each, played to the end)`,
  );
  row(['part', 'ms CPU / player-s', '% of one core'], cpuWidths);
  for (const [label, seconds] of [
    ['node: clock, gain, Opus', cpu.nodeCpuSeconds],
    ['ffmpeg decode (children)', cpu.childCpuSeconds],
    ['total', cpu.nodeCpuSeconds + cpu.childCpuSeconds],
  ] as const) {
    const msPerSecond = (seconds * 1000) / audioSeconds;
    row([label, fmt(msPerSecond, 2), fmt(msPerSecond / 10, 2)], cpuWidths);
  }
  console.log('');

  const rampPath = dir.file('ramp.mp3');
  renderMp3(rampPath, RAMP_TRACK_SECONDS);
  console.log(
    `3. Concurrent players, added while the others play (${SETTLE_SECONDS} s to settle, then ${WINDOW_SECONDS} s ` +
      `measured; pass = under ${LATE_LIMIT_PERCENT} % of frames > ${LATE_FRAME_THRESHOLD_MS} ms late)`,
  );
  const widths = [10, 12, 6, 8, 7, 14, 7, 7];
  row(['players', 'frames sent', 'late', 'late %', 'missed', 'dropped ticks', 'CPU %', 'result'], widths);
  const printWindow = (label: string | number, m: Measurement, verdict: string) =>
    row(
      [
        label,
        m.sent,
        m.late,
        fmt(latePercentOf(m), 3),
        m.missed,
        m.droppedTicks,
        fmt(((m.nodeCpuSeconds + m.childCpuSeconds) / WINDOW_SECONDS) * 100, 0),
        verdict,
      ],
      widths,
    );
  const noiseFloor = await clockOnlyWindow();
  printWindow('clock only', noiseFloor, 'floor');
  // On a busy shared machine the clock alone is late now and then; players are judged on what they add.
  const limitPercent = LATE_LIMIT_PERCENT + latePercentOf(noiseFloor);
  if (limitPercent > LATE_LIMIT_PERCENT) {
    console.log(
      `   the machine is busy: limit raised to the clock-only figure + ${LATE_LIMIT_PERCENT} % = ${fmt(limitPercent, 3)} %`,
    );
  }
  const ramp = await rampBench(rampPath, (players, m) => {
    const passed = latePercentOf(m) < limitPercent;
    printWindow(players, m, passed ? 'pass' : 'FAIL');
    return passed;
  });
  console.log(`   most concurrent players within the late-frame limit: ${ramp.best} (${ramp.stopReason})`);
  console.log('   CPU % is node plus exited ffmpeg children, of one core: a decoder still running is booked');
  console.log(
    '   when it exits, so decode CPU shows in part 2. A window is ~250 ticks: one late tick fails it.',
  );
  console.log(`\nbench time: ${fmt((performance.now() - benchStartMs) / 1000)} s`);
} finally {
  dir.remove();
}
