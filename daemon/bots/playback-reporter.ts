/**
 * Tells a song's source about its playback (Jellyfin shows it as "now playing" and counts plays):
 * started when a track starts, progress every 10 s while it plays, stopped when it ends, is replaced
 * or playback stops. Only for sources that ask for it; reports never wait on or fail the player.
 */
import type { Logger } from '../../shared/logger';
import type { PlaybackReport } from '../../shared/sources/music-source';
import type { SourceRegistry } from '../../shared/sources/source-registry';
import type { PlayableSong } from './playable-song';

export const PROGRESS_INTERVAL_MS = 10_000;

export interface PlayPosition {
  seconds: number;
  paused: boolean;
}

export class PlaybackReporter {
  private song: PlayableSong | undefined;
  private lastPosition = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sources: SourceRegistry,
    private readonly position: () => PlayPosition,
    private readonly log: Logger,
  ) {}

  trackStarted(song: PlayableSong): void {
    this.finish();
    if (!this.sources.reportsPlayback(song.platform)) return;
    this.song = song;
    this.lastPosition = 0;
    this.send(song, { kind: 'started', songId: song.id });
    this.timer = setInterval(() => this.progress(), PROGRESS_INTERVAL_MS);
    this.timer.unref();
  }

  /** The current track is over (ended, replaced, stopped): its stop report, once. */
  finish(): void {
    const song = this.song;
    if (!song) return;
    clearInterval(this.timer);
    this.song = undefined;
    this.send(song, { kind: 'stopped', songId: song.id, positionSeconds: this.lastPosition });
  }

  private progress(): void {
    if (!this.song) return;
    const { seconds, paused } = this.position();
    this.lastPosition = seconds;
    this.send(this.song, { kind: 'progress', songId: this.song.id, positionSeconds: seconds, paused });
  }

  private send(song: PlayableSong, report: PlaybackReport): void {
    this.sources
      .reportPlayback(song.platform, report)
      .catch((error: unknown) => this.log.warn({ err: error, kind: report.kind }, 'playback report failed'));
  }
}
