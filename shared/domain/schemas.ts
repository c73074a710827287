/**
 * Domain shapes shared by the api, the daemon, the bus and the generated client. Each schema the
 * web UI touches carries an OpenAPI name so it becomes a named type in the client.
 */
import { z } from '@hono/zod-openapi';
import { AUTOPLAY_MODES, CROSSFADE_SECONDS_RANGE, PLAY_MODES } from './constants';
import { LOUDNESS_TARGET_RANGE } from './loudness';
import { PLATFORM_DESCRIPTION, PLATFORMS } from './platforms';

export const PlatformSchema = z.enum(PLATFORMS).openapi('Platform', { description: PLATFORM_DESCRIPTION });

export const PlayModeSchema = z.enum(PLAY_MODES).openapi('PlayMode', {
  description:
    'seq plays the queue once; loop repeats it; random shuffles once through; rloop shuffles forever.',
});

export const SongSchema = z
  .object({
    id: z
      .string()
      .openapi({ description: 'Id within the platform; the parts of a video use `<video_id>?p=<part>`.' }),
    name: z.string(),
    artist: z.string(),
    album: z.string(),
    duration: z.number().openapi({ description: 'Seconds' }),
    coverUrl: z.string(),
    platform: PlatformSchema,
    vip: z
      .boolean()
      .optional()
      .openapi({ description: 'VIP or copyright-restricted: only a preview plays.' }),
  })
  .openapi('Song');
export type Song = z.infer<typeof SongSchema>;

export const QueuedSongSchema = SongSchema.omit({ vip: true })
  .extend({
    requestedBy: z
      .string()
      .optional()
      .openapi({ description: 'Username of the requester, the guest label, or the chat nickname.' }),
    entryId: z.number().int().nonnegative().optional().openapi({
      description:
        "This entry's identity in the bot's live queue, stable while it stays queued: two copies of one song differ. In `currentSong`, the entry playing (absent once that entry left the queue).",
    }),
  })
  .openapi('QueuedSong');
export type QueuedSong = z.infer<typeof QueuedSongSchema>;

export const AlbumSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    artist: z.string(),
    coverUrl: z.string(),
    songCount: z.number().int(),
    platform: PlatformSchema,
  })
  .openapi('Album');
export type Album = z.infer<typeof AlbumSchema>;
export const PlaylistSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    coverUrl: z.string(),
    songCount: z.number().int(),
    platform: PlatformSchema,
  })
  .openapi('Playlist');
export type Playlist = z.infer<typeof PlaylistSchema>;

export const PlaylistDetailSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    coverUrl: z.string(),
    songCount: z.number().int(),
  })
  .openapi('PlaylistDetail');
export type PlaylistDetail = z.infer<typeof PlaylistDetailSchema>;

export const SkipTallySchema = z
  .object({
    votes: z.number().int().min(0).openapi({ description: 'Votes to skip the current song so far.' }),
    needed: z
      .number()
      .int()
      .min(0)
      .openapi({
        description:
          'Votes that skip it: `voteSkipRatio` of the people in the channel and the web voters, at least 1 ' +
          '(0 while nothing plays).',
      }),
  })
  .openapi('SkipTally');
export type SkipTally = z.infer<typeof SkipTallySchema>;

export const JoinedChannelSchema = z
  .object({
    id: z.number().int().openapi({ description: 'Channel id on the voice server.' }),
    name: z.string(),
    missing: z
      .string()
      .optional()
      .openapi({
        description:
          'The configured channel (`channelId` or `defaultChannel`) when the server has no such channel: ' +
          'the server put the bot in its default channel instead.',
      }),
  })
  .openapi('JoinedChannel');
export type JoinedChannel = z.infer<typeof JoinedChannelSchema>;

export const NicknameTakenSchema = z
  .object({
    requested: z.string().openapi({ description: 'The configured nickname, which another client has.' }),
    used: z.string().openapi({ description: 'The nickname the bot connected with instead.' }),
  })
  .openapi('NicknameTaken');
export type NicknameTaken = z.infer<typeof NicknameTakenSchema>;

export const LoudnessStatusSchema = z
  .object({
    enabled: z
      .boolean()
      .openapi({ description: 'Every track is brought to `targetLufs` (on for a new bot)' }),
    targetLufs: z.number().int().min(LOUDNESS_TARGET_RANGE.min).max(LOUDNESS_TARGET_RANGE.max),
    gainDb: z
      .number()
      .optional()
      .openapi({
        description:
          "The gain the current track gets to reach the target (dB), once known: the limiter's momentary " +
          'cut under the ceiling of -1 dBTP apart.',
      }),
    source: z
      .enum(['platform', 'tags', 'measured'])
      .optional()
      .openapi({
        description:
          "Where the current track's loudness figure comes from: the platform's own, the file's ReplayGain " +
          'or R128 tags, or measured (an upload when sent, any other stream as it decodes)',
      }),
  })
  .openapi('LoudnessStatus');

const TARGET_RANGE = `targetLufs must be a whole number from ${LOUDNESS_TARGET_RANGE.min} to ${LOUDNESS_TARGET_RANGE.max}`;
export const LoudnessChangeSchema = z
  .strictObject({
    enabled: z.boolean().optional(),
    targetLufs: z
      .number()
      .int(TARGET_RANGE)
      .min(LOUDNESS_TARGET_RANGE.min, TARGET_RANGE)
      .max(LOUDNESS_TARGET_RANGE.max, TARGET_RANGE)
      .optional(),
  })
  .openapi('LoudnessChange', { description: 'Only the fields sent change.' });

export const AutoplayModeSchema = z.enum(AUTOPLAY_MODES).openapi('AutoplayMode', {
  description:
    '`related`: when the queue runs out (play mode `seq`), songs like the last one follow, one at a time, ' +
    'marked `requestedBy: "Autoplay"`; `off`: the bot stops.',
});

const CROSSFADE_RANGE = `seconds must be a whole number from ${CROSSFADE_SECONDS_RANGE.min} to ${CROSSFADE_SECONDS_RANGE.max}`;
export const CrossfadeSecondsSchema = z
  .number()
  .int(CROSSFADE_RANGE)
  .min(CROSSFADE_SECONDS_RANGE.min, CROSSFADE_RANGE)
  .max(CROSSFADE_SECONDS_RANGE.max, CROSSFADE_RANGE)
  .openapi('CrossfadeSeconds', {
    description:
      'How many seconds the next song starts under the end of the current one (an equal-power fade); ' +
      '0 (the default) joins songs without a gap.',
  });

export const BotStatusSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    connected: z.boolean(),
    playing: z.boolean(),
    paused: z.boolean(),
    // A union, not `.nullable()`: the latter marks the shared QueuedSong component itself nullable.
    currentSong: z.union([QueuedSongSchema, z.null()]),
    queueSize: z.number().int(),
    volume: z.number().min(0).max(100),
    playMode: PlayModeSchema,
    elapsed: z.number().openapi({
      description: 'Seconds played of the current track: frames actually sent plus the seek offset, clamped.',
    }),
    effectiveDuration: z.number().optional().openapi({
      description: 'Actual play length of the current track (the preview length for a preview).',
    }),
    skipVotes: SkipTallySchema,
    listeners: z.number().int().min(0).openapi({
      description: 'How many listen along in a browser or player (GET /api/player/{botId}/listen).',
    }),
    channel: JoinedChannelSchema.optional().openapi({
      description: 'The channel the bot is in, while connected (an addition: older daemons leave it out).',
    }),
    nicknameTaken: NicknameTakenSchema.optional().openapi({
      description:
        'While connected under another nickname than the configured one, because the server had that one ' +
        'in use when the bot joined (an addition: older daemons leave it out).',
    }),
    autoplay: AutoplayModeSchema.optional().openapi({
      description: 'An addition: older daemons leave it out.',
    }),
    crossfadeSeconds: CrossfadeSecondsSchema.optional().openapi({
      description: 'An addition: older daemons leave it out.',
    }),
    loudness: LoudnessStatusSchema.optional().openapi({
      description: 'Loudness normalization (an addition: older daemons leave it out).',
    }),
  })
  .openapi('BotStatus');
export type BotStatus = z.infer<typeof BotStatusSchema>;
