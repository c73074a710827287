/**
 * The audit log. Usernames are copied into each entry so it still reads right after an account is
 * deleted or renamed; ids are plain text for the same reason (no foreign key to cascade them away).
 */
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const auditLog = sqliteTable(
  'audit_log',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    timestamp: integer('timestamp', { mode: 'timestamp_ms' }).notNull(),
    actorId: text('actor_id'),
    actorUsername: text('actor_username'),
    targetUserId: text('target_user_id'),
    targetUsername: text('target_username'),
    action: text('action').notNull(),
  },
  (t) => [index('audit_log_timestamp_idx').on(t.timestamp)],
);
