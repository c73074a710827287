/** What the test server heard from one bot, lined up with when each packet arrived. */

import { PCM_FORMAT, SAMPLES_PER_CHANNEL_PER_FRAME } from '../../daemon/audio/pcm-format';
import { dominantFrequencyHz, leftChannel, rms } from '../../testkit/audio-signals';
import type { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';

export interface Heard {
  /** Left channel, one 20 ms frame per packet, in arrival order. */
  mono: Float64Array;
  /** performance.now() of each packet. */
  arrivals: readonly number[];
}

export function heard(server: Ts3TestServer, clientId: number): Heard {
  return { mono: leftChannel(server.voicePcm(clientId)), arrivals: server.voiceArrivals(clientId) };
}

/** The packets that arrived in [fromMs, toMs) (performance.now() times), as mono samples. */
export function samplesBetween(h: Heard, fromMs: number, toMs: number): Float64Array {
  const first = h.arrivals.findIndex((t) => t >= fromMs);
  if (first < 0) return new Float64Array(0);
  let last = first;
  while (last < h.arrivals.length && (h.arrivals[last] ?? 0) < toMs) last++;
  return h.mono.subarray(first * SAMPLES_PER_CHANNEL_PER_FRAME, last * SAMPLES_PER_CHANNEL_PER_FRAME);
}

/** Packets counted from the `index`-th one, by their position in the stream (not arrival time). */
export function samplesOfPackets(h: Heard, fromPacket: number, toPacket: number): Float64Array {
  return h.mono.subarray(
    fromPacket * SAMPLES_PER_CHANNEL_PER_FRAME,
    toPacket * SAMPLES_PER_CHANNEL_PER_FRAME,
  );
}

/** Below this a decoded 20 ms frame is an underrun's Opus silence, not quiet music (−60 dBFS). */
const SILENT_FRAME_RMS = 1e-3;

/**
 * The RMS level of the frames that carried sound. A loaded machine can make the bot miss a frame, which
 * it sends as Opus silence (counted, and tested apart); a level check measures the gain, so it leaves
 * those gaps out instead of reading them as a quieter bot.
 */
export function soundingLevel(samples: Float64Array): number {
  let sum = 0;
  let counted = 0;
  for (
    let start = 0;
    start + SAMPLES_PER_CHANNEL_PER_FRAME <= samples.length;
    start += SAMPLES_PER_CHANNEL_PER_FRAME
  ) {
    const frame = samples.subarray(start, start + SAMPLES_PER_CHANNEL_PER_FRAME);
    const level = rms(frame);
    if (level < SILENT_FRAME_RMS) continue;
    sum += level * level * frame.length;
    counted += frame.length;
  }
  return counted === 0 ? 0 : Math.sqrt(sum / counted);
}

export function frequencyOf(samples: Float64Array): number {
  return samples.length < PCM_FORMAT.sampleRateHz / 10 ? 0 : dominantFrequencyHz(samples);
}

export { rms };
