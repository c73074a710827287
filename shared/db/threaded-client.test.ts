/**
 * The daemon's database handle (openDaemonDb on a local file: the threaded client) reads and writes
 * as the plain local client does, rows, results and errors alike, while a statement that waits for
 * another writer's lock leaves the calling thread free; and close() ends its thread.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import type { Client, ResultSet } from '@libsql/client';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { botRow } from '../../testkit/bot-row';
import { type Db, migrateDb, openDb } from './client';
import { openDaemonDb } from './daemon-db';
import { dbFaultOf } from './db-faults';
import { openLibsqlClient } from './libsql-client';
import { botAvatars, bots, playHistory } from './schema';
import { ThreadedClient } from './threaded-client';

let dir: string;
let url: string;
let plain: Db;
let threaded: Db;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'threaded-client-'));
  url = `file:${join(dir, 'bot.db')}`;
  plain = openDb({ url });
  await migrateDb(plain);
  threaded = openDaemonDb({ url });
});

afterEach(async () => {
  await threaded.$client.close();
  plain.$client.close();
  rmSync(dir, { recursive: true, force: true });
});

const historyRow = (botId: string, songId: string) => ({
  botId,
  songId,
  name: 'A song',
  artist: 'An artist',
  album: 'An album',
  coverUrl: '',
  platform: 'local',
  playedAt: new Date(1_700_000_000_000),
  requestedBy: null,
  duration: 180,
});

/**
 * Everything of a result set a caller can see: its own fields, and each row's properties as defined.
 * The last inserted rowid is its connection's own, so only its type is compared.
 */
function shapeOf(result: ResultSet) {
  return {
    keys: Object.keys(result),
    columns: result.columns,
    columnTypes: result.columnTypes,
    rowsAffected: result.rowsAffected,
    lastInsertRowid: typeof result.lastInsertRowid,
    rows: result.rows.map((row) => Object.getOwnPropertyDescriptors(row)),
    json: { ...result.toJSON(), lastInsertRowid: undefined },
  };
}

describe('the daemon database on a local file', () => {
  it('runs on a thread of its own; a libSQL server URL keeps the plain client', () => {
    expect(threaded.$client).toBeInstanceOf(ThreadedClient);
    expect(threaded.$client.protocol).toBe('file');
    const remote = openDaemonDb({ url: 'http://127.0.0.1:1' });
    expect(remote.$client).not.toBeInstanceOf(ThreadedClient);
    remote.$client.close();
  });

  it('gives drizzle the same rows and shapes as the plain client', async () => {
    const inserted = await threaded.insert(bots).values(botRow('b1', 'One'));
    await plain.insert(bots).values(botRow('b2', 'Two'));
    expect(inserted.rowsAffected).toBe(1);
    expect(typeof inserted.lastInsertRowid).toBe('bigint');

    const first = await threaded.insert(playHistory).values(historyRow('b1', 's1'));
    const second = await plain.insert(playHistory).values(historyRow('b1', 's2'));
    expect(first.lastInsertRowid).toBe(1n);
    expect(second.lastInsertRowid).toBe(2n);

    const avatar = Buffer.from([0, 1, 2, 254, 255]);
    await threaded
      .insert(botAvatars)
      .values({ botId: 'b1', contentType: 'image/png', data: avatar, updatedAt: new Date(1) });
    const updated = await threaded.update(bots).set({ volume: 80 }).where(eq(bots.id, 'b2'));
    expect(updated.rowsAffected).toBe(1);

    for (const db of [plain, threaded]) {
      const found = await db.query.bots.findFirst({ where: eq(bots.id, 'b2') });
      expect(found).toMatchObject({ name: 'Two', volume: 80, defaultChannel: null, autoStart: false });
      const stored = await db.query.botAvatars.findFirst();
      expect(stored?.data).toEqual(avatar);
    }
    expect(await threaded.select().from(bots)).toEqual(await plain.select().from(bots));
    expect(await threaded.select().from(playHistory)).toEqual(await plain.select().from(playHistory));
    expect(await threaded.query.bots.findMany()).toEqual(await plain.query.bots.findMany());

    const sql =
      'SELECT b.id, b.id, b.channel_id, a.data, b.volume / 3.0 AS third FROM bots b LEFT JOIN bot_avatars a ON a.bot_id = b.id ORDER BY b.id';
    expect(shapeOf(await threaded.$client.execute(sql))).toEqual(shapeOf(await plain.$client.execute(sql)));
    const write = 'UPDATE bots SET volume = volume + 1';
    expect(shapeOf(await threaded.$client.execute(write))).toEqual(
      shapeOf(await plain.$client.execute(write)),
    );
    const batch = ['SELECT count(*) AS n FROM bots', 'UPDATE bots SET volume = 10'];
    expect((await threaded.$client.batch(batch)).map(shapeOf)).toEqual(
      (await plain.$client.batch(batch)).map(shapeOf),
    );
  });

  it('leaves the calling thread free while a write waits for another writer, then writes', async () => {
    await threaded.$client.execute('SELECT 1'); // the thread is up
    const holder = openLibsqlClient({ url });
    await holder.execute('BEGIN IMMEDIATE');
    await holder.execute({
      sql: 'INSERT INTO bots (id, name, server_address, nickname, created_at, updated_at) VALUES (?, ?, ?, ?, 0, 0)',
      args: ['held', 'Held', '127.0.0.1', 'Held'],
    });

    const order: string[] = [];
    const insert = threaded
      .insert(bots)
      .values(botRow('waiting', 'Waiting'))
      .finally(() => order.push('insert settled'));
    await sleep(50);
    order.push('timer fired');
    expect(order).toEqual(['timer fired']);

    await holder.execute('COMMIT');
    await insert;
    expect(order).toEqual(['timer fired', 'insert settled']);
    const ids = (await plain.select({ id: bots.id }).from(bots)).map(({ id }) => id).sort();
    expect(ids).toEqual(['held', 'waiting']);
    holder.close();
  });

  it("keeps libSQL's error codes, so dbFaultOf reads them", async () => {
    await plain.insert(bots).values(botRow('b1', 'One'));
    const again = botRow('b1', 'Again');
    const failureOf = (db: Db) =>
      db
        .insert(bots)
        .values(again)
        .then(
          () => undefined,
          (error: Error) => error,
        );
    const [onThread, onPlain] = [await failureOf(threaded), await failureOf(plain)];
    const causeOf = (error: Error | undefined) => error?.cause as Error & { code: string; rawCode: number };
    expect(causeOf(onThread).name).toBe('LibsqlError');
    expect(causeOf(onThread).code).toBe('SQLITE_CONSTRAINT_PRIMARYKEY');
    expect(causeOf(onThread)).toMatchObject({
      code: causeOf(onPlain).code,
      rawCode: causeOf(onPlain).rawCode,
      message: causeOf(onPlain).message,
    });
    expect(onThread?.message).toBe(onPlain?.message);
    expect(dbFaultOf(onThread)).toBeUndefined(); // the request's fault, not the database's

    // A read transaction's snapshot outdated by another writer cannot become a write: SQLITE_BUSY_SNAPSHOT.
    const transaction = await threaded.$client.transaction('deferred');
    await transaction.execute('SELECT count(*) FROM bots');
    await plain.insert(bots).values(botRow('b2', 'Two'));
    const busy = await transaction
      .execute("UPDATE bots SET volume = 1 WHERE id = 'b1'")
      .catch((error) => error);
    expect(busy).toMatchObject({ code: 'SQLITE_BUSY_SNAPSHOT', rawCode: 517 });
    expect(dbFaultOf(busy)?.status).toBe(503);
    transaction.close();
  });

  it('commits a transaction, and rolls back one that fails', async () => {
    await threaded.transaction(async (tx) => {
      await tx.insert(bots).values(botRow('kept', 'Kept'));
      await tx.insert(playHistory).values(historyRow('kept', 's1'));
    });
    const failed = threaded.transaction(async (tx) => {
      await tx.insert(bots).values(botRow('dropped', 'Dropped'));
      throw new Error('changed its mind');
    });
    await expect(failed).rejects.toThrow('changed its mind');
    expect((await plain.select({ id: bots.id }).from(bots)).map(({ id }) => id)).toEqual(['kept']);
    expect(await plain.$count(playHistory)).toBe(1);

    const client: Client = threaded.$client;
    const committed = await client.transaction('write');
    expect(committed.closed).toBe(false);
    await committed.execute({ sql: "UPDATE bots SET volume = 7 WHERE id = 'kept'" });
    await committed.commit();
    expect(committed.closed).toBe(true);
    const rolledBack = await client.transaction('write');
    await rolledBack.batch([{ sql: "UPDATE bots SET volume = 9 WHERE id = 'kept'" }]);
    await rolledBack.rollback();
    expect(rolledBack.closed).toBe(true);
    await expect(rolledBack.execute('SELECT 1')).rejects.toMatchObject({ code: 'TRANSACTION_CLOSED' });
    expect((await plain.query.bots.findFirst())?.volume).toBe(7);
  });

  it('ends its thread on close() and refuses statements after it', async () => {
    const client = threaded.$client;
    await client.execute('SELECT 1');
    await client.close();
    expect(client.closed).toBe(true);
    await expect(client.execute('SELECT 1')).rejects.toMatchObject({ code: 'CLIENT_CLOSED' });
    await expect(threaded.select().from(bots)).rejects.toMatchObject({
      cause: { code: 'CLIENT_CLOSED', message: 'CLIENT_CLOSED: The client is closed' },
    });
    await client.close(); // a second close finds it closed
  });

  it('fails its statements when the thread cannot open the file, instead of waiting forever', async () => {
    const unopenable = openDaemonDb({ url: `file:${dir}` }); // a folder
    await expect(unopenable.$client.execute('SELECT 1')).rejects.toThrow(/Unable to open/);
    await expect(unopenable.$client.execute('SELECT 1')).rejects.toThrow(/Unable to open/);
    await unopenable.$client.close();
  });

  it('lets a process exit, closed or not', { timeout: 120_000 }, async () => {
    const script = join(dir, 'exits.mjs');
    writeFileSync(
      script,
      `import { openDaemonDb } from ${JSON.stringify(join(import.meta.dirname, 'daemon-db.ts'))};
      const closed = openDaemonDb({ url: ${JSON.stringify(url)} });
      await closed.$client.execute('SELECT 1');
      await closed.$client.close();
      const open = openDaemonDb({ url: ${JSON.stringify(url)} });
      await open.$client.execute('SELECT 1');
      console.log('done');`,
    );
    const run = promisify(execFile)(process.execPath, ['--import', 'tsx', script]);
    await expect(run).resolves.toMatchObject({ stdout: 'done\n' });
  });
});
