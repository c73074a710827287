/**
 * The shapes of Spotify's answers that the `streaming_a` source reads, trimmed to the fields it uses.
 *
 * From Spotify's Web API reference (developer.spotify.com/documentation/web-api) as it stands after
 * the February 2026 changes for Development Mode apps (the usual app for a self-hosted bot): the token
 * answer of the Accounts service (`access_token`, `token_type`, `scope`, `expires_in`,
 * `refresh_token`, and `{error, error_description}` on refusal), TrackObject / SimplifiedTrackObject,
 * SimplifiedAlbumObject, AlbumObject, SimplifiedPlaylistObject (its item count under `items.total`,
 * formerly `tracks.total`), PlaylistObject, PlaylistTrackObject (the entry under `item`, formerly
 * `track`), the paging object (`items`, `next`, `total`), the current user's profile, the player's
 * device list, and the error object `{error: {status, message}}`. Fields the changes removed
 * (`popularity`, `available_markets`, the profile's `product`, …) are not read.
 */
import { z } from 'zod';

export const TokenAnswerSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string(),
  scope: z.string().optional(),
  expires_in: z.number().int().positive(),
  // A refresh answer may leave it out: the one we hold stays valid then.
  refresh_token: z.string().min(1).optional(),
});
export type TokenAnswer = z.infer<typeof TokenAnswerSchema>;

export const AccountsErrorSchema = z.object({
  error: z.string(),
  error_description: z.string().optional(),
});

export const WebApiErrorSchema = z.object({
  error: z.object({ status: z.number().optional(), message: z.string().optional() }),
});

const ImageSchema = z.object({ url: z.string() });
/** Spotify lists images widest first. */
const ImagesSchema = z.array(ImageSchema).nullish();
const ArtistSchema = z.object({ name: z.string() });

const SimplifiedAlbumSchema = z.object({
  id: z.string(),
  name: z.string(),
  artists: z.array(ArtistSchema).default([]),
  images: ImagesSchema,
  total_tracks: z.number().int().optional(),
});
export type SimplifiedAlbum = z.infer<typeof SimplifiedAlbumSchema>;

/** A track inside an album answer: no `album` of its own. */
const SimplifiedTrackSchema = z.object({
  id: z.string(),
  name: z.string(),
  duration_ms: z.number(),
  artists: z.array(ArtistSchema).default([]),
  is_playable: z.boolean().optional(),
});
export type SimplifiedTrack = z.infer<typeof SimplifiedTrackSchema>;

export const TrackSchema = SimplifiedTrackSchema.extend({
  album: SimplifiedAlbumSchema.pick({ id: true, name: true, images: true }),
});
export type Track = z.infer<typeof TrackSchema>;

const SimplifiedPlaylistSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullish(),
  images: ImagesSchema,
  /** The item count; absent from a playlist the account neither owns nor collaborates on. */
  items: z.object({ total: z.number().int() }).nullish(),
});
export type SimplifiedPlaylist = z.infer<typeof SimplifiedPlaylistSchema>;

const page = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), next: z.string().nullish(), total: z.number().int().optional() });

// Spotify answers `null` in place of items it cannot show (a removed playlist in a search).
export const SearchAnswerSchema = z.object({
  tracks: page(TrackSchema).optional(),
  albums: page(SimplifiedAlbumSchema).optional(),
  playlists: page(SimplifiedPlaylistSchema.nullable()).optional(),
});

export const AlbumSchema = SimplifiedAlbumSchema.extend({ tracks: page(SimplifiedTrackSchema) });
export const AlbumTracksPageSchema = page(SimplifiedTrackSchema);

export const PlaylistSchema = SimplifiedPlaylistSchema;

/**
 * One entry of a playlist (`GET /playlists/{id}/items`). `item` is null for a removed track, an
 * episode in a podcast playlist has `type: 'episode'`, and a local file has no id: none of them can be
 * played here.
 */
export const PlaylistItemsPageSchema = page(
  z.object({
    is_local: z.boolean().optional(),
    item: z
      .union([TrackSchema.extend({ type: z.literal('track').optional() }), z.object({ type: z.string() })])
      .nullable(),
  }),
);

export const PlaylistsPageSchema = page(SimplifiedPlaylistSchema.nullable());

export const ProfileSchema = z.object({
  id: z.string(),
  display_name: z.string().nullish(),
  images: ImagesSchema,
});

export const DevicesSchema = z.object({
  devices: z.array(z.object({ id: z.string().nullable(), name: z.string(), is_active: z.boolean() })),
});
