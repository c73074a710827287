/**
 * What the counting TS3 test server does with voice: per client it counts packets and their arrival
 * lateness (arrival-lateness.ts) and forgets the audio. It decodes only one stream at a time, in turn,
 * to show the streams are real audio (stream-sampler.ts), and the packets of a client someone waits
 * on: the first audio after a `play`, the first packet of the new tone after a `seek`.
 */
import { OpusDecoder } from '../../daemon/audio/encode/opus-decoder';
import { isSilenceFrame, leftChannel, tonePower } from '../../testkit/audio-signals';
import type { VoicePacket } from '../../testkit/ts3-server/ts3-test-server';
import { ArrivalLateness } from './arrival-lateness';
import { epochMs } from './epoch-clock';
import { type LatenessSummary, summarizeLateness } from './lateness';
import type { WatchTarget } from './protocol';
import { type SampleCounts, StreamSampler } from './stream-sampler';

export interface VoiceWindowReport {
  /** Clients that sent audio in the window. */
  clients: number;
  packets: number;
  endPackets: number;
  /** The fewest audio packets any of those clients sent (a starved bot shows here). */
  fewestPackets: number;
  lateness: LatenessSummary;
  sampled: SampleCounts;
}

interface ClientCounts {
  packets: number;
  endPackets: number;
  arrivals: ArrivalLateness;
}

interface Watch {
  clientId: number;
  target: WatchTarget;
  /** A tone watch decodes every packet of its client from the moment it is armed. */
  decoder: OpusDecoder | undefined;
  decoded: number;
  resolve(arrivedAtEpochMs: number | null): void;
}

export class VoiceCounter {
  private readonly clients = new Map<number, ClientCounts>();
  private readonly watches = new Set<Watch>();
  private readonly sampler = new StreamSampler();

  readonly onPacket = (packet: VoicePacket): void => {
    const counts = this.countsOf(packet.clientId);
    if (packet.data.length <= 1) {
      counts.endPackets++;
      counts.arrivals.onEnd(packet.voiceId);
      return;
    }
    counts.packets++;
    counts.arrivals.onAudio(packet.voiceId, packet.arrivedAtMs);
    this.sampler.onAudio(packet.clientId, packet.data, packet.arrivedAtMs);
    for (const watch of this.watches) {
      if (watch.clientId === packet.clientId && this.matches(watch, packet.data))
        watch.resolve(epochMs(packet.arrivedAtMs));
    }
  };

  /**
   * Resolves with the arrival (epoch ms) of the client's next packet that matches the target, or null
   * when none has come within `timeoutMs`.
   */
  watch(clientId: number, target: WatchTarget, timeoutMs: number): Promise<number | null> {
    return new Promise((resolve) => {
      const watch: Watch = {
        clientId,
        target,
        decoder: target.kind === 'tone' ? new OpusDecoder() : undefined,
        decoded: 0,
        resolve: (arrivedAtEpochMs) => {
          clearTimeout(timer);
          this.watches.delete(watch);
          watch.decoder?.destroy();
          resolve(arrivedAtEpochMs);
        },
      };
      const timer = setTimeout(() => watch.resolve(null), timeoutMs);
      this.watches.add(watch);
    });
  }

  /**
   * Starts a window: what came before is dropped, not summarized. Summing a warm-up's arrivals here
   * would take this process a core for tens of ms just as the window's first frames are due.
   */
  startWindow(): void {
    for (const counts of this.clients.values()) {
      counts.arrivals.clear();
      counts.packets = 0;
      counts.endPackets = 0;
    }
    this.sampler.take();
  }

  /** Everything since the last `take` (or `startWindow`), summed over clients; the next window starts from zero. */
  take(): VoiceWindowReport {
    const lateness: number[] = [];
    let packets = 0;
    let endPackets = 0;
    let fewestPackets = Number.POSITIVE_INFINITY;
    let clients = 0;
    for (const counts of this.clients.values()) {
      for (const value of counts.arrivals.take()) lateness.push(value);
      packets += counts.packets;
      endPackets += counts.endPackets;
      if (counts.packets > 0) {
        clients++;
        fewestPackets = Math.min(fewestPackets, counts.packets);
      }
      counts.packets = 0;
      counts.endPackets = 0;
    }
    return {
      clients,
      packets,
      endPackets,
      fewestPackets: clients === 0 ? 0 : fewestPackets,
      lateness: summarizeLateness(lateness),
      sampled: this.sampler.take(),
    };
  }

  private countsOf(clientId: number): ClientCounts {
    let counts = this.clients.get(clientId);
    if (!counts) {
      counts = { packets: 0, endPackets: 0, arrivals: new ArrivalLateness() };
      this.clients.set(clientId, counts);
    }
    return counts;
  }

  private matches(watch: Watch, data: Buffer): boolean {
    if (isSilenceFrame(data)) return false;
    const { target, decoder } = watch;
    if (target.kind === 'audio' || !decoder) return true;
    const decoded = decoder.decode(data);
    // The first packet only primes the fresh decoder: it was sent before the command the watch times.
    if (!decoded.ok || watch.decoded++ === 0) return false;
    const mono = leftChannel(decoded.value);
    return tonePower(mono, target.toneHz) > tonePower(mono, target.insteadOfHz);
  }
}
