/**
 * The shapes of Jellyfin's answers this adapter reads, validated at the edge. Only the fields we use
 * are declared; zod drops the rest. Jellyfin leaves out null fields, so most are optional.
 *
 * Shapes from jellyfin/jellyfin: `BaseItemDto` and `QueryResult` (MediaBrowser.Model/Dto,
 * MediaBrowser.Model/Querying), `UserDto` and `AuthenticationResult` (Jellyfin.Api/Controllers/
 * UserController.cs), `PublicSystemInfo` (MediaBrowser.Model/System/PublicSystemInfo.cs) and
 * `LyricDto`/`LyricLine` (MediaBrowser.Model/Lyrics: `Start` in ticks, absent for unsynced lines);
 * `NormalizationGain` from Emby.Server.Implementations/Dto/DtoService.cs and
 * MediaBrowser.Providers/MediaInfo/AudioFileProber.cs (`REPLAYGAIN_TRACK_GAIN`).
 */
import { z } from 'zod';

/** 10,000,000 ticks (of 100 ns) per second: `RunTimeTicks`, `PositionTicks`, lyric `Start`. */
export const TICKS_PER_SECOND = 10_000_000;

export const ItemSchema = z.object({
  Id: z.string(),
  Name: z.string().nullish(),
  /** `Audio`, `MusicAlbum`, `Playlist`, `MusicGenre`, … */
  Type: z.string().nullish(),
  RunTimeTicks: z.number().nullish(),
  Artists: z.array(z.string()).nullish(),
  AlbumArtist: z.string().nullish(),
  Album: z.string().nullish(),
  AlbumId: z.string().nullish(),
  AlbumPrimaryImageTag: z.string().nullish(),
  /** Image type → tag; a `Primary` entry means the item has its own cover. */
  ImageTags: z.record(z.string(), z.string()).nullish(),
  /** Only with `Fields=ChildCount`: a folder's (album's, playlist's) number of entries. */
  ChildCount: z.number().nullish(),
  /** Only with `Fields=Overview`. */
  Overview: z.string().nullish(),
  /**
   * The dB that brings the track to -18 LUFS, where the server knows it (10.9+): from its own
   * measurement (`-18 - LUFS`) or the file's ReplayGain track gain. Sent with every item, no field
   * to ask for (DtoService.cs `AttachBasicFields`).
   */
  NormalizationGain: z.number().nullish(),
});
export type Item = z.infer<typeof ItemSchema>;

export const ItemsSchema = z.object({ Items: z.array(ItemSchema) });

export const UserSchema = z.object({
  Id: z.string(),
  Name: z.string(),
  PrimaryImageTag: z.string().nullish(),
  Policy: z.object({ IsAdministrator: z.boolean().nullish(), IsDisabled: z.boolean().nullish() }).nullish(),
});
export type User = z.infer<typeof UserSchema>;

export const AuthenticationResultSchema = z.object({ AccessToken: z.string().min(1), User: UserSchema });

export const PublicSystemInfoSchema = z.object({
  ServerName: z.string(),
  Version: z.string(),
  /** `Jellyfin Server`; other servers of the same lineage answer this endpoint too. */
  ProductName: z.string().nullish(),
});

export const LyricsSchema = z.object({
  Lyrics: z.array(z.object({ Text: z.string().nullish(), Start: z.number().nullish() })),
});
