/**
 * Accounts and access: users, their bot grants, browser sessions, API keys and the shared
 * rate-limit counters (kept in the database so every api replica counts the same attempts).
 */
import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { bots } from './bots';

export const users = sqliteTable(
  'users',
  {
    id: text('id').primaryKey(),
    username: text('username', { length: 64 }).notNull(),
    // Null only for the synthetic guest principal, which can never log in with a password.
    passwordHash: text('password_hash'),
    role: text('role', { enum: ['admin', 'member', 'guest'] }).notNull(),
    // JSON array of capability names: the set is small and always read whole with the user.
    capabilities: text('capabilities', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    // "all bots" is a flag rather than a grant row per bot, so bots created later are covered too.
    allBots: integer('all_bots', { mode: 'boolean' }).notNull().default(false),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  // Unique case-insensitively so "Alice" and "alice" cannot both exist.
  (t) => [uniqueIndex('users_username_uq').on(sql`lower(${t.username})`)],
);

/** Per-bot access for members without `allBots`; rows go when either side is deleted. */
export const botGrants = sqliteTable(
  'bot_grants',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    botId: text('bot_id')
      .notNull()
      .references(() => bots.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.botId] }), index('bot_grants_bot_idx').on(t.botId)],
);

/** Browser sessions in the shape lucia's drizzle adapter expects (expires_at in epoch seconds). */
export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/**
 * API keys: only a SHA-256 of the raw key is stored. `keyPrefix` (the first 12 characters) is kept
 * so people can tell their keys apart in lists without the key being recoverable.
 */
export const apiKeys = sqliteTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name', { length: 64 }).notNull(),
    keyPrefix: text('key_prefix', { length: 12 }).notNull(),
    keyHash: text('key_hash').notNull().unique(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    lastUsedAt: integer('last_used_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('api_keys_user_idx').on(t.userId)],
);

/** Fixed-window counters for login and setup attempts, keyed by purpose and client address. */
export const rateLimits = sqliteTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStart: integer('window_start', { mode: 'timestamp_ms' }).notNull(),
  count: integer('count').notNull(),
});
