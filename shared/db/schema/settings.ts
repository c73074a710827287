/**
 * Global settings as one row per top-level key of the settings object (`guestMode`, `enabledProviders`,
 * `quality`, ...). A partial merge writes only the keys it received, so two admins saving different
 * keys at once do not overwrite each other.
 */
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const settings = sqliteTable('settings', {
  key: text('key').primaryKey(),
  value: text('value', { mode: 'json' }).$type<unknown>().notNull(),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
});
