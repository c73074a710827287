/**
 * Player routes (SPEC.md "Player: /api/player/:botId"). Every route needs access to the bot; the
 * capability and the guest flag differ per route. `message` is the same receipt text the matching
 * chat command replies with.
 */
import { z } from '@hono/zod-openapi';
import type { RoutePolicy } from '../../shared/access/route-access';
import type { GuestPermission } from '../../shared/domain/constants';
import {
  AutoplayModeSchema,
  BotStatusSchema,
  CrossfadeSecondsSchema,
  LoudnessChangeSchema,
  PlatformSchema,
  PlayModeSchema,
  QueuedSongSchema,
  SongSchema,
} from '../../shared/domain/schemas';
import { errors, jsonBody, jsonResponse, receiptFields } from '../errors';
import { platformsNamed } from '../platform-prose';
import { defineRoute } from '../policy';
import { BotIdParamSchema, TimestampSchema } from './common';

export const MessageSchema = z.object(receiptFields).openapi('Message');
export const OkMessageSchema = z.object({ ok: z.boolean(), ...receiptFields }).openapi('OkMessage');

/** Present when the call replaced a queue that had songs: `POST /undo` with it gives that queue back. */
const undoToken = z
  .string()
  .optional()
  .openapi({
    description:
      'The queue this call replaced (or cleared) can be given back with `POST /api/player/{botId}/undo` ' +
      '`{token}`, until the queue is edited or replaced again. Absent when the queue was empty.',
  });
export const ReplacedMessageSchema = z.object({ ...receiptFields, undoToken }).openapi('ReplacedMessage');
export const OkReplacedMessageSchema = z
  .object({ ok: z.boolean(), ...receiptFields, undoToken })
  .openapi('OkReplacedMessage');

const tags = ['Player'];
const control = (guestPermission: GuestPermission) =>
  ({ access: 'authenticated', capability: 'player.control', botParam: 'botId', guestPermission }) as const;
const queue = (guestPermission: GuestPermission) =>
  ({ access: 'authenticated', capability: 'player.queue', botParam: 'botId', guestPermission }) as const;
const read = { access: 'authenticated', botParam: 'botId' } as const;

const NOT_CONNECTED =
  'Audio-starting commands on a disconnected bot answer 409 `{error, message, ok: false}` and leave the queue alone.';
const queryBody = z.strictObject({
  query: z.string().trim().min(1, 'query must not be empty').max(200),
  platform: PlatformSchema.optional(),
});
const songBody = z.strictObject({ song: SongSchema });
const songIdBody = z.strictObject({
  songId: z.string().min(1).max(200),
  platform: PlatformSchema.optional(),
});

type PlayerRequest<B> = B extends z.ZodType
  ? {
      params: typeof BotIdParamSchema;
      body: { required: true; content: { 'application/json': { schema: B } } };
    }
  : { params: typeof BotIdParamSchema };

/** A POST player route: `{botId}` path, optional JSON body, one success shape. */
function playerPost<P extends string, S extends z.ZodType, B extends z.ZodType | undefined = undefined>(
  path: P,
  summary: string,
  policy: RoutePolicy,
  body: B,
  success: S,
  extra: { description?: string; statuses?: (400 | 404 | 409 | 501 | 502)[] } = {},
) {
  const request = (
    body ? { params: BotIdParamSchema, body: jsonBody(body) } : { params: BotIdParamSchema }
  ) as PlayerRequest<B>;
  return defineRoute({
    method: 'post',
    path: `/api/player/{botId}${path}` as `/api/player/{botId}${P}`,
    tags,
    summary,
    ...(extra.description ? { description: extra.description } : {}),
    policy,
    request,
    responses: {
      200: jsonResponse(success, 'Done; `message` is the receipt'),
      ...errors(401, 403, 503, ...(extra.statuses ?? [])),
    },
  });
}

const searchDescription = `Searches the platform (default: the configured default source) and uses the first result. ${NOT_CONNECTED}`;

export const play = playerPost(
  '/play',
  'Search and play the first result (clears the queue)',
  control('playNow'),
  queryBody,
  ReplacedMessageSchema,
  {
    description: searchDescription,
    statuses: [400, 404, 409, 501, 502],
  },
);
export const add = playerPost(
  '/add',
  'Search and enqueue the first result',
  queue('addToQueue'),
  queryBody,
  MessageSchema,
  {
    description: searchDescription,
    statuses: [400, 404, 409, 501, 502],
  },
);
export const playSong = playerPost(
  '/play-song',
  'Play a song object (clears the queue)',
  control('playNow'),
  songBody,
  OkReplacedMessageSchema,
  {
    description: `With \`playKeepsQueue\` on, the song is inserted after the current one instead. ${NOT_CONNECTED}`,
    statuses: [400, 409],
  },
);
export const playNowSong = playerPost(
  '/play-now-song',
  'Insert after the current song and play it now',
  control('playNow'),
  songBody,
  OkMessageSchema,
  {
    description: NOT_CONNECTED,
    statuses: [400, 409],
  },
);
export const playNextSong = playerPost(
  '/play-next-song',
  'Insert as the next song (plays it when idle)',
  control('playNext'),
  songBody,
  OkMessageSchema,
  {
    description: NOT_CONNECTED,
    statuses: [400, 409],
  },
);
export const addSong = playerPost(
  '/add-song',
  'Enqueue a song object (plays it when idle)',
  queue('addToQueue'),
  songBody,
  MessageSchema,
  {
    description: NOT_CONNECTED,
    statuses: [400, 409],
  },
);
export const playById = playerPost(
  '/play-by-id',
  'Play a song by its platform id (clears the queue)',
  control('playNow'),
  songIdBody,
  ReplacedMessageSchema,
  {
    description: NOT_CONNECTED,
    statuses: [400, 404, 409, 501, 502],
  },
);
export const addById = playerPost(
  '/add-by-id',
  'Enqueue a song by its platform id',
  queue('addToQueue'),
  songIdBody,
  MessageSchema,
  {
    description: NOT_CONNECTED,
    statuses: [400, 404, 409, 501, 502],
  },
);
export const playPlaylist = playerPost(
  '/play-playlist',
  'Replace the queue with a playlist and start it',
  control('playCollection'),
  z.strictObject({ playlistId: z.string().min(1).max(200), platform: PlatformSchema.optional() }),
  OkReplacedMessageSchema,
  {
    description: `Stops playback first; starts at a random song in random modes. Unplayable songs are skipped (20 tries); an empty or failed load keeps the queue. ${NOT_CONNECTED}`,
    statuses: [400, 404, 409, 501, 502],
  },
);
export const playAlbum = playerPost(
  '/play-album',
  'Replace the queue with an album and start it',
  control('playCollection'),
  z.strictObject({ albumId: z.string().min(1).max(200), platform: PlatformSchema.optional() }),
  OkReplacedMessageSchema,
  { description: NOT_CONNECTED, statuses: [400, 404, 409, 501, 502] },
);
export const appendPlaylist = playerPost(
  '/playlist',
  'Append a whole playlist to the queue',
  queue('playCollection'),
  z.strictObject({ playlistId: z.string().min(1).max(200), platform: PlatformSchema.optional() }),
  MessageSchema,
  { description: NOT_CONNECTED, statuses: [400, 404, 409, 501, 502] },
);
export const startFm = playerPost(
  '/fm',
  'Start personal FM',
  control('playMode'),
  z.strictObject({ platform: PlatformSchema.optional() }),
  OkReplacedMessageSchema,
  {
    description:
      `For ${platformsNamed((f) => f.personalLogin !== undefined)}, FM uses the caller's linked personal ` +
      `account when there is one, else the shared login. ${NOT_CONNECTED}`,
    statuses: [400, 409, 501, 502],
  },
);
const refusedWith = (nothing: 'playing' | 'paused') =>
  `With nothing ${nothing} the call answers 409 \`{error, message, ok: false}\` and changes nothing.`;
export const pause = playerPost('/pause', 'Pause', control('transport'), undefined, MessageSchema, {
  description: refusedWith('playing'),
  statuses: [409],
});
export const resume = playerPost('/resume', 'Resume', control('transport'), undefined, MessageSchema, {
  description: refusedWith('paused'),
  statuses: [409],
});
export const next = playerPost('/next', 'Skip to the next song', control('skip'), undefined, MessageSchema, {
  statuses: [409],
});
export const voteSkip = playerPost(
  '/vote-skip',
  'Vote to skip the current song',
  read,
  undefined,
  z
    .object({
      ...receiptFields,
      message: z.string().openapi({ description: 'The tally ("Skip: 1 of 2 votes"), or the skip it caused' }),
      votes: z.number().int(),
      needed: z.number().int(),
      skipped: z.boolean(),
    })
    .openapi('SkipVoteResult'),
  {
    description:
      "The caller's vote counts with the `!skip` votes of the bot's channel, once per song; when the votes " +
      'reach `voteSkipRatio` of the people in the channel and the web voters (at least one vote), the bot ' +
      'skips as `/next` does. The tally is in the bot status (`skipVotes`); it resets when the song changes ' +
      'or a voter in the channel leaves. With nothing playing, or a disconnected bot, 409 and no vote.',
    statuses: [409],
  },
);
export const prev = playerPost(
  '/prev',
  'Back to the previous song',
  control('skip'),
  undefined,
  MessageSchema,
  { statuses: [409] },
);
export const stop = playerPost(
  '/stop',
  'Stop playback (the queue stays)',
  control('transport'),
  undefined,
  MessageSchema,
);
export const clear = playerPost(
  '/clear',
  'Clear the queue',
  queue('removeClear'),
  undefined,
  ReplacedMessageSchema,
);
export const undo = playerPost(
  '/undo',
  'Give back the queue a play or a clear replaced',
  control('playNow'),
  z.strictObject({ token: z.string().min(1, 'token must not be empty').max(64) }),
  MessageSchema,
  {
    description:
      'Takes the `undoToken` of a call that replaced the queue (a single-song play without ' +
      '`playKeepsQueue`, a playlist, album or FM, a clear) and restores that queue with its current ' +
      'song at the position it had. 409 when the queue was edited or replaced since, or the token is ' +
      `not the last one. ${NOT_CONNECTED}`,
    statuses: [400, 409],
  },
);
export const volume = playerPost(
  '/volume',
  'Set the volume (0-100)',
  control('transport'),
  z.strictObject({
    volume: z.number().min(0, 'volume must be 0 to 100').max(100, 'volume must be 0 to 100'),
  }),
  MessageSchema,
  { statuses: [400] },
);
export const loudness = playerPost(
  '/loudness',
  'Turn loudness normalization on or off, or set its target',
  control('transport'),
  LoudnessChangeSchema,
  MessageSchema,
  {
    description:
      'Every track is brought to the target (integrated loudness, LUFS; -16 for a new bot), with no ' +
      "peak over -1 dBTP: the platform's figure where it gives one, the file's ReplayGain or R128 tags, " +
      'else measured as it decodes. Stored with the bot and heard at once, the song playing included ' +
      "(ramped, never a jump). The bot's volume applies on top. The status's `loudness` shows it.",
    statuses: [400],
  },
);
export const autoplay = playerPost(
  '/autoplay',
  'Choose what the bot does when its queue runs out',
  control('playMode'),
  z.strictObject({ mode: AutoplayModeSchema }),
  MessageSchema,
  {
    description:
      '`related`: when the last song of the queue ends in play mode `seq`, a song like it follows (the ' +
      "platform's similar songs, radio or mix where it has them, else another upload while `keepUploads` " +
      'is on), one at a time so ' +
      "a song someone adds plays before the next autoplay song; never one of the bot's last 50 plays. " +
      'When none is left the bot stops and says so in its channel. `stop` and `clear` end it. Stored ' +
      'with the bot; `off` (the default) stops at the end of the queue.',
    statuses: [400],
  },
);
export const crossfade = playerPost(
  '/crossfade',
  'Set the crossfade between songs (0-12 s)',
  control('transport'),
  z.strictObject({ seconds: CrossfadeSecondsSchema }),
  MessageSchema,
  {
    description:
      'Seconds the next song starts under the end of the current one, with an equal-power fade; `0` ' +
      '(the default) joins consecutive songs without a gap. Stored with the bot and used from the next ' +
      "change of song. The status's `crossfadeSeconds` shows it.",
    statuses: [400],
  },
);
export const mode = playerPost(
  '/mode',
  'Set the play mode',
  control('playMode'),
  z.strictObject({ mode: PlayModeSchema }),
  MessageSchema,
  {
    statuses: [400],
  },
);
export const seek = playerPost(
  '/seek',
  'Jump to a position of the current song',
  control('transport'),
  z.strictObject({
    position: z.number().min(0, 'position must be 0 or more').openapi({ description: 'Seconds' }),
  }),
  z.object({ ...receiptFields, seekOffset: z.number() }).openapi('SeekResult'),
  {
    description: `Restarts the audio pipeline at the position. ${refusedWith('playing')} A live stream (platform \`stream\`: a radio station, a live HLS playlist) has no position: 409.`,
    statuses: [400, 409],
  },
);
export const playAt = playerPost(
  '/play-at',
  'Play the song at a queue index',
  control('skip'),
  z.strictObject({ index: z.number().int('index must be a whole number').min(0, 'index must be 0 or more') }),
  MessageSchema,
  {
    description: 'An index not below the queue size is a 400, decided before playback stops.',
    statuses: [400, 409],
  },
);

export const move = playerPost(
  '/move',
  'Move a queued song to another position',
  queue('removeClear'),
  z.strictObject({ from: z.number().int().min(0), to: z.number().int().min(0) }),
  MessageSchema,
  {
    description: 'Not in SPEC.md: the REST twin of the `move` chat command. Indexes count from 0.',
    statuses: [400],
  },
);

export const removeAt = defineRoute({
  method: 'delete',
  path: '/api/player/{botId}/queue/{index}',
  tags,
  summary: 'Remove the song at a queue index',
  policy: queue('removeClear'),
  request: {
    params: BotIdParamSchema.extend({
      index: z.coerce
        .number()
        .int()
        .min(0)
        .openapi({ param: { name: 'index', in: 'path' } }),
    }),
  },
  responses: { 200: jsonResponse(MessageSchema, 'Removed'), ...errors(400, 401, 403, 503) },
});

export const getQueue = defineRoute({
  method: 'get',
  path: '/api/player/{botId}/queue',
  tags,
  summary: 'The queue and the bot status',
  policy: read,
  request: { params: BotIdParamSchema },
  responses: {
    200: jsonResponse(
      z.object({ queue: z.array(QueuedSongSchema), status: BotStatusSchema }).openapi('QueueView'),
      'Queue',
    ),
    ...errors(401, 403, 503),
  },
});

export const listen = defineRoute({
  method: 'get',
  path: '/api/player/{botId}/listen',
  tags,
  summary: 'Listen along: what the bot plays, as an Ogg Opus stream',
  description:
    'The very Opus packets the bot sends to its channel (20 ms, 48 kHz stereo), wrapped in Ogg pages: ' +
    'no second encode, however many listen. The stream never ends on its own: silence fills pauses, ' +
    'gaps between songs and idle times, so a player never stalls; it starts within a second and runs at ' +
    'most about 2 s behind the channel. A listener that falls further behind is cut off (the stream ' +
    'ends). API keys work, for players such as VLC or mpv (`Authorization: Bearer …`). The count is ' +
    '`listeners` in the bot status.',
  policy: read,
  request: { params: BotIdParamSchema },
  responses: {
    200: {
      description: 'An endless `audio/ogg; codecs=opus` stream',
      content: { 'audio/ogg': { schema: z.string().openapi({ format: 'binary' }) } },
    },
    ...errors(401, 403, 404, 503),
  },
});

export const getElapsed = defineRoute({
  method: 'get',
  path: '/api/player/{botId}/elapsed',
  tags,
  summary: 'Seconds played of the current song',
  policy: read,
  request: { params: BotIdParamSchema },
  responses: {
    200: jsonResponse(z.object({ elapsed: z.number() }).openapi('Elapsed'), 'Elapsed'),
    ...errors(401, 403, 503),
  },
});

export const HistoryEntrySchema = z
  .object({
    id: z.number().int(),
    songId: z
      .string()
      .openapi({ description: 'The song id within its platform: with `platform`, enough to queue it again' }),
    name: z.string(),
    artist: z.string(),
    album: z.string(),
    coverUrl: z.string(),
    platform: PlatformSchema,
    playedAt: TimestampSchema,
    requestedBy: z.string().nullable(),
    duration: z
      .number()
      .nullable()
      .openapi({ description: 'Seconds; null for plays recorded before the length was kept' }),
  })
  .openapi('HistoryEntry');

export const getHistory = defineRoute({
  method: 'get',
  path: '/api/player/{botId}/history',
  tags,
  summary: 'Recently played songs, newest first',
  policy: read,
  request: {
    params: BotIdParamSchema,
    query: z.object({
      limit: z.coerce.number().int().min(1).max(500).optional().openapi({ description: 'Default 50' }),
    }),
  },
  responses: {
    200: jsonResponse(z.object({ history: z.array(HistoryEntrySchema) }).openapi('History'), 'History'),
    ...errors(400, 401, 403, 404),
  },
});

export const ProfileConfigSchema = z
  .object({
    avatarEnabled: z.boolean(),
    descriptionEnabled: z.boolean(),
    nicknameEnabled: z.boolean(),
    awayStatusEnabled: z.boolean(),
    channelDescEnabled: z.boolean(),
    nowPlayingMsgEnabled: z.boolean(),
  })
  .openapi('ProfileConfig');

export const getProfile = defineRoute({
  method: 'get',
  path: '/api/player/{botId}/profile',
  tags,
  summary: 'What the bot updates in its voice profile while it plays',
  policy: read,
  request: { params: BotIdParamSchema },
  responses: { 200: jsonResponse(ProfileConfigSchema, 'Profile config'), ...errors(401, 403, 404) },
});

export const putProfile = defineRoute({
  method: 'put',
  path: '/api/player/{botId}/profile',
  tags,
  summary: 'Change what the bot updates in its voice profile',
  policy: { access: 'authenticated', capability: 'bot.manage', botParam: 'botId' },
  request: { params: BotIdParamSchema, body: jsonBody(ProfileConfigSchema.strict()) },
  responses: { 200: jsonResponse(ProfileConfigSchema, 'Stored'), ...errors(400, 401, 403, 404) },
});
