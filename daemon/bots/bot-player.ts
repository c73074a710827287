/**
 * One bot's queue joined to its audio player: which song plays, resolving its stream at play time,
 * moving on when a track ends or cannot be played, pause reasons, and the numbers BotStatus shows.
 *
 * Near a song's end (the audio player's `nearEnd`) the song the queue would move to is resolved and
 * queued behind it in the player, so it follows without a gap or with the bot's crossfade; after the
 * queue's last song (mode `seq`) that is autoplay's song, which joins the queue only when it starts,
 * so a song someone adds meanwhile still goes first. The queue may change meanwhile: after each of
 * the bot's commands `reviewUpcoming` drops a queued song that is no longer next and queues the one
 * that is; when the player joins the two, the queue moves on to it.
 *
 * `playing`/`paused` are read from the audio player's state union, never kept as flags of their own.
 * Track ends arrive from the frame clock at any time; they are handed to `runSerial` so they take their
 * turn with the bot's commands (one writer for the queue).
 */
import { EventEmitter } from 'node:events';
import type { Logger } from '../../shared/logger';
import type { ResolvedStream } from '../../shared/sources/music-source';
import type { SourceRegistry } from '../../shared/sources/source-registry';
import { AudioPlayer, type AudioPlayerOptions } from '../audio/audio-player';
import type { AudioPlayerState, TrackEnd } from '../audio/audio-player-state';
import type { FrameHealthSnapshot } from '../audio/clock/frame-health';
import type { DecodeProblem } from '../audio/decode/decode-problem';
import type { LoudnessReport } from '../audio/engine/track-pipeline';
import type { Track } from '../audio/track';
import { type PlayableSong, withStreamTitle } from './playable-song';
import { SongQueue } from './queue';

/** Songs tried in a row before giving up (SPEC's play-playlist retry limit, used for every skip run). */
export const MAX_PLAY_ATTEMPTS = 20;

export type PauseReason = 'user' | 'emptyChannel';

/**
 * A song that could not play: `reason` in English for the log; `problem` the decoder's kind of failure,
 * absent when the song's source said why (`reason` is then its sentence). play-failure.ts words both.
 */
export interface PlayFailure {
  song: PlayableSong;
  reason: string;
  problem?: DecodeProblem;
}

export interface PlayOutcome {
  /** The song now playing, or undefined when nothing could be started. */
  song: PlayableSong | undefined;
  /** Songs that could not be played on the way, in order. */
  failures: PlayFailure[];
  /** Set when playback stopped instead of moving on (ffmpeg keeps failing to start). */
  stopped?: true;
}

export interface NowPlaying {
  song: PlayableSong;
  track: Track;
  /** The play length: the preview length for a preview clip, else the song's duration when known. */
  effectiveDuration: number | undefined;
  /** A live stream: it cannot seek. */
  live: boolean;
  /** What a live stream says plays now (its ICY StreamTitle), once it has said so. */
  streamTitle?: string;
}

/** Where to pick up after a reconnect or a daemon restart. */
export interface ResumePoint {
  positionSeconds: number;
  paused: boolean;
}

export interface BotPlayerEvents {
  /** BotStatus changed; `queueChanged` when the songs or the current index changed. */
  change: [queueChanged: boolean];
  trackStart: [song: PlayableSong];
  /** A song failed after its command had answered; `stopped` when playback stopped because of it. */
  trackFailed: [failure: PlayFailure, stopped: boolean];
  /** A song's stream sent nothing for `stallSeconds`; the queue has moved on. */
  trackStalled: [song: PlayableSong, stallSeconds: number];
  /** A live stream named what plays now; `song` is shown with that title (withStreamTitle). */
  streamTitle: [song: PlayableSong];
  pauseChange: [paused: boolean];
  /** Playback ended: nothing left to play, stopped, or suspended. */
  idle: [];
}

export interface BotPlayerOptions {
  sources: SourceRegistry;
  runSerial: (task: () => Promise<void>) => Promise<void>;
  log: Logger;
  player: AudioPlayerOptions;
  /**
   * Asked when the queue ran out in order after `last` played to its end: a song to go on with
   * (autoplay), or undefined to stop.
   */
  whenQueueEnds?: (last: PlayableSong) => Promise<PlayableSong | undefined>;
}

type Category = 'idle' | 'playing' | 'paused';
type TrackError = Extract<TrackEnd, { reason: 'error' }>;

export class BotPlayer extends EventEmitter<BotPlayerEvents> {
  readonly queue = new SongQueue<PlayableSong>();
  private readonly audio: AudioPlayer;
  private current: NowPlaying | undefined;
  private pauseReason: PauseReason | undefined;
  /** While a track is being started, its synchronous failure (no ffmpeg) is caught here. */
  private startFailure: ((track: Track, end: TrackEnd) => void) | undefined;
  /**
   * The song queued in the player behind the current one: its queue key (undefined for autoplay's
   * song, not queued yet), and the queue's revision then.
   */
  private upcoming: { key: number | undefined; revision: number; nowPlaying: NowPlaying } | undefined;
  /** Autoplay had no song to follow this track, asked ahead at this queue revision: not asked again. */
  private autoplayDeclined: { track: Track; revision: number } | undefined;
  /** The track the player has said is near its end: from then on the next song is queued behind it. */
  private nearEndTrack: Track | undefined;
  /** The queue's revision when the song to queue behind the current one was last looked for. */
  private lookedAt: number | undefined;

  constructor(private readonly options: BotPlayerOptions) {
    super();
    this.audio = new AudioPlayer(options.player);
    this.audio.on('trackStart', (track) => {
      if (this.current?.track === track) this.emit('trackStart', this.current.song);
    });
    this.audio.on('trackEnd', (track, end) => this.onTrackEnd(track, end));
    this.audio.on('trackJoined', (ended, end, next) => this.onTrackJoined(ended, end, next));
    // Said on the frame clock: the work (a stream to resolve) waits until the tick is over.
    this.audio.on('nearEnd', (track) => {
      this.nearEndTrack = track;
      setImmediate(() => void this.queueUpcoming(track));
    });
    this.audio.on('streamTitle', (track, title) => {
      const now = this.current;
      if (now?.track !== track) return;
      now.streamTitle = title;
      this.emit('change', false);
      this.emit('streamTitle', withStreamTitle(now.song, title));
    });
    this.audio.on('stateChange', (from, to) => {
      if (category(from) !== category(to)) this.emit('change', false);
    });
    this.audio.on('error', (error) => options.log.warn({ err: error }, 'audio player error'));
  }

  get nowPlaying(): NowPlaying | undefined {
    return this.current;
  }

  get playing(): boolean {
    return category(this.audio.state) === 'playing';
  }

  get paused(): boolean {
    return this.audio.state.status === 'paused';
  }

  get elapsedSeconds(): number {
    return this.audio.elapsedSeconds;
  }

  /** Frames sent, late and missed by this bot's audio player since it was made. */
  get frameHealth(): FrameHealthSnapshot {
    return this.audio.frameHealth;
  }

  get volume(): number {
    return this.audio.volume;
  }

  /** Clamped (clampVolume) and applied; returns the volume applied. */
  setVolume(volume: number): number {
    const clamped = clampVolume(volume);
    this.audio.setVolume(clamped);
    return clamped;
  }

  /** The loudness tracks are brought to, the one playing included (undefined: as they are). */
  setLoudnessTarget(targetLufs: number | undefined): void {
    this.audio.setLoudnessTarget(targetLufs);
  }

  /** The current track's normalization gain and its figure's source, once known. */
  get loudness(): LoudnessReport | undefined {
    return this.audio.loudness;
  }

  /** The crossfade between songs from the next song queued on (0: gapless). */
  setCrossfadeSeconds(seconds: number): void {
    this.audio.setCrossfade(Math.round(seconds));
  }

  setVoiceDucking(ducking: { enabled: boolean; volumePercent: number }): void {
    this.audio.setVoiceDucking(ducking);
  }

  setOthersTalking(talking: boolean): void {
    this.audio.setOthersTalking(talking);
  }

  /**
   * Plays the queue's current song from `startAtSeconds`. A song that cannot be resolved or started is
   * skipped (the queue moves on under its mode), at most MAX_PLAY_ATTEMPTS songs in a row.
   */
  async playFromCurrent(startAtSeconds = 0, resolved?: ResolvedStream): Promise<PlayOutcome> {
    const failures: PlayFailure[] = [];
    let position = startAtSeconds;
    let stream = resolved;
    for (let attempt = 0; attempt < MAX_PLAY_ATTEMPTS; attempt++) {
      const song = this.queue.current();
      if (!song) break;
      const result = stream
        ? { ok: true as const, value: stream }
        : await this.options.sources.resolveStream(song);
      stream = undefined;
      if (result.ok) {
        const failure = this.startTrack(song, result.value, position);
        if (!failure) return { song, failures };
        failures.push({ song, reason: failure.message, problem: failure.problem });
        if (failure.stopPlayback) {
          this.stopPlayback();
          return { song: undefined, failures, stopped: true };
        }
      } else {
        failures.push({ song, reason: result.error });
      }
      this.options.log.warn(
        { song: song.id, platform: song.platform, reason: failures.at(-1)?.reason },
        'skipping a song that cannot play',
      );
      position = 0;
      if (this.queue.next() === undefined) break;
    }
    this.stopPlayback();
    return { song: undefined, failures };
  }

  /** False when nothing plays. A pause by a user replaces an automatic one, so it is not undone by it. */
  pause(reason: PauseReason): boolean {
    if (this.paused) {
      if (reason === 'user') this.pauseReason = 'user';
      return true;
    }
    if (!this.audio.pause()) return false;
    this.pauseReason = reason;
    this.emit('pauseChange', true);
    return true;
  }

  /** An automatic resume only undoes an automatic pause. False when there is nothing to resume. */
  resume(reason: PauseReason): boolean {
    if (reason === 'emptyChannel' && this.pauseReason !== 'emptyChannel') return false;
    if (!this.audio.resume()) return false;
    this.pauseReason = undefined;
    this.emit('pauseChange', false);
    return true;
  }

  /**
   * Restarts the pipeline at `positionSeconds`; returns the offset actually used, undefined when idle,
   * or `live` for a live stream, which has no position to go to.
   */
  seek(positionSeconds: number): number | 'live' | undefined {
    const now = this.current;
    if (!now) return undefined;
    if (now.live) return 'live';
    const offset = Math.max(0, Math.min(positionSeconds, now.effectiveDuration ?? Number.POSITIVE_INFINITY));
    // The player drops the queued song: it is queued again when the song nears its end from here.
    this.upcoming = undefined;
    this.nearEndTrack = undefined;
    if (!this.audio.seek(offset)) return undefined;
    this.emit('change', false);
    return offset;
  }

  stopPlayback(): void {
    const wasPlaying = this.current !== undefined;
    this.current = undefined;
    this.upcoming = undefined;
    this.pauseReason = undefined;
    this.audio.stop();
    if (!wasPlaying) return;
    this.emit('change', false);
    this.emit('idle');
  }

  /** Where the current song is, to continue from it later; undefined when nothing plays. */
  get resumePoint(): ResumePoint | undefined {
    return this.current ? { positionSeconds: this.elapsedSeconds, paused: this.paused } : undefined;
  }

  /** Stops and remembers where it was, to continue with `resume…` after a reconnect. */
  suspend(): ResumePoint | undefined {
    const point = this.resumePoint;
    if (point) this.stopPlayback();
    return point;
  }

  async resumeFrom(point: ResumePoint): Promise<PlayOutcome> {
    const outcome = await this.playFromCurrent(point.positionSeconds);
    if (outcome.song && point.paused) this.pause('user');
    return outcome;
  }

  destroy(): void {
    this.current = undefined;
    this.audio.destroy();
    this.removeAllListeners();
  }

  /**
   * After each of the bot's commands, once the current song is near its end: a song queued behind it
   * that the queue would no longer move to (a song removed, moved or added first, the mode changed) is
   * dropped, and the one it would move to now (a song added since, too) is queued instead.
   */
  reviewUpcoming(): void {
    const now = this.current;
    if (!now || now.track !== this.nearEndTrack) return;
    const upcoming = this.upcoming;
    if (upcoming) {
      if (upcoming.revision === this.queue.revision) return;
      if (this.queue.upcoming()?.key === upcoming.key) {
        upcoming.revision = this.queue.revision;
        return;
      }
      this.upcoming = undefined;
      this.audio.cancelNext();
    } else if (this.lookedAt === this.queue.revision) return;
    setImmediate(() => void this.queueUpcoming(now.track));
  }

  /** Resolves the song the queue would move to after `track` and queues it in the player behind it. */
  private async queueUpcoming(track: Track): Promise<void> {
    const now = this.current;
    if (now?.track !== track || now.live || this.upcoming) return;
    const revision = this.queue.revision;
    this.lookedAt = revision;
    const next = this.queue.upcoming() ?? (await this.autoplayAhead(track, revision));
    if (!next) return;
    // Resolved outside the bot's turn: a slow platform holds up no command. One that fails is tried
    // again, and its failure told, when its turn comes.
    const resolved = await this.options.sources.resolveStream(next.song);
    if (!resolved.ok) return;
    await this.options.runSerial(async () => {
      if (this.current?.track !== track || this.queue.revision !== revision || this.upcoming) return;
      const nowPlaying = nowPlayingOf(next.song, resolved.value, this.renewerOf(next.song));
      if (!this.audio.queueNext(nowPlaying.track, !now.live && !nowPlaying.live)) return;
      this.upcoming = { key: next.key, revision, nowPlaying };
    });
  }

  /** Autoplay's song to follow `track`, the queue's last song in order; undefined when there is none. */
  private async autoplayAhead(
    track: Track,
    revision: number,
  ): Promise<{ key: undefined; song: PlayableSong } | undefined> {
    const last = this.current;
    if (this.queue.mode !== 'seq' || !this.options.whenQueueEnds || last?.track !== track) return undefined;
    const song = await this.options.whenQueueEnds(last.song);
    if (!song) this.autoplayDeclined = { track, revision };
    return song && { key: undefined, song };
  }

  /**
   * The player went on with the queued song. It is current at once (its start is heard now); the queue
   * moves on to it in the bot's turn, and if the queue changed in a way no review has seen yet, what
   * the queue says now plays instead.
   */
  private onTrackJoined(ended: Track, end: TrackEnd, next: Track): void {
    const upcoming = this.upcoming;
    this.upcoming = undefined;
    if (this.current?.track !== ended || upcoming?.nowPlaying.track !== next) return;
    const endedSong = this.current.song;
    this.current = upcoming.nowPlaying;
    this.pauseReason = undefined;
    void this.options.runSerial(async () => {
      if (end.reason === 'stalled') this.emit('trackStalled', endedSong, end.stallSeconds);
      if (end.reason === 'error')
        this.emit('trackFailed', { song: endedSong, reason: end.message, problem: end.problem }, false);
      if (this.current !== upcoming.nowPlaying) return;
      // Autoplay's song joins the queue now, where the queue has nothing else to move to.
      if (this.queue.next() === undefined && upcoming.key === undefined) {
        this.queue.append([upcoming.nowPlaying.song]);
        this.queue.next();
        this.emit('change', true);
        return;
      }
      if (upcoming.key !== undefined && this.queue.currentKey() === upcoming.key) {
        this.emit('change', true);
        return;
      }
      const outcome = await this.playFromCurrent();
      const last = outcome.failures.length - 1;
      for (const [i, failure] of outcome.failures.entries())
        this.emit('trackFailed', failure, outcome.stopped === true && i === last);
      this.emit('change', true);
    });
  }

  private startTrack(
    song: PlayableSong,
    stream: ResolvedStream,
    startAtSeconds: number,
  ): TrackError | undefined {
    const nowPlaying = nowPlayingOf(song, stream, this.renewerOf(song));
    const { track } = nowPlaying;
    this.current = nowPlaying;
    this.upcoming = undefined;
    this.pauseReason = undefined;
    let failure: TrackError | undefined;
    this.startFailure = (ended, end) => {
      if (ended === track && end.reason === 'error') failure = end;
    };
    try {
      this.audio.play(track);
    } finally {
      this.startFailure = undefined;
    }
    if (failure) return failure;
    if (startAtSeconds > 0) this.audio.seek(startAtSeconds);
    this.emit('change', true);
    return undefined;
  }

  /** The song resolved again as its play did: a fresh stream when its signed address has expired. */
  private renewerOf(song: PlayableSong): Track['renew'] {
    return async () => {
      const resolved = await this.options.sources.resolveStream(song);
      return resolved.ok ? resolved.value.input : undefined;
    };
  }

  private onTrackEnd(track: Track, end: TrackEnd): void {
    if (this.startFailure) {
      this.startFailure(track, end);
      return;
    }
    // Our own stops (a new track, stop, seek) clear `current` first; nothing more to do for them.
    if (end.reason === 'stopped' || this.current?.track !== track) return;
    void this.options.runSerial(() => this.advanceAfter(track, end));
  }

  /** Queues what `whenQueueEnds` gives after `last` and makes it current. */
  private async goOnAfter(last: PlayableSong): Promise<void> {
    const song = await this.options.whenQueueEnds?.(last);
    if (!song || this.queue.current()) return;
    this.queue.append([song]);
    this.queue.next();
  }

  /** The ended track stays `current` until the next one starts, so a run that plays nothing ends idle. */
  private async advanceAfter(track: Track, end: TrackEnd): Promise<void> {
    const now = this.current;
    if (now?.track !== track) return;
    if (end.reason === 'stalled') this.emit('trackStalled', now.song, end.stallSeconds);
    if (end.reason === 'error') {
      this.emit(
        'trackFailed',
        { song: now.song, reason: end.message, problem: end.problem },
        end.stopPlayback,
      );
      if (end.stopPlayback) {
        this.stopPlayback();
        return;
      }
    }
    // Autoplay that had nothing when asked ahead, the queue unchanged since, is not asked again.
    const declined =
      this.autoplayDeclined?.track === track && this.autoplayDeclined.revision === this.queue.revision;
    this.autoplayDeclined = undefined;
    if (this.queue.next() === undefined && this.queue.mode === 'seq' && !declined)
      await this.goOnAfter(now.song);
    const outcome = await this.playFromCurrent();
    const last = outcome.failures.length - 1;
    for (const [i, failure] of outcome.failures.entries())
      this.emit('trackFailed', failure, outcome.stopped === true && i === last);
    this.emit('change', true);
  }
}

/** What plays when `song` plays from `stream`: the player's track and what the status shows. */
function nowPlayingOf(song: PlayableSong, stream: ResolvedStream, renew: Track['renew']): NowPlaying {
  const duration = stream.previewSeconds ?? (song.duration > 0 ? song.duration : undefined);
  const track: Track = {
    input: stream.input,
    renew,
    durationSeconds: duration,
    ...(stream.loudness ? { loudness: stream.loudness } : {}),
    // A source's preview may be cut from the full song: the player stops at the preview's end.
    ...(stream.previewSeconds === undefined ? {} : { stopAtSeconds: stream.previewSeconds }),
  };
  const live =
    stream.live === true || (stream.input.kind === 'url' && stream.input.userAddress?.live === true);
  return { song, track, effectiveDuration: duration, live };
}

/** Clamped to 0-100 and rounded: the api validates, but the daemon never trusts a number blindly. */
export function clampVolume(volume: number): number {
  return Math.round(Math.min(100, Math.max(0, Number.isFinite(volume) ? volume : 0)));
}

function category(state: AudioPlayerState): Category {
  switch (state.status) {
    case 'idle':
      return 'idle';
    case 'buffering':
    case 'playing':
      return 'playing';
    case 'paused':
      return 'paused';
  }
}
