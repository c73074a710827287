/**
 * A daemon's metrics, in a registry of its own (several daemons can share a test's thread): its bots
 * by state, the frames they sent, sent late and missed, decoder starts and failures by platform, and
 * the bots it took over. Counting costs nothing on the audio path: frames are read from each bot's
 * frame health when scraped, and the rest are counted once per track or per bot taken on.
 */
import { Counter, Gauge, Registry } from 'prom-client';
import { PLATFORMS } from '../../shared/domain/platforms';
import type { FrameCounts } from '../audio/clock/frame-health';
import type { BotPlayer } from '../bots/bot-player';
import type { BotRuntime } from '../bots/bot-runtime';

export const BOT_METRIC_STATES = [
  'disconnected',
  'connecting',
  'reconnecting',
  'idle',
  'playing',
  'paused',
] as const;
export type BotMetricState = (typeof BOT_METRIC_STATES)[number];

/** A bot's state as `ts3bot_bots` counts it: its connection, and once connected, its player. */
export function botMetricState(runtime: Pick<BotRuntime, 'connectionStatus' | 'player'>): BotMetricState {
  const status = runtime.connectionStatus;
  if (status === 'disposed') return 'disconnected';
  if (status !== 'connected') return status;
  return runtime.player.paused ? 'paused' : runtime.player.playing ? 'playing' : 'idle';
}

/** What the metrics read from the daemon when scraped. */
export interface DaemonMetricsSource {
  /** Frames sent, late and missed since the daemon started, by every bot it has run. */
  frames(): FrameCounts;
  /** The state of each bot it runs now. */
  botStates(): Iterable<BotMetricState>;
}

export class DaemonMetrics {
  readonly registry = new Registry();
  private readonly decoderStarts: Counter<'platform'>;
  private readonly decoderFailures: Counter<'platform' | 'problem'>;
  private readonly takeovers: Counter<'daemon'>;

  constructor(
    private readonly daemonId: string,
    source: DaemonMetricsSource,
  ) {
    const registers = [this.registry];
    const daemon = { daemon: daemonId };
    const frames = (kind: keyof FrameCounts, help: string) =>
      new Counter({
        name: `ts3bot_frames_${kind}_total`,
        help,
        labelNames: ['daemon'] as const,
        registers,
        // Read from the bots' own counts, which only grow (the daemon keeps those of bots it let go).
        collect() {
          this.reset();
          this.inc(daemon, source.frames()[kind]);
        },
      });
    frames('sent', '20 ms voice frames the bots sent');
    frames('late', 'Frames sent more than 10 ms past their deadline');
    frames('missed', 'Frames not sent: an underrun, or clock ticks dropped after a stall');
    new Gauge({
      name: 'ts3bot_bots',
      help: 'Bots this daemon runs, by state',
      labelNames: ['daemon', 'state'] as const,
      registers,
      collect() {
        const counts = new Map<BotMetricState, number>(BOT_METRIC_STATES.map((state) => [state, 0]));
        for (const state of source.botStates()) counts.set(state, (counts.get(state) ?? 0) + 1);
        for (const [state, count] of counts) this.set({ ...daemon, state }, count);
      },
    });
    this.decoderStarts = new Counter({
      name: 'ts3bot_decoder_starts_total',
      help: 'Tracks whose decoder started and gave its first audio, by platform',
      labelNames: ['platform'] as const,
      registers,
    });
    for (const platform of PLATFORMS) this.decoderStarts.inc({ platform }, 0);
    this.decoderFailures = new Counter({
      name: 'ts3bot_decoder_failures_total',
      help: 'Tracks whose decoder failed, by platform and problem (docs/metrics.md)',
      labelNames: ['platform', 'problem'] as const,
      registers,
    });
    this.takeovers = new Counter({
      name: 'ts3bot_lease_takeovers_total',
      help: "Bots this daemon took on from another daemon's lease (a failover, a hand-over or a rebalance)",
      labelNames: ['daemon'] as const,
      registers,
    });
    this.takeovers.inc(daemon, 0);
  }

  /** Counts the decoder starts and failures of a bot's player. */
  follow(player: BotPlayer): void {
    player.on('trackStart', (song) => this.decoderStarts.inc({ platform: song.platform }));
    player.on('trackFailed', ({ song, problem }) => {
      // Without a problem the song never reached a decoder (its platform refused: a platform error).
      if (problem) this.decoderFailures.inc({ platform: song.platform, problem });
    });
  }

  tookOver(): void {
    this.takeovers.inc({ daemon: this.daemonId });
  }
}
