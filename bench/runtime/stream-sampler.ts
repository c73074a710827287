/**
 * Proof that the bots stream real audio, without decoding every stream: one client's stream at a time
 * is decoded for one second (50 consecutive packets, with a fresh decoder, since an Opus frame is
 * coded against the ones before it), then the next client's, in turn. A stream counts as audible when
 * its decoded second, after the decoder has settled, is louder than −50 dBFS.
 */
import { OpusDecoder } from '../../daemon/audio/encode/opus-decoder';
import { leftChannel } from '../../testkit/audio-signals';

export const TURN_PACKETS = 50;
/** Packets decoded before the loudness counts: the decoder's band energies start from nothing. */
const SETTLE_PACKETS = 10;
/** −50 dBFS: the music is at about −20 dBFS, less the bots' default volume (50: −12 dB); silence is 0. */
const AUDIBLE_RMS = 0.003;
/** A turn whose client stops sending is given up after this long, and so is waiting for one to start. */
const TURN_TIMEOUT_MS = 2000;

export interface SampleCounts {
  /** Streams decoded for a whole turn. */
  streams: number;
  audible: number;
  decodeErrors: number;
}

interface Turn {
  clientId: number;
  decoder: OpusDecoder;
  startedAtMs: number;
  packets: number;
  sumOfSquares: number;
  samples: number;
}

export class StreamSampler {
  /** Clients in the order they were first heard; `next` indexes the one to sample next. */
  private readonly clients: number[] = [];
  private next = 0;
  private turn: Turn | undefined;
  /** When the sampler began to wait for the next client's packet (no turn running). */
  private waitingSince: number | undefined;
  private counts: SampleCounts = { streams: 0, audible: 0, decodeErrors: 0 };

  onAudio(clientId: number, data: Uint8Array, arrivedAtMs: number): void {
    if (!this.clients.includes(clientId)) this.clients.push(clientId);
    if (this.turn && arrivedAtMs - this.turn.startedAtMs > TURN_TIMEOUT_MS) this.endTurn(arrivedAtMs);
    if (!this.turn) {
      // A client that has stopped sending (a bot that left) is passed over.
      this.waitingSince ??= arrivedAtMs;
      if (this.clients[this.next % this.clients.length] !== clientId) {
        if (arrivedAtMs - this.waitingSince > TURN_TIMEOUT_MS) this.endTurn(arrivedAtMs);
        return;
      }
      this.turn = {
        clientId,
        decoder: new OpusDecoder(),
        startedAtMs: arrivedAtMs,
        packets: 0,
        sumOfSquares: 0,
        samples: 0,
      };
    }
    const turn = this.turn;
    if (turn.clientId !== clientId) return;
    const decoded = turn.decoder.decode(data);
    turn.packets++;
    if (!decoded.ok) this.counts.decodeErrors++;
    else if (turn.packets > SETTLE_PACKETS) {
      for (const sample of leftChannel(decoded.value)) turn.sumOfSquares += sample * sample;
      turn.samples += decoded.value.length / 2;
    }
    if (turn.packets < TURN_PACKETS) return;
    this.counts.streams++;
    if (Math.sqrt(turn.sumOfSquares / Math.max(1, turn.samples)) > AUDIBLE_RMS) this.counts.audible++;
    this.endTurn(arrivedAtMs);
  }

  /** Counts since the last `take`. */
  take(): SampleCounts {
    const counts = this.counts;
    this.counts = { streams: 0, audible: 0, decodeErrors: 0 };
    return counts;
  }

  /** Ends the turn (or the wait for a client's turn to start) and moves on to the next client. */
  private endTurn(nowMs: number): void {
    this.turn?.decoder.destroy();
    this.turn = undefined;
    this.next++;
    this.waitingSince = nowMs;
  }
}
