/**
 * Global settings as one row per top-level key of the settings object (`guestMode`, `enabledProviders`,
 * `quality`, ...). A partial merge writes only the keys it received, so two admins saving different
 * keys at once do not overwrite each other.
 */
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const settings = sqliteTable('settings', {
  key: text('key').primaryKey(),
  // JSON text, encoded by hand: drizzle's json mode would store a JSON `null` value as SQL NULL.
  value: text('value').notNull(),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
});
