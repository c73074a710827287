/**
 * Bots: connection configuration, the stored voice identity, per-bot playback settings that survive
 * a rebuild of the bot instance (volume, play mode, loudness normalization, profile config), play history and the optional
 * live-queue snapshot used when `savedQueuesEnabled` is on.
 */
import { blob, index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export interface ProfileConfigRow {
  avatarEnabled: boolean;
  descriptionEnabled: boolean;
  nicknameEnabled: boolean;
  awayStatusEnabled: boolean;
  channelDescEnabled: boolean;
  nowPlayingMsgEnabled: boolean;
}

export const bots = sqliteTable('bots', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  serverAddress: text('server_address').notNull(),
  serverPort: integer('server_port').notNull().default(9987),
  nickname: text('nickname').notNull(),
  defaultChannel: text('default_channel'),
  channelId: text('channel_id'),
  channelPassword: text('channel_password'),
  serverPassword: text('server_password'),
  autoStart: integer('auto_start', { mode: 'boolean' }).notNull().default(false),
  // The TeamSpeak client version the bot reports: an id of shared/domain/client-versions.ts, or 'auto'
  // (chosen by the server's license chain when connecting).
  clientVersion: text('client_version').notNull().default('auto'),
  // The voice identity (private key) is created on first start and reused, so the server keeps
  // recognising the bot (groups, permissions). Never returned by the API.
  identity: text('identity'),
  // The voice server's query key for this bot, if an admin stored one. Never returned by the API.
  queryKey: text('query_key'),
  volume: integer('volume').notNull().default(50),
  // The saved mode only: temporary FM/artist switches live in the daemon and never land here.
  playMode: text('play_mode', { enum: ['seq', 'loop', 'random', 'rloop'] })
    .notNull()
    .default('seq'),
  profileConfig: text('profile_config', { mode: 'json' }).$type<ProfileConfigRow>(),
  // Loudness normalization (issue 39): on for every bot unless turned off, to its own target (LUFS).
  loudnessNormalization: integer('loudness_normalization', { mode: 'boolean' }).notNull().default(true),
  loudnessTarget: integer('loudness_target').notNull().default(-16),
  // Autoplay (issue 39): when the queue runs out in order, songs like the last one follow; off by default.
  autoplay: text('autoplay', { enum: ['off', 'related'] })
    .notNull()
    .default('off'),
  // Crossfade (issue 39): seconds the next song starts under the end of the current one; 0 joins them gapless.
  crossfadeSeconds: integer('crossfade_seconds').notNull().default(0),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
});

/**
 * The avatar an admin set for a bot. Kept in the database (at most 200 KB) rather than on one api
 * host's disk, so whichever daemon runs the bot can upload it to the voice server.
 */
export const botAvatars = sqliteTable('bot_avatars', {
  botId: text('bot_id')
    .primaryKey()
    .references(() => bots.id, { onDelete: 'cascade' }),
  contentType: text('content_type', { enum: ['image/png', 'image/jpeg', 'image/webp'] }).notNull(),
  data: blob('data', { mode: 'buffer' }).notNull(),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
});

export const playHistory = sqliteTable(
  'play_history',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    botId: text('bot_id')
      .notNull()
      .references(() => bots.id, { onDelete: 'cascade' }),
    songId: text('song_id').notNull(),
    name: text('name').notNull(),
    artist: text('artist').notNull(),
    album: text('album').notNull(),
    coverUrl: text('cover_url').notNull(),
    platform: text('platform').notNull(),
    playedAt: integer('played_at', { mode: 'timestamp_ms' }).notNull(),
    requestedBy: text('requested_by'),
    /** Seconds; null on rows recorded before it was kept (they are queued again without a length). */
    duration: integer('duration'),
  },
  (t) => [index('play_history_bot_played_idx').on(t.botId, t.playedAt)],
);

/**
 * The live queue of a bot, written while `savedQueuesEnabled` is on and restored on restart.
 * Songs are a JSON blob: the queue is always read and written whole; a corrupt blob reads as empty.
 */
export const queueSnapshots = sqliteTable('queue_snapshots', {
  botId: text('bot_id')
    .primaryKey()
    .references(() => bots.id, { onDelete: 'cascade' }),
  songs: text('songs').notNull(),
  currentIndex: integer('current_index').notNull(),
  positionSeconds: integer('position_seconds').notNull().default(0),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
});
