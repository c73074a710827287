/**
 * The upload janitor against a real libSQL file and the in-process bus: a played upload is deleted
 * (row and file) once no bot's queue holds it, never while one does (a saved queue counts), never
 * when some bot's owner does not answer, and never while `keepUploads` keeps played files as a
 * library, which then only the quota's eviction thins, oldest first.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UploadJanitor } from '../../daemon/upload-janitor';
import { InProcessBus } from '../../shared/bus/in-process-bus';
import { queuedUploadIds } from '../../shared/bus/queued-uploads';
import { botCommandSubject } from '../../shared/bus/subjects';
import { type Db, migrateDb, openDb } from '../../shared/db/client';
import { bots, savedQueues, settings, uploads } from '../../shared/db/schema';
import type { Song } from '../../shared/domain/schemas';
import { logger } from '../../shared/logger';
import { upsertSetting } from '../../shared/settings/stored-value';
import { UPLOADS_DIR } from '../../shared/sources/local/local-source';
import { evictOverQuota, markUploadPlayed } from '../../shared/sources/local/upload-retention';
import { botRow } from '../../testkit/bot-row';
import { addToneUpload } from '../../testkit/tone-uploads';

let dataDir: string;
let db: Db;
const bus = new InProcessBus(300);
let ownQueue: Song[] = [];
let janitor: UploadJanitor;

const stored = async (song: Song) => {
  const row = await db.query.uploads.findFirst({ where: eq(uploads.id, song.id) });
  return row !== undefined && existsSync(join(dataDir, UPLOADS_DIR, row.storedName));
};

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'janitor-'));
  db = openDb({ url: `file:${join(dataDir, 'bot.db')}` });
  await migrateDb(db);
  await db.insert(bots).values(botRow('own', 'own'));
  janitor = new UploadJanitor({
    db,
    bus,
    dataDir,
    log: logger('test'),
    ownQueues: () => new Map([['own', ownQueue]]),
  });
});
afterAll(async () => {
  janitor.stop();
  await bus.close();
  db.$client.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('upload janitor', () => {
  it('keeps a played upload while a queue holds it, deletes it once none does, and never an unplayed one', async () => {
    const played = await addToneUpload(db, dataDir, 'played', [{ frequencyHz: 440, seconds: 1 }]);
    const unplayed = await addToneUpload(db, dataDir, 'unplayed', [{ frequencyHz: 440, seconds: 1 }]);
    await markUploadPlayed(db, played.id);
    ownQueue = [played];
    expect(await janitor.sweep()).toEqual([]);
    expect(await stored(played)).toBe(true);
    ownQueue = [];
    expect(await janitor.sweep()).toEqual([played.id]);
    expect(await stored(played)).toBe(false);
    expect(await stored(unplayed)).toBe(true);
  });

  it("asks other daemons' bots over the bus, and deletes nothing when one does not answer", async () => {
    await db.insert(bots).values(botRow('remote', 'remote', 'r'));
    const song = await addToneUpload(db, dataDir, 'remote', [{ frequencyHz: 440, seconds: 1 }]);
    await markUploadPlayed(db, song.id);
    const answering = bus.respond(botCommandSubject('remote'), () => ({
      ok: true,
      status: 200,
      data: { songs: [song] },
    }));
    expect(await janitor.sweep()).toEqual([]);
    answering.unsubscribe();
    const hanging = bus.respond(botCommandSubject('remote'), () => new Promise(() => {}));
    expect(await janitor.sweep()).toBeUndefined();
    expect(await stored(song)).toBe(true);
    hanging.unsubscribe();
    // Nobody runs the remote bot: its queue is gone with its daemon, so the upload may go.
    expect(await janitor.sweep()).toEqual([song.id]);
  });

  it('keeps a played upload a saved queue lists, and takes it once that saved queue is deleted', async () => {
    const song = await addToneUpload(db, dataDir, 'saved', [{ frequencyHz: 440, seconds: 1 }]);
    await markUploadPlayed(db, song.id);
    ownQueue = [];
    const now = new Date();
    await db.insert(savedQueues).values({
      id: 'evening',
      ownerId: 'someone',
      name: 'Evening',
      songs: JSON.stringify([song]),
      songCount: 1,
      createdAt: now,
      updatedAt: now,
    });
    expect(await janitor.sweep()).toEqual([]);
    expect(await stored(song)).toBe(true);

    await db.delete(savedQueues).where(eq(savedQueues.id, 'evening'));
    expect(await janitor.sweep()).toEqual([song.id]);
    expect(await stored(song)).toBe(false);
  });

  it('with keepUploads on keeps played uploads, which the quota then evicts oldest first', async () => {
    await upsertSetting(db, 'keepUploads', true);
    const library: Song[] = [];
    try {
      ownQueue = [];
      for (const [index, name] of ['oldest', 'middle', 'newest'].entries()) {
        const song = await addToneUpload(db, dataDir, name, [{ frequencyHz: 440, seconds: 1 }]);
        // 100 bytes each, a minute apart: the order the quota evicts them in.
        const createdAt = new Date(Date.now() - (3 - index) * 60_000);
        await db.update(uploads).set({ sizeBytes: 100, createdAt }).where(eq(uploads.id, song.id));
        await markUploadPlayed(db, song.id);
        library.push(song);
      }
      const [oldest, middle, newest] = library as [Song, Song, Song];
      expect(await janitor.sweep()).toEqual([]);
      for (const song of library) expect(await stored(song)).toBe(true);

      // A new 100-byte upload against a 250-byte quota: the two oldest no queue lists make room.
      const fresh = await addToneUpload(db, dataDir, 'fresh', [{ frequencyHz: 440, seconds: 1 }]);
      await db.update(uploads).set({ sizeBytes: 100 }).where(eq(uploads.id, fresh.id));
      const referenced = await queuedUploadIds({ db, bus, ownQueues: () => new Map([['own', ownQueue]]) });
      expect(
        await evictOverQuota(db, dataDir, { quotaBytes: 250, keepId: fresh.id, referenced: referenced! }),
      ).toEqual([oldest.id, middle.id]);
      expect(await stored(newest)).toBe(true);
      expect(await stored(fresh)).toBe(true);
    } finally {
      await db.delete(settings).where(eq(settings.key, 'keepUploads'));
    }
    // Off again: what is left of the played library goes at the next sweep.
    expect(await janitor.sweep()).toEqual([library[2]?.id]);
  });
});
