/**
 * Database faults on the real libSQL file, through the real app and daemon:
 * - locked: another connection holds a write transaction on the file;
 * - full: the database cannot grow (SQLite's `max_page_count` on the app's connection gives the very
 *   SQLITE_FULL a full disk gives) and its last free bytes are taken.
 * Writes answer a clear 503/507 `{error}` (never a 500, never a crash), reads go on, a refused write
 * leaves every table, every file and the live bot as they were, `PRAGMA integrity_check` stays `ok`,
 * and once the fault is over the very same requests succeed.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createClient } from '@libsql/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { UPLOADS_DIR } from '../../shared/sources/local/local-source';
import { createKey, createMember, insertBot, type Session, withAdminApp } from '../../testkit/accounts';
import { makeTempDir } from '../../testkit/audio-signals';
import type { TestApp } from '../../testkit/test-app';
import { plainWav, uploadRequest } from '../uploads/media-files';
import { holdWriteLock } from './db-lock';
import { watchChanges } from './db-snapshot';
import { useFaultTally } from './fault-tally';

const tally = useFaultTally('faults-db');
let t: TestApp;
let admin: Session;
let botId: string;
let toneWav: Buffer;
let apiKey: string;
withAdminApp(async (app, session) => {
  t = app;
  admin = session;
  botId = await insertBot(app, 'Keeper');
  apiKey = await createKey(session);
  // As on a service that has taken uploads before: a refused upload must leave no file, and the
  // folder itself is not what the watch is after.
  mkdirSync(join(app.dataDir, UPLOADS_DIR), { recursive: true });
});
beforeAll(() => {
  const media = makeTempDir('faults-db-');
  toneWav = plainWav(media.path);
  media.remove();
});

/** A PNG signature and incompressible bytes: an avatar of `kb` KB that needs fresh database pages. */
function avatarDataUrl(kb: number): string {
  const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(kb * 1024 - 8)]);
  for (let i = 8; i < png.length; i++) png[i] = (i * 2654435761) >>> 24;
  return `data:image/png;base64,${png.toString('base64')}`;
}

async function integrity(): Promise<string> {
  const result = await t.db.$client.execute('PRAGMA integrity_check');
  return String(Object.values(result.rows[0] ?? {})[0]);
}

/**
 * The writes each fault is tried with, by name; each answers the typed client's result. The avatar
 * (`avatarKb`, larger than the one stored before) needs fresh pages whatever the free bytes are.
 */
function writes(tag: string, avatarKb: number) {
  const bot = { params: { path: { botId } } };
  return {
    favorite: () =>
      admin.api.POST('/api/favorites', { body: { platform: 'music_a', playlistId: `pl-${tag}`, name: tag } }),
    settings: () => admin.api.POST('/api/bot/settings', { body: { idleTimeoutMinutes: 7 } }),
    createBot: () =>
      admin.api.POST('/api/bot', { body: { name: `bot-${tag}`, nickname: tag, serverAddress: '127.0.0.1' } }),
    avatar: () =>
      admin.api.PUT('/api/bot/{id}/avatar', {
        params: { path: { id: botId } },
        body: { dataUrl: avatarDataUrl(avatarKb) },
      }),
    volume: () => admin.api.POST('/api/player/{botId}/volume', { ...bot, body: { volume: 33 } }),
    upload: async () => {
      const response = await t.fetch(
        uploadRequest({
          name: `${tag}.wav`,
          bytes: Uint8Array.from(toneWav),
          contentType: 'audio/wav',
          headers: { 'x-forwarded-for': '198.18.0.1' },
        }),
        admin.jar,
      );
      return { response, error: response.ok ? undefined : await response.json() };
    },
  };
}

/** A write as the tests run it: the answer's response and, when refused, its error body. */
type Writes = Record<string, () => Promise<{ response: Response; error?: unknown }>>;

/** Runs every write at once and checks each answers `status` with a readable `{error}`. */
async function refusedAll(all: Writes, status: 503 | 507, pattern: RegExp): Promise<void> {
  const answers = await Promise.all(
    Object.entries(all).map(async ([name, write]) => [name, await write()] as const),
  );
  for (const [name, { response, error }] of answers) {
    tally.answered(response.status, [status]);
    expect({ name, status: response.status }).toEqual({ name, status });
    expect(error).toMatchObject({ error: expect.stringMatching(pattern) });
  }
}

async function succeededAll(all: Writes): Promise<void> {
  for (const [name, write] of Object.entries(all)) {
    const { response } = await write();
    tally.answered(response.status);
    expect({ name, ok: response.ok }).toEqual({ name, ok: true });
  }
}

/**
 * Reads keep working during a write fault: sessions, lists, the live bot status, and a read with an
 * API key (whose last use is written now and then).
 */
async function readsAnswer(): Promise<void> {
  for (const read of [
    () => admin.api.GET('/api/session/me'),
    () => t.withKey(apiKey).GET('/api/favorites'),
    () => admin.api.GET('/api/favorites'),
    () => admin.api.GET('/api/bot/settings'),
    () => admin.api.GET('/api/bot/{id}', { params: { path: { id: botId } } }),
  ]) {
    const { response } = await read();
    expect(tally.answered(response.status)).toBe(200);
  }
}

/**
 * Runs refused writes and checks they left everything as it was: every stored row, the files under
 * DATA_DIR (no upload left behind) and the bot's live volume.
 */
async function refusedChangingNothing(refuse: () => Promise<void>, volumeBefore: number | undefined) {
  const watch = await watchChanges(t.config.databaseUrl, t.dataDir);
  try {
    await watch.before();
    await refuse();
    const changes = await watch.changes();
    if ((await liveVolume()) !== volumeBefore) changes.push('the live volume');
    if (changes.length > 0) tally.changedData();
    expect(changes).toEqual([]);
  } finally {
    watch.close();
  }
}

async function liveVolume(): Promise<number | undefined> {
  return (await admin.api.GET('/api/bot/{id}', { params: { path: { id: botId } } })).data?.volume;
}

describe('a database locked by another writer', () => {
  it('waits out a short lock, also on the connection opened after a transaction took the first one', async () => {
    // Permissions are written in a transaction, which hands the client's connection to it.
    await createMember(t, admin, { capabilities: ['player.control'], bots: 'all' });
    const lock = await holdWriteLock(t.config.databaseUrl, 300);
    tally.injected();
    const { response } = await admin.api.POST('/api/favorites', {
      body: { platform: 'music_a', playlistId: 'pl-short-lock', name: 'short lock' },
    });
    await lock.released;
    expect(tally.answered(response.status)).toBe(200);
  });

  it('answers writes 503 {error} without changing anything, then takes the same writes once unlocked', async () => {
    const all = writes('locked', 60);
    const volumeBefore = await liveVolume();
    const locker = createClient({ url: t.config.databaseUrl });
    const lock = await locker.transaction('write');
    tally.injected();
    try {
      await refusedChangingNothing(() => refusedAll(all, 503, /database is busy/), volumeBefore);
      await readsAnswer();
    } finally {
      await lock.rollback();
      locker.close();
    }
    await succeededAll(all);
    expect(await liveVolume()).toBe(33);
    expect(await integrity()).toBe('ok');
  }, 60_000);
});

describe('a database that is full', () => {
  it('answers a write that needs room 507 {error} without changing anything, never a 500, and takes it once there is room', async () => {
    const { avatar, ...small } = writes('full', 180);
    const client = t.db.$client;
    const pages = Number(Object.values((await client.execute('PRAGMA page_count')).rows[0] ?? {})[0]);
    await client.execute(`PRAGMA max_page_count = ${pages}`);
    tally.injected();
    try {
      expect(await fillLastBytes()).toBeGreaterThan(0);
      const volumeBefore = await liveVolume();
      await refusedChangingNothing(
        () => refusedAll({ avatar }, 507, /database is out of space/),
        volumeBefore,
      );
      await readsAnswer();
      // Small writes may still fit in a page's free bytes (SQLite only refuses what needs a new page):
      // each either succeeds or is a clear 507, never a 500.
      for (const [name, write] of Object.entries(small)) {
        const { response, error } = await write();
        tally.answered(response.status, [507]);
        if (!response.ok)
          expect({ name, status: response.status, error }).toEqual({
            name,
            status: 507,
            error: expect.objectContaining({ error: expect.stringMatching(/out of space/) }),
          });
      }
      expect(await integrity()).toBe('ok');
    } finally {
      await client.execute({ sql: 'DELETE FROM settings WHERE key LIKE ?', args: ['filler-%'] });
      await client.execute('PRAGMA max_page_count = 4294967294');
    }
    await succeededAll({ avatar });
    const stored = await admin.api.GET('/api/bot/{id}/avatar', {
      params: { path: { id: botId } },
      parseAs: 'arrayBuffer',
    });
    expect(stored.data?.byteLength).toBe(180 * 1024);
    expect(await integrity()).toBe('ok');
  }, 60_000);
});

/**
 * Takes the free bytes left in the database's pages with ignored settings rows, halving the row size
 * each time one no longer fits, until not even a small row does: a disk filled to the last byte.
 */
async function fillLastBytes(): Promise<number> {
  let rows = 0;
  for (let size = 64 * 1024; size >= 16; ) {
    try {
      await t.db.$client.execute({
        sql: 'INSERT INTO settings (key, value, updated_at) VALUES (?, ?, 0)',
        args: [`filler-${rows}`, 'x'.repeat(size)],
      });
      rows++;
    } catch {
      size = Math.floor(size / 2);
    }
  }
  return rows;
}
