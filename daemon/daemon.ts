/**
 * The daemon: runs the bots its ownership gives it (every bot in one process; the bots it claims when
 * daemons share NATS, daemon/ownership/), answers their commands on `bot.<id>.cmd` (only the owner
 * subscribes, so a command reaches the owner wherever it runs and nobody else), answers a drain on
 * `daemon.<id>.drain`, follows lifecycle events on `bots.events`, and passes settings changes on. Each bot's runtime runs its commands one at
 * a time, so a bot's queue has a single writer.
 */
import { eq } from 'drizzle-orm';
import type { Bus, Subscription } from '../shared/bus/bus';
import {
  BotCommandSchema,
  type BotReply,
  BotsEventSchema,
  type DrainReply,
  SettingsEventSchema,
} from '../shared/bus/messages';
import { BOTS_EVENTS, botCommandSubject, daemonDrainSubject, SETTINGS_EVENTS } from '../shared/bus/subjects';
import type { Db } from '../shared/db/client';
import { bots } from '../shared/db/schema';
import { warmLauncher } from '../shared/exec/process-launcher';
import { logger } from '../shared/logger';
import { QUALITY_SETTING, readQuality } from '../shared/settings/quality';
import { readSettings, type StoredSettings } from '../shared/settings/settings';
import { Catalogs, createSources, type SourceContext } from '../shared/sources/platform-modules';
import { SourceRegistry } from '../shared/sources/source-registry';
import type { FrameCounts } from './audio/clock/frame-health';
import { type FrameScheduler, type FrameSchedulerStats, frameScheduler } from './audio/clock/frame-scheduler';
import type { FfmpegLocation } from './audio/decode/ffmpeg-locator';
import type { OpusEncoderOptions } from './audio/encode/encoder';
import { RelatedSongs } from './bots/autoplay/related-songs';
import { type BotChat, type BotRow, BotRuntime } from './bots/bot-runtime';
import type { Ts3Options } from './bots/connection/ts3-options';
import { LoginRefresher } from './login-refresher';
import { botMetricState, DaemonMetrics } from './metrics/daemon-metrics';
import type {
  BotOwnership,
  OwnershipFactory,
  OwnershipHooks,
  PreviousOwner,
  ReleaseReason,
} from './ownership/bot-ownership';
import { soleOwnership } from './ownership/sole-ownership';
import { UploadJanitor } from './upload-janitor';

const log = logger('daemon');

/**
 * How often playing bots bring the position in their queue snapshot up to date (`savedQueuesEnabled`),
 * so a daemon that dies leaves its successor a position at most this old.
 */
const CHECKPOINT_INTERVAL_MS = 5000;

export interface DaemonDeps {
  db: Db;
  bus: Bus;
  daemonId: string;
  /**
   * The context of the platforms' code, made once by the entry from its configuration
   * (`sourceContextOf`): where uploads live (DATA_DIR) and each platform's options.
   */
  sourceContext: SourceContext;
  /** The music sources; defaults to every adapter this daemon has. */
  sources?: SourceRegistry;
  /** Voice-connection options (the configured `TS3_LICENSE_ROOT`, see ts3OptionsFor). */
  ts3: Ts3Options;
  scheduler?: FrameScheduler;
  /** The Opus encoder's build (`OPUS_FORCE_WASM`); the native one where it loads when not given. */
  encoder?: OpusEncoderOptions;
  /** How long a platform's stream may send nothing before its track ends; STREAM_STALL_MS when not given. */
  streamStallMs?: number;
  /** Where ffmpeg is: `FFMPEG_PATH`, else the usual places on `PATH`. */
  ffmpeg: FfmpegLocation;
  /** How chat commands reach the REST API; without it the bots do not answer chat commands. */
  chat?: BotChat;
  /** Which bots this daemon runs; defaults to all of them (one process). */
  ownership?: OwnershipFactory;
  /** Called once a drain asked for over the bus has moved every bot: the entry stops the process. */
  onDrained?: () => void;
}

export interface FrameReport {
  clock: FrameSchedulerStats;
  frames: FrameCounts;
}

interface OwnedBot {
  runtime: BotRuntime;
  subscription: Subscription;
}

export class Daemon {
  private readonly owned = new Map<string, OwnedBot>();
  private readonly subscriptions: Subscription[] = [];
  private readonly sources: SourceRegistry;
  private readonly related: RelatedSongs;
  private readonly ts3: Ts3Options;
  private settings: StoredSettings | undefined;
  private readonly uploads: UploadJanitor;
  private readonly logins: LoginRefresher;
  private readonly ownership: BotOwnership;
  private checkpoints: NodeJS.Timeout | undefined;
  /** The frames of the bots it let go, so the frame counters it reports never go down. */
  private readonly retiredFrames: FrameCounts = { sent: 0, late: 0, missed: 0 };
  readonly metrics: DaemonMetrics;

  constructor(private readonly deps: DaemonDeps) {
    const ctx = deps.sourceContext;
    this.sources = deps.sources ?? new SourceRegistry(createSources(ctx));
    this.logins = new LoginRefresher({ ctx, log });
    this.related = new RelatedSongs(
      new Catalogs(ctx),
      () => this.settings ?? { enabledProviders: [], localAudioEnabled: false, keepUploads: false },
    );
    this.ts3 = deps.ts3;
    this.uploads = new UploadJanitor({
      db: deps.db,
      bus: deps.bus,
      dataDir: ctx.dataDir,
      log,
      ownQueues: () => new Map([...this.owned].map(([id, { runtime }]) => [id, runtime.heldSongs()])),
    });
    this.ownership = (deps.ownership ?? soleOwnership)(this.ownershipHooks());
    this.metrics = new DaemonMetrics(deps.daemonId, {
      frames: () => addFrames({ ...this.retiredFrames }, this.frameReport().frames),
      botStates: () => [...this.owned.values()].map(({ runtime }) => botMetricState(runtime)),
    });
  }

  /** Takes on the bots its ownership gives it, restores their queues, and starts those that should run. */
  async start(): Promise<void> {
    this.settings = await readSettings(this.deps.db);
    this.sources.setQuality(await readQuality(this.deps.db));
    this.subscriptions.push(
      this.deps.bus.subscribe(BOTS_EVENTS, (data) => void this.onBotsEvent(data)),
      this.deps.bus.subscribe(SETTINGS_EVENTS, (data) => void this.onSettingsChanged(data)),
      this.deps.bus.respond(daemonDrainSubject(this.deps.daemonId), async () => this.drain()),
    );
    // Scaled out, bots arrive playing (moved here, taken over): they must not wait for the launcher of
    // their decoders to boot. One process alone starts its bots before anyone listens, so it need not.
    const launcher = warmLauncher();
    if (this.deps.ownership) await launcher;
    await this.ownership.start();
    this.logins.start();
    this.checkpoints = setInterval(() => this.checkpoint(), CHECKPOINT_INTERVAL_MS).unref();
    log.info({ daemonId: this.deps.daemonId, bots: this.owned.size }, 'daemon started');
  }

  /**
   * Lets every bot go; scaled out, they are handed to the other daemons (one at a time while the stop
   * leaves time for it, see LeaseKeeper.handOver).
   */
  async stop(): Promise<void> {
    this.uploads.stop();
    this.logins.stop();
    clearInterval(this.checkpoints);
    for (const subscription of this.subscriptions.splice(0)) subscription.unsubscribe();
    await this.ownership.handOver();
  }

  /**
   * Moves every bot to the other daemons one at a time (a rolling upgrade's step, asked for by an
   * admin), then stops through the entry's usual shutdown. Refused when no other daemon could take them.
   */
  drain(): DrainReply {
    const drain = this.ownership.drain();
    if (!drain.started) return { started: false, bots: this.owned.size };
    log.info({ daemonId: this.deps.daemonId, bots: drain.bots }, 'draining');
    void drain.done.then(() => this.deps.onDrained?.());
    return { started: true, bots: drain.bots };
  }

  ownedBotIds(): string[] {
    return [...this.owned.keys()];
  }

  /**
   * How the bots' audio has kept time: the frame clock's ticks (late, and dropped after a stall) and
   * the frames the bots it owns now have sent, sent late and missed (an underrun, or a dropped tick).
   */
  frameReport(): FrameReport {
    const frames = { sent: 0, late: 0, missed: 0 };
    for (const { runtime } of this.owned.values()) addFrames(frames, runtime.player.frameHealth.total);
    return { clock: (this.deps.scheduler ?? frameScheduler).stats(), frames };
  }

  private async own(row: BotRow): Promise<BotRuntime | undefined> {
    if (this.owned.has(row.id) || !this.settings) return undefined;
    const runtime = new BotRuntime(row, {
      db: this.deps.db,
      bus: this.deps.bus,
      sources: this.sources,
      settings: this.settings,
      ts3: this.ts3,
      ffmpeg: this.deps.ffmpeg,
      uploads: this.uploads,
      related: this.related,
      ...(this.deps.scheduler ? { scheduler: this.deps.scheduler } : {}),
      ...(this.deps.encoder ? { encoder: this.deps.encoder } : {}),
      ...(this.deps.streamStallMs === undefined ? {} : { streamStallMs: this.deps.streamStallMs }),
      ...(this.deps.chat ? { chat: this.deps.chat } : {}),
    });
    const subscription = this.deps.bus.respond(botCommandSubject(row.id), (data) =>
      this.dispatch(runtime, data),
    );
    this.owned.set(row.id, { runtime, subscription });
    this.metrics.follow(runtime.player);
    await runtime.init();
    return runtime;
  }

  private autoStart(runtime: BotRuntime): void {
    runtime
      .handle({ op: 'start', actor: { id: this.deps.daemonId, username: 'autostart', role: 'admin' } })
      .then((reply) => {
        if (!reply.ok) log.warn({ bot: runtime.id, reason: reply.message }, 'autostart failed');
      });
  }

  private ownershipHooks(): OwnershipHooks {
    return {
      listBots: async () => (await this.deps.db.select({ id: bots.id }).from(bots)).map((row) => row.id),
      own: (botId, previous) => this.take(botId, previous),
      release: (botId, reason) => this.release(botId, reason),
      isActive: (botId) => this.owned.get(botId)?.runtime.connected ?? false,
    };
  }

  /**
   * Takes a bot on: its runtime, its command subscription, its restored queue; connects it when its
   * previous owner had it in a voice session, or when it starts automatically.
   */
  private async take(botId: string, previous: PreviousOwner | undefined): Promise<boolean> {
    const row = await this.deps.db.query.bots.findFirst({ where: eq(bots.id, botId) });
    if (!row) return false;
    const runtime = await this.own(row);
    await this.deps.bus.flush();
    // A record that said something about the bot was another daemon's (SoleOwnership never has one).
    if (runtime && previous) this.metrics.tookOver();
    if (runtime && this.owned.get(botId)?.runtime === runtime && (previous?.active || runtime.autoStart))
      this.autoStart(runtime);
    return true;
  }

  private async release(botId: string, reason: ReleaseReason | 'removed'): Promise<void> {
    const bot = this.owned.get(botId);
    if (!bot) return;
    this.owned.delete(botId);
    addFrames(this.retiredFrames, bot.runtime.player.frameHealth.total);
    bot.subscription.unsubscribe();
    await bot.runtime.dispose(reason === 'handover' ? 'shutdown' : reason);
  }

  private checkpoint(): void {
    for (const { runtime } of this.owned.values()) if (runtime.player.playing) runtime.saveSnapshot();
  }

  private dispatch(runtime: BotRuntime, data: unknown): Promise<BotReply> {
    const command = BotCommandSchema.safeParse(data);
    if (!command.success)
      return Promise.resolve({ ok: false, status: 400, message: 'malformed bot command' });
    return runtime.handle(command.data);
  }

  private async onBotsEvent(data: unknown): Promise<void> {
    const event = BotsEventSchema.safeParse(data);
    if (!event.success) return log.warn('ignored a malformed bots event');
    const { type, botId } = event.data;
    if (type === 'botRemoved') {
      await this.release(botId, 'removed');
      return this.ownership.botRemoved(botId);
    }
    if (type === 'botCreated') return this.ownership.botCreated(botId);
    const row = await this.deps.db.query.bots.findFirst({ where: eq(bots.id, botId) });
    if (row) this.owned.get(botId)?.runtime.reconfigure(row);
  }

  private async onSettingsChanged(data: unknown): Promise<void> {
    const event = SettingsEventSchema.safeParse(data);
    if (event.success && event.data.keys.includes(QUALITY_SETTING)) {
      this.sources.setQuality(await readQuality(this.deps.db));
    }
    const settings = await readSettings(this.deps.db);
    this.settings = settings;
    for (const { runtime } of this.owned.values()) runtime.applySettings(settings);
  }
}

/** Adds `more` to `sum` (in place) and answers it. */
function addFrames(sum: FrameCounts, more: FrameCounts): FrameCounts {
  sum.sent += more.sent;
  sum.late += more.late;
  sum.missed += more.missed;
  return sum;
}
