/**
 * Music-side state: favorites, saved queues, platform logins (shared and personal), QR login
 * attempts (kept here because the api is stateless and any replica may answer the status poll)
 * and uploaded local files.
 */
import {
  blob,
  index,
  integer,
  primaryKey,
  real,
  sqliteTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/sqlite-core';
import { PLATFORMS } from '../../domain/constants';
import { users } from './accounts';

export const favorites = sqliteTable(
  'favorites',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    platform: text('platform', { enum: PLATFORMS }).notNull(),
    playlistId: text('playlist_id').notNull(),
    name: text('name').notNull(),
    coverUrl: text('cover_url').notNull().default(''),
    songCount: integer('song_count').notNull().default(0),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [uniqueIndex('favorites_user_playlist_uq').on(t.userId, t.platform, t.playlistId)],
);

/**
 * Saved queues. `ownerId` is a user id or the reserved `shared` owner, so it has no foreign key;
 * a user's private queues are removed with the user in code. Songs are a JSON blob because a queue
 * is always loaded whole; a corrupt blob reads as an empty queue.
 */
export const savedQueues = sqliteTable(
  'saved_queues',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id').notNull(),
    name: text('name').notNull(),
    songs: text('songs').notNull(),
    songCount: integer('song_count').notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [uniqueIndex('saved_queues_owner_name_uq').on(t.ownerId, t.name)],
);

/** The shared platform login every bot uses. The cookie or token never leaves the server. */
export const platformAccounts = sqliteTable('platform_accounts', {
  platform: text('platform').primaryKey(),
  credential: text('credential').notNull(),
  nickname: text('nickname'),
  avatarUrl: text('avatar_url'),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
});

/** A user's own linked platform account (FM started by that user); removed with the user. */
export const personalLinks = sqliteTable(
  'personal_links',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    platform: text('platform').notNull(),
    credential: text('credential').notNull(),
    nickname: text('nickname'),
    avatarUrl: text('avatar_url'),
    linkedAt: integer('linked_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.platform] })],
);

export const qrLogins = sqliteTable(
  'qr_logins',
  {
    key: text('key').primaryKey(),
    platform: text('platform').notNull(),
    // Set for a personal link: the confirmed login is bound to this account, not the shared one.
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['waiting', 'scanned', 'confirmed', 'expired'] }).notNull(),
    // Platform-specific state of the attempt (e.g. the platform's own QR key).
    state: text('state', { mode: 'json' }).$type<Record<string, string>>().notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('qr_logins_created_idx').on(t.createdAt)],
);

/**
 * Uploaded local audio under DATA_DIR/uploads; deleted once played and no longer queued anywhere, or
 * evicted oldest-first under the disk quota. Title, artist, album and lyrics come from the file's tags
 * (the title falls back to the file name). The embedded cover is kept here, not on disk, so any api replica
 * can serve it; it is capped small at upload time. The loudness (issue 39) comes from the file's ReplayGain
 * or R128 tags, else it is measured once after the upload; it stays unset until then, and on uploads
 * stored before it was kept (the bot measures those as they play).
 */
export const uploads = sqliteTable(
  'uploads',
  {
    id: text('id').primaryKey(),
    originalName: text('original_name').notNull(),
    storedName: text('stored_name').notNull().unique(),
    sizeBytes: integer('size_bytes').notNull(),
    durationSeconds: integer('duration_seconds').notNull().default(0),
    title: text('title').notNull().default(''),
    artist: text('artist').notNull().default(''),
    album: text('album').notNull().default(''),
    /** LRC or plain text: the file's embedded lyrics, or a `.lrc` uploaded for it later; '' for none. */
    lyrics: text('lyrics').notNull().default(''),
    coverType: text('cover_type', { enum: ['image/jpeg', 'image/png'] }),
    coverData: blob('cover_data', { mode: 'buffer' }),
    /** Integrated loudness, LUFS (shared/domain/loudness.ts); null while unknown. */
    loudnessLufs: real('loudness_lufs'),
    /** The highest peak, dBFS, where the tags or the measurement gave one. */
    loudnessPeakDb: real('loudness_peak_db'),
    loudnessSource: text('loudness_source', { enum: ['tags', 'measured'] }),
    uploadedBy: text('uploaded_by'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    playedAt: integer('played_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('uploads_created_idx').on(t.createdAt)],
);
