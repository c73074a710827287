import { describe, expect, it } from 'vitest';
import { OpusEncoder } from '../../daemon/audio/encode/encoder';
import { OPUS_SILENCE_FRAME } from '../../daemon/audio/encode/opus-silence-frame';
import { sineFrames } from '../../testkit/audio-signals';
import type { VoicePacket } from '../../testkit/ts3-server/ts3-test-server';
import { epochMs } from './epoch-clock';
import { TURN_PACKETS } from './stream-sampler';
import { VoiceCounter } from './voice-counter';

function encode(frequencyHz: number, seconds: number, amplitude = 0.5): Buffer[] {
  const encoder = new OpusEncoder();
  const packets = sineFrames(frequencyHz, seconds, amplitude).map((frame) =>
    Buffer.from(encoder.encode(frame)),
  );
  encoder.destroy();
  return packets;
}

const packet = (clientId: number, voiceId: number, data: Buffer, arrivedAtMs: number): VoicePacket => ({
  clientId,
  voiceId,
  codec: 5,
  data,
  arrivedAtMs,
});

describe('VoiceCounter', () => {
  it('counts packets, end markers and arrival lateness per window', () => {
    const counter = new VoiceCounter();
    const audio = encode(440, 1);
    audio.forEach((data, id) => {
      counter.onPacket(packet(1, id, data, 1000 + id * 20 + (id === 10 ? 12 : 0)));
      if (id < 25) counter.onPacket(packet(2, id, data, 1000 + id * 20));
    });
    counter.onPacket(packet(2, 25, Buffer.alloc(0), 1500));
    const report = counter.take();
    expect(report).toMatchObject({ clients: 2, packets: 75, endPackets: 1, fewestPackets: 25 });
    expect(report.lateness).toMatchObject({ frames: 75, late: 1, maxMs: 12 });
    expect(counter.take()).toMatchObject({ clients: 0, packets: 0, endPackets: 0 });
  });

  it('starts a window by dropping the warm-up, late packets included', () => {
    const counter = new VoiceCounter();
    const audio = encode(440, 1);
    audio.forEach((data, id) => {
      counter.onPacket(packet(1, id, data, 1000 + id * 20 + (id === 10 ? 30 : 0)));
      if (id === 20) counter.startWindow();
    });
    const report = counter.take();
    expect(report).toMatchObject({ clients: 1, packets: audio.length - 21 });
    expect(report.lateness).toMatchObject({ frames: audio.length - 21, late: 0 });
  });

  it('decodes one stream at a time for a whole turn, and tells audio from silence', () => {
    const counter = new VoiceCounter();
    const loud = encode(440, 3);
    const quiet = encode(440, 3, 0.001);
    for (let id = 0; id < loud.length; id++) {
      counter.onPacket(packet(1, id, loud[id]!, id * 20));
      counter.onPacket(packet(2, id, quiet[id]!, id * 20));
    }
    // 150 packets per client: turns of 50 alternate between the two streams.
    expect(loud.length).toBe(3 * TURN_PACKETS);
    expect(counter.take().sampled).toEqual({ streams: 3, audible: 2, decodeErrors: 0 });
  });

  it('passes over a stream that has stopped when its turn comes again', () => {
    const counter = new VoiceCounter();
    const audio = encode(440, 6);
    for (let id = 0; id < TURN_PACKETS; id++) counter.onPacket(packet(1, id, audio[id]!, id * 20));
    for (let id = 0; id < audio.length; id++) counter.onPacket(packet(2, id, audio[id]!, 1000 + id * 20));
    // Client 1's turn, client 2's, 2 s waiting for client 1 that has gone, client 2's again.
    expect(counter.take().sampled).toEqual({ streams: 3, audible: 3, decodeErrors: 0 });
  });

  it('times the first audio after a watch is armed, and the first packet of a new tone', async () => {
    const counter = new VoiceCounter();
    const start = counter.watch(1, { kind: 'audio' }, 1000);
    counter.onPacket(packet(1, 0, Buffer.from(OPUS_SILENCE_FRAME), 0));
    const low = encode(440, 0.2);
    for (const [i, data] of low.entries()) counter.onPacket(packet(1, 1 + i, data, 20 + i * 20));
    expect(await start).toBe(epochMs(20));

    const seek = counter.watch(1, { kind: 'tone', toneHz: 880, insteadOfHz: 440 }, 1000);
    for (const [i, data] of low.entries()) counter.onPacket(packet(1, 20 + i, data, 500 + i * 20));
    const high = encode(880, 0.2);
    for (const [i, data] of high.entries()) counter.onPacket(packet(1, 40 + i, data, 900 + i * 20));
    const arrival = await seek;
    // The first frame or two of the new tone may still ring with the old one in the decoder.
    expect(arrival).toBeGreaterThanOrEqual(epochMs(900));
    expect(arrival).toBeLessThanOrEqual(epochMs(940));
  });

  it('gives up on a watch whose packet never comes', async () => {
    const counter = new VoiceCounter();
    expect(await counter.watch(1, { kind: 'audio' }, 20)).toBeNull();
  });
});
