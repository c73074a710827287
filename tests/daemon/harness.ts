import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import type { FfmpegLocation } from '../../daemon/audio/decode/ffmpeg-locator';
import type { Ts3Options } from '../../daemon/bots/connection/ts3-options';
import { Daemon } from '../../daemon/daemon';
import { parseLicenseRoot } from '../../daemon/ts3';
import { type BotOp, isBotOp, QueueReplySchema } from '../../shared/bus/bot-ops';
import { InProcessBus } from '../../shared/bus/in-process-bus';
import { type BotReply, BotReplySchema } from '../../shared/bus/messages';
import { BOTS_EVENTS, botCommandSubject, SETTINGS_EVENTS } from '../../shared/bus/subjects';
import { type Db, migrateDb, openDb } from '../../shared/db/client';
import { bots, settings } from '../../shared/db/schema';
import { type BotStatus, BotStatusSchema, type QueuedSong, type Song } from '../../shared/domain/schemas';
import { LocalSource, UPLOADS_DIR } from '../../shared/sources/local/local-source';
import { sourceContextOf } from '../../shared/sources/platform-modules';
import { SourceRegistry } from '../../shared/sources/source-registry';
import { FFMPEG_LOCATION } from '../../testkit/audio-signals';
import { addToneUpload, type Tone } from '../../testkit/tone-uploads';
import type { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';

export type { Tone };

export const ACTOR = { id: 'u1', username: 'alice', role: 'admin' as const };

export interface BotSpec {
  name?: string;
  defaultChannel?: string;
  channelPassword?: string;
  serverPassword?: string;
  autoStart?: boolean;
  port?: number;
  profileConfig?: typeof bots.$inferInsert.profileConfig;
  /** Off for a test of absolute levels (the volume's and ducking's curves); on by default, as for users. */
  loudnessNormalization?: boolean;
  /** The bot's client version setting (`auto` when left out, as for users). */
  clientVersion?: string;
}

export class DaemonHarness {
  daemon: Daemon | undefined;
  readonly bus = new InProcessBus(30_000);
  /** Where the daemon looks for ffmpeg, read at each track's start: a test may point it elsewhere. */
  readonly ffmpeg: FfmpegLocation = { ...FFMPEG_LOCATION };

  private constructor(
    readonly db: Db,
    readonly dataDir: string,
    private readonly ts3: Ts3Options,
  ) {}

  static async create(server: Ts3TestServer, ts3: Partial<Ts3Options> = {}): Promise<DaemonHarness> {
    const dataDir = mkdtempSync(join(tmpdir(), 'daemon-e2e-'));
    mkdirSync(join(dataDir, UPLOADS_DIR));
    const db = openDb({ url: `file:${join(dataDir, 'bot.db')}` });
    await migrateDb(db);
    const root = parseLicenseRoot(server.rootPublicKey);
    if (!root.ok) throw new Error(root.error);
    return new DaemonHarness(db, dataDir, { licenseRoot: root.value, ...ts3 });
  }

  /**
   * `sources` replaces the default, uploads only (no platform adapter, so nothing here can reach the
   * internet), e.g. with a test source for a platform. `streamStallMs` shortens the stream stall limit.
   */
  async startDaemon(
    sources = new SourceRegistry([new LocalSource(this.db, this.dataDir)]),
    options: { streamStallMs?: number } = {},
  ): Promise<Daemon> {
    this.daemon = new Daemon({
      db: this.db,
      bus: this.bus,
      daemonId: 'e2e',
      sourceContext: sourceContextOf(this.db, { dataDir: this.dataDir, ffmpeg: this.ffmpeg }),
      ts3: this.ts3,
      ffmpeg: this.ffmpeg,
      sources,
      ...options,
    });
    await this.daemon.start();
    return this.daemon;
  }

  async stopDaemon(): Promise<void> {
    await this.daemon?.stop();
    this.daemon = undefined;
  }

  async setSettings(values: Record<string, unknown>): Promise<void> {
    for (const [key, raw] of Object.entries(values)) {
      const row = { value: JSON.stringify(raw), updatedAt: new Date() };
      await this.db
        .insert(settings)
        .values({ key, ...row })
        .onConflictDoUpdate({ target: settings.key, set: row });
    }
    this.bus.publish(SETTINGS_EVENTS, { keys: Object.keys(values) });
    await sleep(50);
  }

  /** Inserts a bot row and announces it, as the api does. */
  async addBot(port: number, spec: BotSpec = {}): Promise<string> {
    const id = randomUUID();
    const now = new Date();
    await this.db.insert(bots).values({
      id,
      name: spec.name ?? `bot-${id.slice(0, 6)}`,
      serverAddress: '127.0.0.1',
      serverPort: port,
      nickname: spec.name ?? `Bot${id.slice(0, 4)}`,
      defaultChannel: spec.defaultChannel ?? null,
      channelPassword: spec.channelPassword ?? null,
      serverPassword: spec.serverPassword ?? null,
      autoStart: spec.autoStart ?? false,
      profileConfig: spec.profileConfig ?? null,
      ...(spec.loudnessNormalization === undefined
        ? {}
        : { loudnessNormalization: spec.loudnessNormalization }),
      ...(spec.clientVersion === undefined ? {} : { clientVersion: spec.clientVersion }),
      createdAt: now,
      updatedAt: now,
    });
    this.bus.publish(BOTS_EVENTS, { type: 'botCreated', botId: id });
    await this.waitFor(() => this.daemon?.ownedBotIds().includes(id) ?? false, 2000, 'bot owned');
    return id;
  }

  async botRow(id: string) {
    return this.db.query.bots.findFirst({ where: eq(bots.id, id) });
  }

  /** Renders tones back to back into an upload and returns the Song that plays it. */
  toneSong(name: string, tones: Tone[], bytes?: Buffer): Promise<Song> {
    return addToneUpload(this.db, this.dataDir, name, tones, bytes);
  }

  async command(botId: string, op: BotOp | string, args?: unknown): Promise<BotReply> {
    if (!isBotOp(op) && op !== 'bogus') throw new Error(`not an op: ${op}`);
    const raw = await this.bus.request(
      botCommandSubject(botId),
      { op, args, actor: ACTOR },
      { timeoutMs: 30_000 },
    );
    return BotReplySchema.parse(raw);
  }

  /** The queue as the bot reports it. */
  async queue(botId: string): Promise<QueuedSong[]> {
    const data = (await this.command(botId, 'queue')).data;
    return QueueReplySchema.parse(data).queue;
  }

  async status(botId: string): Promise<BotStatus> {
    return BotStatusSchema.parse((await this.command(botId, 'status')).data);
  }

  /** `what` may be a function, to describe the last thing seen when the wait runs out. */
  async waitFor(
    check: () => boolean | Promise<boolean>,
    timeoutMs: number,
    what: string | (() => string),
  ): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) {
        throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
      }
      await sleep(50);
    }
  }

  async waitForStatus(botId: string, check: (s: BotStatus) => boolean, timeoutMs: number, what: string) {
    let last: BotStatus | undefined;
    await this.waitFor(
      async () => {
        last = await this.status(botId);
        return check(last);
      },
      timeoutMs,
      () => `${what} (last status ${JSON.stringify(last)})`,
    );
    return last as BotStatus;
  }

  async close(): Promise<void> {
    await this.stopDaemon();
    await this.bus.close();
    this.db.$client.close();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
