/**
 * The row of a bot that a test writes straight into the database, without the api: a name, the local
 * TS3 server on its default port, every other setting at its default.
 */
import type { bots } from '../shared/db/schema';

export function botRow(id: string, name: string, nickname = name): typeof bots.$inferInsert {
  const now = new Date();
  return { id, name, serverAddress: '127.0.0.1', nickname, createdAt: now, updatedAt: now };
}
