/**
 * The `library_a` source at play time. `direct` (this platform's default) and the lossless qualities
 * play the original file (`/Audio/{id}/stream?static=true`); the lossy ones ask `/Audio/{id}/universal`
 * to send it as is when it fits the bitrate and to transcode it to MP3 otherwise. The token goes in
 * Jellyfin's own `Authorization: MediaBrowser … Token=…` header, which the daemon sends itself: in the
 * URL (`ApiKey`) it would reach ffmpeg's command line, readable by every local user. Playback is
 * reported to the server's sessions, so the server shows the bot as "now playing" and counts plays.
 * The song's look-up answers its `NormalizationGain` where the server knows it (its own measurement,
 * 10.9+, or the file's ReplayGain tag): that is the song's loudness, so the bot need not measure it.
 *
 * Parameters from jellyfin/jellyfin (Jellyfin.Api/Controllers/AudioController.cs `static`;
 * UniversalAudioController.cs `Container`, `TranscodingContainer`, `TranscodingProtocol`,
 * `AudioCodec`, `MaxStreamingBitrate`, `UserId`, `DeviceId`, `PlaySessionId`; PlaystateController.cs
 * `/Sessions/Playing[/Progress|/Stopped]` with `ItemId`, `PositionTicks`, `IsPaused`, `PlayMethod`,
 * `PlaySessionId`) and Jellyfin's API authorization notes (the `MediaBrowser` header).
 */
import { randomUUID } from 'node:crypto';
import type { Quality } from '../../domain/constants';
import { logger } from '../../logger';
import { err, ok, type Result } from '../../result';
import type { MusicSource, PlaybackReport, ResolvedStream, StreamRequest } from '../music-source';
import { loudnessFromTrackGain } from '../platform-loudness';
import type { JellyfinClient } from './jellyfin-client';
import { authorizationHeader, JELLYFIN_DEVICE_ID, jellyfinUrl } from './jellyfin-http';
import { findItem } from './jellyfin-item-lookup';
import { TICKS_PER_SECOND } from './jellyfin-schemas';

/** The cap (bits per second) of each lossy quality; every other quality plays the original file. */
export const JELLYFIN_BITRATES: Partial<Record<Quality, number>> = {
  standard: 128_000,
  higher: 192_000,
  exhigh: 320_000,
};
/** Containers a bot plays as they are when within the cap; anything else is transcoded to MP3. */
const DIRECT_CONTAINERS = 'mp3,aac,m4a|aac,m4b|aac,ogg,opus,webma';
/** Playbacks remembered for their reports; a bot reports a song's stop long before this many start. */
const REMEMBERED_PLAYBACKS = 64;

type PlayMethod = 'DirectPlay' | 'Transcode';

interface Playback {
  playMethod: PlayMethod;
  /** Ties the reports to the stream, so the server ends its transcoding when the song stops. */
  playSessionId: string;
}

export class JellyfinSource implements MusicSource {
  readonly platform = 'library_a' as const;
  private readonly playbacks = new Map<string, Playback>();
  private readonly log = logger('sources.jellyfin');

  constructor(private readonly client: JellyfinClient) {}

  async resolveStream(song: StreamRequest): Promise<Result<ResolvedStream>> {
    // Asking for the song first also renews an expired token before it goes into the URL.
    const found = await findItem(this.client, song.id, 'Audio');
    if (!found.ok) return found;
    if (!found.value) return err(`Jellyfin does not know the song ${song.id}`);
    const { data: item, session } = found.value;
    const bitrate = JELLYFIN_BITRATES[song.quality ?? 'direct'];
    const playback: Playback = {
      playMethod: bitrate === undefined ? 'DirectPlay' : 'Transcode',
      playSessionId: randomUUID().replaceAll('-', ''),
    };
    this.remember(song.id, playback);
    const url =
      bitrate === undefined
        ? jellyfinUrl(session.serverUrl, `/Audio/${item.Id}/stream`, { static: true })
        : jellyfinUrl(session.serverUrl, `/Audio/${item.Id}/universal`, {
            UserId: session.userId,
            DeviceId: JELLYFIN_DEVICE_ID,
            MaxStreamingBitrate: bitrate,
            Container: DIRECT_CONTAINERS,
            TranscodingContainer: 'mp3',
            TranscodingProtocol: 'http',
            AudioCodec: 'mp3',
            PlaySessionId: playback.playSessionId,
          });
    return ok({
      input: { kind: 'url', url, headers: { authorization: authorizationHeader(session.token) } },
      // The server's figure is the original file's; a transcode keeps its loudness.
      ...(item.NormalizationGain != null && { loudness: loudnessFromTrackGain(item.NormalizationGain) }),
    });
  }

  async reportPlayback(report: PlaybackReport): Promise<void> {
    // Never throws: a report is a courtesy to the server, and playing goes on without it.
    const sent = await this.send(report).catch((error: unknown) =>
      err(error instanceof Error ? error.message : 'unknown error'),
    );
    // The error sentences name the service and the status, never the token.
    if (!sent.ok)
      this.log.warn(
        { songId: report.songId, report: report.kind, error: sent.error },
        'playback report failed',
      );
  }

  private send(report: PlaybackReport): Promise<Result<void>> {
    const playback = this.playbacks.get(report.songId);
    const common = { ItemId: report.songId, ...(playback && { PlaySessionId: playback.playSessionId }) };
    const playing = { ...common, PlayMethod: playback?.playMethod ?? 'DirectPlay', CanSeek: false };
    switch (report.kind) {
      case 'started':
        return this.client.post('/Sessions/Playing', { ...playing, PositionTicks: 0, IsPaused: false });
      case 'progress':
        return this.client.post('/Sessions/Playing/Progress', {
          ...playing,
          PositionTicks: toTicks(report.positionSeconds),
          IsPaused: report.paused,
        });
      case 'stopped':
        this.playbacks.delete(report.songId);
        return this.client.post('/Sessions/Playing/Stopped', {
          ...common,
          PositionTicks: toTicks(report.positionSeconds),
        });
    }
  }

  private remember(songId: string, playback: Playback): void {
    this.playbacks.delete(songId);
    this.playbacks.set(songId, playback);
    const oldest = this.playbacks.keys().next().value;
    if (this.playbacks.size > REMEMBERED_PLAYBACKS && oldest !== undefined) this.playbacks.delete(oldest);
  }
}

const toTicks = (seconds: number) => Math.round(seconds * TICKS_PER_SECOND);
