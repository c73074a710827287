/**
 * What the test server heard from one client: packet counts, arrival times and the decoded audio, so a
 * test can check what a listener would hear. Decoding waits until someone asks, so the receive path
 * stays cheap and arrival times are not skewed by decoder work in the same process.
 */
import { OpusDecoder } from '../../daemon/audio/encode/opus-decoder';
import { PCM_FORMAT } from '../../daemon/audio/pcm-format';

export interface VoiceStats {
  packets: number;
  /** End-of-burst packets (no audio data). */
  endPackets: number;
  decodeErrors: number;
  codec: number;
  decodedSeconds: number;
  /**
   * p99 over the stream of the RFC 3550 §6.4.1 interarrival jitter: J += (|D| − J) / 16, where D is the
   * change in transit time between consecutive packets of a burst (send times from the voice ids, 20 ms
   * apart).
   */
  jitterP99Ms: number;
  /** p99 of the raw |inter-arrival − 20 ms| between consecutive audio packets of a burst (unsmoothed). */
  intervalDeviationP99Ms: number;
  meanIntervalMs: number;
}

const FRAME_MS = PCM_FORMAT.frameMs;

export class VoiceRecorder {
  private packets = 0;
  private endPackets = 0;
  private decodeErrors = 0;
  private codec = -1;
  private readonly arrivals: number[] = [];
  private readonly intervals: number[] = [];
  private readonly undecoded: Buffer[] = [];
  private readonly chunks: Int16Array[] = [];
  private samples = 0;
  private lastArrival: number | undefined;
  private lastTransit: number | undefined;
  private lastVoiceId = 0;
  private voiceIdOffset = 0;
  private jitter = 0;
  private readonly jitters: number[] = [];

  private readonly decoder = new OpusDecoder();

  /** `voiceId` is the packet's u16 voice id: one step per 20 ms frame. */
  onPacket(voiceId: number, codec: number, data: Buffer, arrivedAtMs: number): void {
    if (voiceId < this.lastVoiceId - 0x8000) this.voiceIdOffset += 0x1_0000;
    this.lastVoiceId = voiceId;
    if (data.length <= 1) {
      this.endPackets++;
      this.lastArrival = undefined;
      this.lastTransit = undefined;
      return;
    }
    this.packets++;
    this.codec = codec;
    if (this.lastArrival !== undefined) this.intervals.push(arrivedAtMs - this.lastArrival);
    this.lastArrival = arrivedAtMs;
    const transit = arrivedAtMs - (voiceId + this.voiceIdOffset) * FRAME_MS;
    if (this.lastTransit !== undefined) {
      this.jitter += (Math.abs(transit - this.lastTransit) - this.jitter) / 16;
      this.jitters.push(this.jitter);
    }
    this.lastTransit = transit;
    this.arrivals.push(arrivedAtMs);
    this.undecoded.push(Buffer.from(data));
  }

  private decodePending(): void {
    for (const data of this.undecoded.splice(0)) {
      const decoded = this.decoder.decode(data);
      if (!decoded.ok) {
        this.decodeErrors++;
        continue;
      }
      this.chunks.push(decoded.value);
      this.samples += decoded.value.length;
    }
  }

  stats(): VoiceStats {
    this.decodePending();
    const deviations = this.intervals.map((i) => Math.abs(i - FRAME_MS));
    const mean =
      this.intervals.length === 0 ? 0 : this.intervals.reduce((a, b) => a + b, 0) / this.intervals.length;
    return {
      packets: this.packets,
      endPackets: this.endPackets,
      decodeErrors: this.decodeErrors,
      codec: this.codec,
      decodedSeconds: this.samples / PCM_FORMAT.channels / PCM_FORMAT.sampleRateHz,
      jitterP99Ms: p99(this.jitters),
      intervalDeviationP99Ms: p99(deviations),
      meanIntervalMs: Math.round(mean * 100) / 100,
    };
  }

  /** Arrival time (performance.now(), ms) of every audio packet. */
  arrivalTimesMs(): readonly number[] {
    return this.arrivals;
  }

  /** All decoded audio so far, as the decoder gives it: 48 kHz interleaved stereo. */
  pcm(): Int16Array {
    this.decodePending();
    const out = new Int16Array(this.samples);
    let offset = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, offset);
      offset += chunk.length;
    }
    return out;
  }

  destroy(): void {
    this.decoder.destroy();
  }
}

function p99(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]! * 100) / 100;
}
