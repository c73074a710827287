/**
 * A local database file's settings hold on every connection the client opens, including the fresh
 * one libSQL opens after each transaction: WAL, commits without an fsync (synchronous NORMAL), a busy
 * timeout and cascading deletes. So do they on the daemon's, whose client lives on a thread of its own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Db, migrateDb, openDb } from './client';
import { openDaemonDb } from './daemon-db';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

async function pragmas(db: Db) {
  const value = async (name: string) => (await db.$client.execute(`PRAGMA ${name}`)).rows[0]?.[0];
  return {
    journalMode: await value('journal_mode'),
    synchronous: await value('synchronous'),
    busyTimeout: await value('busy_timeout'),
    foreignKeys: await value('foreign_keys'),
  };
}

describe.each([
  ['openDb', openDb],
  ['openDaemonDb', openDaemonDb],
])('%s on a local file', (_name, open) => {
  it('keeps WAL, synchronous NORMAL, the busy timeout and foreign keys, before and after a transaction', async () => {
    dir = mkdtempSync(join(tmpdir(), 'db-client-'));
    const db = open({ url: `file:${join(dir, 'bot.db')}` });
    await migrateDb(db);
    // SQLite's numbers: synchronous 1 is NORMAL (2 would be FULL, the default).
    const expected = { journalMode: 'wal', synchronous: 1, busyTimeout: 3000, foreignKeys: 1 };
    expect(await pragmas(db)).toEqual(expected);

    const transaction = await db.$client.transaction('write');
    await transaction.execute('CREATE TABLE scratch (id INTEGER PRIMARY KEY)');
    await transaction.commit();
    expect(await pragmas(db)).toEqual(expected);
    await db.$client.close();
  });
});
