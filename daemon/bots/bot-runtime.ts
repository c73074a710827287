/**
 * One bot inside the daemon: its stored configuration, its connection (BotLifecycle), its player, and
 * the session that lives while it is connected. Commands and internal events that change the bot run
 * one at a time through one SerialExecutor, so the queue has a single writer; read-only operations
 * answer at once. Every change is published on `bot.<id>.state`.
 */

import { isBotOp, isReadOnly } from '../../shared/bus/bot-ops';
import type { Bus } from '../../shared/bus/bus';
import type { BotCommand, BotReply, BotStateEvent } from '../../shared/bus/messages';
import { botListenSubject, botStateSubject } from '../../shared/bus/subjects';
import type { Db } from '../../shared/db/client';
import { dbFaultOf } from '../../shared/db/db-faults';
import type { bots } from '../../shared/db/schema';
import { clientVersionOf } from '../../shared/domain/client-versions';
import { type AutoplayMode, BOT_START_DEADLINE_MS, type PlayMode } from '../../shared/domain/constants';
import type { LoudnessSetting } from '../../shared/domain/loudness';
import { UPLOADS_PLATFORM } from '../../shared/domain/platforms';
import type { BotStatus, NicknameTaken, QueuedSong } from '../../shared/domain/schemas';
import { say, statusPhrase } from '../../shared/i18n/phrases';
import { type Logger, logger } from '../../shared/logger';
import { receipts } from '../../shared/receipts';
import { err } from '../../shared/result';
import type { StoredSettings } from '../../shared/settings/settings';
import { settleWithin } from '../../shared/settle-within';
import type { SourceRegistry } from '../../shared/sources/source-registry';
import type { FrameScheduler } from '../audio/clock/frame-scheduler';
import { type FfmpegLocation, locateDecoder, locateFfmpeg } from '../audio/decode/ffmpeg-locator';
import type { OpusEncoderOptions } from '../audio/encode/encoder';
import { DEFAULT_PLAYBACK_POLICY } from '../audio/playback-policy';
import type { ChatApiFactory } from '../chat/chat-api';
import { ChatDispatcher } from '../chat/chat-dispatcher';
import { Ts3Client } from '../ts3';
import type { UploadEvents } from '../upload-janitor';
import { Autoplay, RECENT_PLAYS } from './autoplay/autoplay';
import type { RelatedSongs } from './autoplay/related-songs';
import type { BotContext } from './bot-context';
import { BotPlayer, type ResumePoint } from './bot-player';
import { BotLifecycle, type ConnectionState, type ConnectionStatus } from './connection/bot-lifecycle';
import { ConnectionSession } from './connection/connection-session';
import { EntersStateError, entersState } from './connection/enters-state';
import { configuredChannel } from './connection/joined-channel';
import { nicknameForAttempt } from './connection/nickname-attempts';
import { startFailurePhrase } from './connection/start-failure';
import type { Ts3Options } from './connection/ts3-options';
import { Ts3VoiceSink } from './connection/ts3-voice-sink';
import { ListenFeed } from './listen/listen-feed';
import { runOp } from './operations/op-handlers';
import { done, refused } from './operations/reply-builders';
import { type PlayableSong, toQueueEntry, withStreamTitle } from './playable-song';
import { PlaybackReporter } from './playback-reporter';
import { coverArtAvatar, coverMayBePrivate } from './profile/cover-art-avatar';
import { PROFILE_DISABLED } from './profile/profile-updater';
import { QueueUndo } from './queue-undo';
import { SerialExecutor } from './serial-executor';
import { SkipVotes } from './skip-votes';
import { loadBotAvatar } from './stores/avatar-store';
import { storedIdentity, storeIdentity } from './stores/identity-store';
import { recentPlays, recordPlay } from './stores/play-history-store';
import {
  saveAutoplay,
  saveCrossfade,
  saveLoudness,
  saveMode,
  saveVolume,
} from './stores/playback-settings-store';
import { QueueSnapshotStore } from './stores/queue-snapshot-store';

export type BotRow = typeof bots.$inferSelect;

/** The client's own connect deadline sits just behind ours, so ours is the one that fires. */
const CLIENT_CONNECT_TIMEOUT_MS = BOT_START_DEADLINE_MS + 1000;
/**
 * How long a bot that is let go waits for its voice server: restoring its profile, then the server's
 * confirmation that it left. A server that has vanished answers neither, and a daemon's shutdown must
 * not wait on it (shared/shutdown.ts): past this the goodbye is left to the client's own deadlines and
 * the bot is freed.
 */
const GOODBYE_WAIT_MS = 1500;

export interface BotRuntimeDeps {
  db: Db;
  bus: Bus;
  sources: SourceRegistry;
  settings: StoredSettings;
  ts3: Ts3Options;
  /** The frame clock; tests may pass their own. */
  scheduler?: FrameScheduler;
  /** The Opus encoder's build and settings (`OPUS_FORCE_WASM`); the defaults when not given. */
  encoder?: OpusEncoderOptions;
  /** How long a platform's stream may send nothing before its track ends (the policy's default). */
  streamStallMs?: number;
  /** Where ffmpeg is (`FFMPEG_PATH`, else the usual places on `PATH`). */
  ffmpeg: FfmpegLocation;
  chat?: BotChat;
  /** Told when an upload plays and when the queue changes, so played uploads can be deleted. */
  uploads?: UploadEvents;
  /** Where autoplay finds songs like one that played; without it the bot stops when its queue runs out. */
  related?: RelatedSongs;
}

/** How the bot answers chat commands: the REST client factory and the command prefix. */
export interface BotChat {
  api: ChatApiFactory;
  prefix: string;
}

export class BotRuntime implements BotContext {
  readonly player: BotPlayer;
  readonly log: Logger;
  readonly skipVotes = new SkipVotes();
  readonly queueUndo = new QueueUndo();
  readonly listenFeed: ListenFeed;
  /** After each command, a song queued ahead that is no longer next is replaced (BotPlayer). */
  private readonly serial = new SerialExecutor(() => this.player.reviewUpcoming());
  private readonly lifecycle: BotLifecycle;
  private readonly sink = new Ts3VoiceSink();
  private readonly snapshots: QueueSnapshotStore;
  private session: ConnectionSession | undefined;
  /** Autoplay's candidates; absent in a runtime made without songs to go on with. */
  private readonly autoplay: Autoplay | undefined;
  /** The channel the current client was told to join (the configuration may change meanwhile). */
  private requestedChannel: number | string | undefined;
  /** The configured nickname and the one the current client joins with (another when it was taken). */
  private joinNickname: NicknameTaken | undefined;
  /** Where to continue once connected again (after a reconnect or a restored snapshot). */
  private resumePoint: ResumePoint | undefined;
  private queueVersion = 0;
  private avatarUpdatedAt: number | undefined;
  private currentSettings: StoredSettings;
  private disposing = false;
  /**
   * Deleted: its removal was its last word. A state published while it is torn down (its playback
   * stopping) would show a deleted bot again, in the api's statuses and on the browsers' sockets.
   */
  private removed = false;

  constructor(
    private config: BotRow,
    private readonly deps: BotRuntimeDeps,
  ) {
    this.log = logger('daemon.bot').child({ bot: config.id });
    this.currentSettings = deps.settings;
    this.snapshots = new QueueSnapshotStore(deps.db, config.id, this.log);
    this.player = new BotPlayer({
      sources: deps.sources,
      runSerial: (task) => this.serial.run(task),
      log: this.log,
      player: {
        sink: this.sink,
        volumePercent: config.volume,
        voiceDucking: deps.settings.voiceDucking,
        ...loudnessTargetOf(config),
        ...(deps.scheduler ? { scheduler: deps.scheduler } : {}),
        locateFfmpeg: () => locateDecoder(deps.ffmpeg),
        ...(deps.encoder ? { encoder: deps.encoder } : {}),
        ...(deps.streamStallMs === undefined
          ? {}
          : { policy: { ...DEFAULT_PLAYBACK_POLICY, streamStallMs: deps.streamStallMs } }),
      },
      whenQueueEnds: (last) => this.autoplayAfter(last),
    });
    this.player.setCrossfadeSeconds(config.crossfadeSeconds);
    this.autoplay =
      deps.related && new Autoplay(deps.related, () => recentPlays(deps.db, config.id, RECENT_PLAYS));
    this.listenFeed = new ListenFeed({
      publish: (frames) => deps.bus.publish(botListenSubject(config.id), { frames }),
      onListenersChange: () => this.changed(false),
      tap: (push) => {
        this.sink.tap = push;
      },
    });
    this.player.queue.setMode(config.playMode);
    this.player.on('change', (queueChanged) => this.changed(queueChanged));
    const reporter = new PlaybackReporter(
      deps.sources,
      () => ({ seconds: this.player.elapsedSeconds, paused: this.player.paused }),
      this.log,
    );
    this.player.on('trackStart', (song) => {
      reporter.trackStarted(song);
      recordPlay(deps.db, config.id, song, new Date()).catch((error: unknown) =>
        this.log.warn({ err: error }, 'could not record the play history'),
      );
      if (song.platform === UPLOADS_PLATFORM) deps.uploads?.played(song.id);
    });
    this.player.on('idle', () => reporter.finish());
    this.player.on('change', (queueChanged) => {
      if (queueChanged) deps.uploads?.queuesChanged();
    });
    this.lifecycle = new BotLifecycle({
      createClient: (nicknameAttempt) => this.createClient(nicknameAttempt),
      log: this.log,
      ...(deps.ts3.backoff ? { backoff: deps.ts3.backoff } : {}),
    });
    this.lifecycle.on('stateChange', (from, to) => this.onConnectionChange(from, to));
  }

  get id(): string {
    return this.config.id;
  }

  get connected(): boolean {
    return this.lifecycle.connected;
  }

  get connectionStatus(): ConnectionStatus {
    return this.lifecycle.state.status;
  }

  get settings(): StoredSettings {
    return this.currentSettings;
  }

  get sources(): SourceRegistry {
    return this.deps.sources;
  }

  get autoStart(): boolean {
    return this.config.autoStart;
  }

  status(): BotStatus {
    const now = this.player.nowPlaying;
    const status: BotStatus = {
      id: this.config.id,
      name: this.config.name,
      connected: this.lifecycle.connected,
      playing: this.player.playing,
      paused: this.player.paused,
      currentSong: now
        ? toQueueEntry(withStreamTitle(now.song, now.streamTitle), this.player.queue.keyOf(now.song))
        : null,
      queueSize: this.player.queue.size,
      volume: this.player.volume,
      playMode: this.player.queue.mode,
      elapsed: Math.round(this.player.elapsedSeconds * 1000) / 1000,
      skipVotes: this.skipVotes.tally(now, this.channelPeople().length, this.currentSettings.voteSkipRatio),
      listeners: this.listenFeed.listeners,
      autoplay: this.config.autoplay,
      crossfadeSeconds: this.config.crossfadeSeconds,
      loudness: { ...this.loudness, ...this.player.loudness },
    };
    if (now?.effectiveDuration !== undefined) status.effectiveDuration = now.effectiveDuration;
    const channel = this.lifecycle.connected ? this.session?.joinedChannel(this.requestedChannel) : undefined;
    if (channel) status.channel = channel;
    const taken = this.nicknameTaken();
    if (taken) status.nicknameTaken = taken;
    return status;
  }

  queueView(): QueuedSong[] {
    return this.player.queue.keyedSongs().map(({ key, song }) => toQueueEntry(song, key));
  }

  heldSongs(): readonly PlayableSong[] {
    return [...this.player.queue.snapshot().songs, ...this.queueUndo.songs(this.player.queue)];
  }

  channelPeople(): readonly string[] {
    return this.session?.channelPeople() ?? [];
  }

  /** A write the database refused (busy, full) answers its own 503/507 instead of failing the bus call. */
  handle(command: BotCommand): Promise<BotReply> {
    const { op, args } = command;
    if (!isBotOp(op)) return Promise.resolve(refused(400, say.badRequest(`unknown operation ${op}`)));
    if (isReadOnly(op)) return Promise.resolve(runOp(this, op, args));
    return this.serial
      .run(async () => runOp(this, op, args))
      .catch((error: unknown) => {
        const fault = dbFaultOf(error);
        if (!fault) throw error;
        this.log.warn({ err: error, op }, 'the database refused a write');
        return refused(fault.status, statusPhrase(fault.status, fault.message));
      });
  }

  changed(queueChanged: boolean): void {
    if (this.removed) return;
    if (queueChanged) {
      this.queueVersion++;
      this.saveSnapshot();
    }
    const event: BotStateEvent = { bot: this.status(), queueVersion: this.queueVersion };
    if (queueChanged) event.queue = this.queueView();
    this.deps.bus.publish(botStateSubject(this.config.id), event);
  }

  persistVolume(volume: number): Promise<void> {
    this.config = { ...this.config, volume };
    return saveVolume(this.deps.db, this.config.id, volume);
  }

  async setAutoplay(mode: AutoplayMode): Promise<void> {
    await saveAutoplay(this.deps.db, this.config.id, mode);
    this.config = { ...this.config, autoplay: mode };
  }

  async setCrossfade(seconds: number): Promise<void> {
    await saveCrossfade(this.deps.db, this.config.id, seconds);
    this.config = { ...this.config, crossfadeSeconds: seconds };
    this.player.setCrossfadeSeconds(seconds);
  }

  /** The song autoplay goes on with after `last`, when it is on; says so in the channel when there is none. */
  private async autoplayAfter(last: PlayableSong): Promise<PlayableSong | undefined> {
    if (this.config.autoplay === 'off' || !this.autoplay) return undefined;
    const song = await this.autoplay.after(last);
    if (!song) this.session?.tellChannel(receipts.autoplayNothing());
    return song;
  }

  get loudness(): LoudnessSetting {
    return { enabled: this.config.loudnessNormalization, targetLufs: this.config.loudnessTarget };
  }

  async setLoudness(setting: LoudnessSetting): Promise<void> {
    await saveLoudness(this.deps.db, this.config.id, setting);
    this.config = {
      ...this.config,
      loudnessNormalization: setting.enabled,
      loudnessTarget: setting.targetLufs,
    };
    this.player.setLoudnessTarget(loudnessTargetOf(this.config).loudnessTargetLufs);
  }

  persistMode(mode: PlayMode): Promise<void> {
    this.config = { ...this.config, playMode: mode };
    return saveMode(this.deps.db, this.config.id, mode);
  }

  /** Waits up to BOT_START_DEADLINE_MS for the connection; on failure the attempt is torn down (500). */
  async start(): Promise<BotReply<BotStatus>> {
    if (this.lifecycle.connected) return done(say.alreadyConnected(), this.status());
    this.lifecycle.start();
    try {
      await entersState(this.lifecycle, 'connected', BOT_START_DEADLINE_MS, ['disconnected', 'reconnecting']);
    } catch (error) {
      const timedOut = error instanceof EntersStateError && error.kind === 'timeout';
      const failure = this.lifecycle.failure ?? { message: 'the connection failed' };
      await this.lifecycle.stop();
      this.changed(false);
      return refused(
        500,
        timedOut
          ? say.startTimedOut(BOT_START_DEADLINE_MS / 1000)
          : startFailurePhrase(failure, `${this.config.serverAddress}:${this.config.serverPort}`),
      );
    }
    const status = this.status();
    const { channel, nicknameTaken } = status;
    // The server puts a bot whose channel it lacks into its default channel, and the bot joins under
    // another nickname when its own was taken; the receipt says so.
    const said = [
      say.started(),
      ...(channel?.missing ? [say.channelMissing(channel.missing, channel.name)] : []),
      ...(nicknameTaken ? [say.nicknameTaken(nicknameTaken.requested, nicknameTaken.used)] : []),
    ];
    return done(said, status);
  }

  /** Disconnects and clears the player state (queue included); profile defaults are written back first. */
  async stop(): Promise<BotReply<BotStatus>> {
    await this.session?.profile.restoreDefaults();
    this.resumePoint = undefined;
    this.player.stopPlayback();
    this.player.queue.clear();
    this.queueUndo.forget();
    this.snapshots.delete();
    await this.lifecycle.stop();
    this.changed(true);
    return done(say.disconnected(), this.status());
  }

  /** Reads what the bot starts from: its avatar's version, and the queue snapshot when enabled. */
  async init(): Promise<void> {
    this.avatarUpdatedAt = (await loadBotAvatar(this.deps.db, this.config.id))?.updatedAt.getTime();
    await this.restoreQueue();
  }

  /** Restores the live-queue snapshot (`savedQueuesEnabled`); it plays once the bot is connected. */
  private async restoreQueue(): Promise<void> {
    if (!this.currentSettings.savedQueuesEnabled) return;
    const snapshot = await this.snapshots.load();
    if (!snapshot || snapshot.songs.length === 0) return;
    await this.serial.run(async () => {
      this.player.queue.append(snapshot.songs);
      if (snapshot.currentIndex !== null) {
        this.player.queue.playAt(snapshot.currentIndex);
        this.resumePoint = { positionSeconds: snapshot.positionSeconds, paused: false };
      }
      this.queueVersion++;
      this.log.info({ songs: snapshot.songs.length }, 'restored the queue snapshot');
    });
  }

  applySettings(settings: StoredSettings): void {
    const snapshotsWereOn = this.currentSettings.savedQueuesEnabled;
    this.currentSettings = settings;
    this.player.setVoiceDucking(settings.voiceDucking);
    this.session?.applySettings(settings);
    if (snapshotsWereOn && !settings.savedQueuesEnabled) this.snapshots.delete();
    if (!snapshotsWereOn && settings.savedQueuesEnabled) this.saveSnapshot();
  }

  /** A changed configuration applies now where it can; connection fields on the next start. */
  reconfigure(config: BotRow): void {
    this.config = config;
    // The daemon writes volume and mode through on every change, so a differing row was edited elsewhere.
    if (config.volume !== this.player.volume) this.player.setVolume(config.volume);
    if (config.playMode !== this.player.queue.mode) this.player.queue.setMode(config.playMode);
    this.player.setLoudnessTarget(loudnessTargetOf(config).loudnessTargetLufs);
    this.player.setCrossfadeSeconds(config.crossfadeSeconds);
    this.session?.reconfigure(config.profileConfig ?? PROFILE_DISABLED, this.ownNickname());
    void this.refreshAvatar();
    this.changed(false);
  }

  /**
   * Leaves the server and frees the player. On a daemon shutdown the queue snapshot is kept current,
   * written before the bot says goodbye. A bot `lost` to another daemon (its lease) goes silent at once,
   * before any command still running, and leaves its snapshot and profile to the new owner.
   */
  async dispose(reason: 'shutdown' | 'removed' | 'lost'): Promise<void> {
    if (reason === 'removed') this.removed = true;
    if (reason === 'lost') this.player.stopPlayback();
    await this.serial.run(async () => {
      this.disposing = true;
      if (reason === 'shutdown') this.saveSnapshot();
      if (reason === 'removed') this.snapshots.delete();
      await this.snapshots.flush();
      this.resumePoint = undefined;
      const left = await settleWithin(this.leaveServer(reason), GOODBYE_WAIT_MS);
      if (left.kind === 'failed') this.log.warn({ err: left.error }, 'leaving the voice server failed');
      if (left.kind === 'overran')
        this.log.warn('the voice server did not answer the goodbye; left without it');
      this.listenFeed.dispose();
      this.player.destroy();
    });
  }

  /** Restores the profile (not for a bot lost to another daemon), stops playback and disconnects. */
  private async leaveServer(reason: 'shutdown' | 'removed' | 'lost'): Promise<void> {
    if (this.connected && reason !== 'lost') await this.session?.profile.restoreDefaults();
    this.player.stopPlayback();
    await this.lifecycle.dispose();
  }

  /**
   * Writes the live-queue snapshot (`savedQueuesEnabled`, while connected). Besides every queue change,
   * the daemon calls it every few seconds so the position a dead daemon leaves behind is recent.
   */
  saveSnapshot(): void {
    if (!this.currentSettings.savedQueuesEnabled || !this.lifecycle.connected) return;
    const { songs, currentIndex } = this.player.queue.snapshot();
    this.snapshots.save({ songs, currentIndex, positionSeconds: this.player.elapsedSeconds });
  }

  /** While connected under another nickname than the configured one: both. */
  private nicknameTaken(): NicknameTaken | undefined {
    const join = this.joinNickname;
    return this.lifecycle.connected && join && join.used !== join.requested ? join : undefined;
  }

  /**
   * The nickname the bot goes by on the server when not showing a song: the one it joined with, unless
   * the configured one has changed since (it is asked for then, and the server decides).
   */
  private ownNickname(): string {
    const join = this.joinNickname;
    return join && join.requested === this.config.nickname ? join.used : this.config.nickname;
  }

  private createClient(nicknameAttempt: number): Ts3Client {
    const c = this.config;
    this.requestedChannel = configuredChannel(c);
    this.joinNickname = { requested: c.nickname, used: nicknameForAttempt(c.nickname, nicknameAttempt) };
    return new Ts3Client({
      address: c.serverAddress,
      port: c.serverPort,
      nickname: this.joinNickname.used,
      serverPassword: c.serverPassword ?? undefined,
      defaultChannel: this.requestedChannel,
      channelPassword: c.channelPassword ?? undefined,
      identity: storedIdentity(c.identity, this.log),
      connectTimeoutMs: CLIENT_CONNECT_TIMEOUT_MS,
      lossTimeoutMs: this.deps.ts3.lossTimeoutMs,
      licenseRoot: this.deps.ts3.licenseRoot,
      clientVersion: clientVersionOf(c.clientVersion),
      log: logger('ts3.client').child({ bot: c.id }),
    });
  }

  private onConnectionChange(from: ConnectionState, to: ConnectionState): void {
    if (to.status === 'connected') this.onConnected(to.client);
    if (from.status === 'connected') this.onConnectionLost();
    if (!this.disposing) this.changed(false);
  }

  private onConnected(client: Ts3Client): void {
    this.session = new ConnectionSession({
      client,
      player: this.player,
      sink: this.sink,
      settings: this.currentSettings,
      profile: {
        config: this.config.profileConfig ?? PROFILE_DISABLED,
        defaultNickname: this.ownNickname(),
        defaultAvatar: async () => (await loadBotAvatar(this.deps.db, this.config.id))?.data,
        coverArt: async (url) => {
          const ffmpeg = locateFfmpeg(this.deps.ffmpeg);
          if (!ffmpeg.ok) return err(ffmpeg.error);
          return coverArtAvatar(url, ffmpeg.value, coverMayBePrivate(url, this.currentSettings));
        },
      },
      ...(this.deps.chat ? { chat: this.chatDispatcher(this.deps.chat, client) } : {}),
      runSerial: (task) => this.serial.run(task),
      onIdleTimeout: () => {
        this.log.info('channel stayed empty; disconnecting');
        void this.serial.run(async () => void (await this.stop()));
      },
      onMembersChanged: () => void this.serial.run(async () => this.onMembersChanged()),
      log: this.log,
    });
    void this.rememberIdentity(client);
    void this.serial.run(async () => {
      this.saveSnapshot();
      const point = this.resumePoint;
      this.resumePoint = undefined;
      if (point && this.lifecycle.connected) await this.player.resumeFrom(point);
    });
  }

  /**
   * The queue stays; playback stops where it was and continues after a reconnect (or the next start,
   * after a kick). The snapshot is cancelled, except when the daemon shuts down and keeps it.
   */
  private onConnectionLost(): void {
    this.session?.dispose();
    this.session = undefined;
    if (this.disposing) return;
    this.snapshots.delete();
    void this.serial.run(async () => {
      this.resumePoint = this.player.suspend() ?? this.resumePoint;
    });
  }

  /** A voter who left clears the votes; who is there changes the votes needed, so the status is sent. */
  private onMembersChanged(): void {
    if (!this.player.nowPlaying) return;
    this.skipVotes.clearIfVoterLeft(new Set(this.channelPeople()));
    this.changed(false);
  }

  private chatDispatcher(chat: BotChat, client: Ts3Client): ChatDispatcher {
    return new ChatDispatcher({
      botId: this.config.id,
      clientFor: chat.api,
      voteSkip: async (sender) => {
        const actor = { id: `ts3:${sender.uid}`, username: sender.nickname, role: 'member' as const };
        const reply = await this.handle({
          op: 'voteSkip',
          args: { voter: { kind: 'channel', id: sender.uid } },
          actor,
        });
        return reply.message ?? receipts.requestFailed();
      },
      channels: {
        current: () => this.session?.joinedChannel(undefined),
        moveTo: async (id) => {
          await client.moveTo(id);
          // The status names the bot's channel.
          this.changed(false);
        },
      },
      adminGroups: () => this.currentSettings.adminGroups,
      prefix: chat.prefix,
    });
  }

  private async rememberIdentity(client: Ts3Client): Promise<void> {
    const identity = client.identity;
    if (!identity || identity.exportPlain() === this.config.identity) return;
    try {
      this.config = { ...this.config, identity: await storeIdentity(this.deps.db, this.config.id, identity) };
    } catch (error) {
      this.log.warn({ err: error }, 'could not store the identity');
    }
  }

  private async refreshAvatar(): Promise<void> {
    const avatar = await loadBotAvatar(this.deps.db, this.config.id);
    const updatedAt = avatar?.updatedAt.getTime();
    if (updatedAt === this.avatarUpdatedAt) return;
    this.avatarUpdatedAt = updatedAt;
    if (this.session && !this.player.nowPlaying) await this.session.profile.showDefaultAvatar();
  }
}

/** The player's loudness target by a bot's row: none while its normalization is off. */
function loudnessTargetOf(config: BotRow): { loudnessTargetLufs?: number } {
  return config.loudnessNormalization ? { loudnessTargetLufs: config.loudnessTarget } : {};
}
