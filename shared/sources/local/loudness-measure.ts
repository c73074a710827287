/**
 * Measures a file's loudness with ffmpeg's `ebur128` filter (EBU R128 / ITU-R BS.1770): the integrated
 * loudness of the whole track and its true peak, read from the summary the filter logs when the input
 * ends. The per-frame lines go to the verbose level so only the summary is printed. It decodes the
 * whole file at many times real time: about a second for a 4-minute song.
 */
import { runBounded } from '../../exec/bounded-process';
import { err, ok, type Result } from '../../result';
import { UPLOAD_INPUT_OPTIONS } from './audio-probe';
import type { UploadLoudness } from './stored-loudness';

/** Generous for the largest upload (500 MB of Opus is many hours); a file that takes longer is skipped. */
const MEASURE_LIMITS = { timeoutMs: 5 * 60_000, maxOutputBytes: 64_000 };

/**
 * BS.1770's absolute gate: ffmpeg reports this when every block was quieter (silence, a file shorter
 * than one 400 ms block), which is no loudness to bring anywhere.
 */
const ABSOLUTE_GATE_LUFS = -70;

/** The input's tags are printed before it, so the last one is the filter's. */
const SUMMARY = 'Summary:';
const INTEGRATED = /\bI:\s+(-?\d+(?:\.\d+)?)\s+LUFS/;
/** `Peak:` under "True peak:" (peak=true); "-inf" for digital silence. */
const PEAK = /\bPeak:\s+(-?\d+(?:\.\d+)?)\s+dBFS/;

/** The figure in the summary ffmpeg's ebur128 filter logs; undefined when it has none or it is gated out. */
export function parseEbur128Summary(log: string): UploadLoudness | undefined {
  const at = log.lastIndexOf(SUMMARY);
  const summary = at < 0 ? '' : log.slice(at);
  const integrated = INTEGRATED.exec(summary);
  if (!integrated) return undefined;
  const integratedLufs = Number(integrated[1]);
  if (integratedLufs <= ABSOLUTE_GATE_LUFS) return undefined;
  const peak = PEAK.exec(summary);
  return { integratedLufs, ...(peak && { peakDb: Number(peak[1]) }), source: 'measured' };
}

/**
 * The loudness of the first audio track of the file at `path`; ok(undefined) when it has none to speak
 * of (silence). `timeoutMs` only for tests.
 */
export async function measureLoudness(
  ffmpeg: string,
  path: string,
  timeoutMs = MEASURE_LIMITS.timeoutMs,
): Promise<Result<UploadLoudness | undefined>> {
  const run = await runBounded(
    ffmpeg,
    [
      ...['-hide_banner', '-nostdin', '-nostats', '-v', 'info', ...UPLOAD_INPUT_OPTIONS, '-i', path],
      ...['-map', '0:a:0', '-af', 'ebur128=peak=true:framelog=verbose', '-f', 'null', '-'],
    ],
    { ...MEASURE_LIMITS, timeoutMs },
  );
  if (run.kind === 'notStarted') return err(`ffmpeg could not be started (${run.message})`);
  if (run.kind === 'timedOut') return err('ffmpeg took too long to measure the file');
  if (run.kind !== 'exited') return err('ffmpeg printed too much while measuring the file');
  if (run.code !== 0)
    return err(`ffmpeg could not measure the file (${run.stderr.trim().split('\n').pop()})`);
  return ok(parseEbur128Summary(run.stderr));
}
