/** What the test server heard from one bot, lined up with when each packet arrived. */

import { PCM_FORMAT, SAMPLES_PER_CHANNEL_PER_FRAME } from '../../daemon/audio/pcm-format';
import { dominantFrequencyHz, leftChannel, rms } from '../helpers/audio-signals';
import type { Ts3TestServer } from '../ts3-server/ts3-test-server';

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

export function frequencyOf(samples: Float64Array): number {
  return samples.length < PCM_FORMAT.sampleRateHz / 10 ? 0 : dominantFrequencyHz(samples);
}

export { rms };
