/**
 * Upload retention: played-and-unqueued files are collected, the quota evicts oldest-first around the
 * queued ones and the new one, queue snapshots name the queued uploads, and the upload route takes an
 * injected size limit and "queued" function (as the lead wires the daemons' live queues in).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OpenAPIHono } from '@hono/zod-openapi';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../../api/access/principal';
import type { AppEnv } from '../../api/env';
import { errorHandler } from '../../api/errors';
import { uploadRoutes } from '../../api/uploads';
import { queueSnapshots, savedQueues, uploads } from '../../shared/db/schema';
import { UPLOADS_DIR } from '../../shared/sources/local/local-source';
import {
  collectPlayedUploads,
  evictOverQuota,
  markUploadPlayed,
  uploadsInStoredQueues,
} from '../../shared/sources/local/upload-retention';
import { insertBot } from '../../testkit/accounts';
import { startTestApp, type TestApp } from '../../testkit/test-app';
import { filesIn, plainWav, uploadRequest } from './media-files';

let t: TestApp;
let dir: string;

beforeAll(async () => {
  t = await startTestApp({ withDaemon: false });
  dir = join(t.dataDir, UPLOADS_DIR);
  mkdirSync(dir, { recursive: true });
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.delete(uploads);
  await t.db.delete(queueSnapshots);
  await t.db.delete(savedQueues);
});

async function stored(sizeBytes: number, ageMinutes: number, playedAt: Date | null = null): Promise<string> {
  const id = randomUUID();
  writeFileSync(join(dir, `${id}.ogg`), Buffer.alloc(sizeBytes));
  await t.db.insert(uploads).values({
    id,
    originalName: 'x.ogg',
    storedName: `${id}.ogg`,
    sizeBytes,
    createdAt: new Date(Date.now() - ageMinutes * 60_000),
    playedAt,
  });
  return id;
}
const present = async (id: string) => ({
  row: (await t.db.query.uploads.findFirst({ where: eq(uploads.id, id) })) !== undefined,
  file: filesIn(dir).includes(`${id}.ogg`),
});
const GONE = { row: false, file: false };
const KEPT = { row: true, file: true };

describe('markUploadPlayed and collectPlayedUploads', () => {
  it('delete what has been played and no queue holds; keep the rest', async () => {
    const playedFree = await stored(10, 5);
    const playedQueued = await stored(10, 5);
    const neverPlayed = await stored(10, 5);
    await markUploadPlayed(t.db, playedFree);
    await markUploadPlayed(t.db, playedQueued);
    const row = await t.db.query.uploads.findFirst({ where: eq(uploads.id, playedFree) });
    expect(row?.playedAt).toBeInstanceOf(Date);

    const deleted = await collectPlayedUploads(t.db, t.dataDir, new Set([playedQueued]));
    expect(deleted).toEqual([playedFree]);
    expect(await present(playedFree)).toEqual(GONE);
    expect(await present(playedQueued)).toEqual(KEPT);
    expect(await present(neverPlayed)).toEqual(KEPT);

    // Once the queue lets go of it, the next collection takes it.
    expect(await collectPlayedUploads(t.db, t.dataDir, new Set())).toEqual([playedQueued]);
  });

  it('removes the row of a played upload whose file is already gone', async () => {
    const id = await stored(10, 1, new Date());
    const { unlinkSync } = await import('node:fs');
    unlinkSync(join(dir, `${id}.ogg`));
    expect(await collectPlayedUploads(t.db, t.dataDir, new Set())).toEqual([id]);
    expect(await present(id)).toEqual(GONE);
  });
});

describe('evictOverQuota', () => {
  it('evicts oldest first, skipping queued uploads and the kept one, until under quota', async () => {
    const a = await stored(300, 50); // oldest, queued
    const b = await stored(300, 40); // the one just uploaded (kept)
    const c = await stored(300, 30);
    const d = await stored(300, 20);
    const e = await stored(300, 10);
    const evicted = await evictOverQuota(t.db, t.dataDir, {
      quotaBytes: 1000,
      keepId: b,
      referenced: new Set([a]),
    });
    // 1500 bytes: c then d go (900 left), e stays.
    expect(evicted).toEqual([c, d]);
    for (const id of [a, b, e]) expect(await present(id)).toEqual(KEPT);
    for (const id of [c, d]) expect(await present(id)).toEqual(GONE);
  });

  it('stops over quota rather than delete queued files or the kept one', async () => {
    const queued = await stored(600, 20);
    const fresh = await stored(600, 0);
    expect(
      await evictOverQuota(t.db, t.dataDir, {
        quotaBytes: 100,
        keepId: fresh,
        referenced: new Set([queued]),
      }),
    ).toEqual([]);
    expect(await present(queued)).toEqual(KEPT);
    expect(await present(fresh)).toEqual(KEPT);
  });
});

describe('uploadsInStoredQueues', () => {
  it('names the local songs of every snapshot and saved queue and ignores corrupt ones', async () => {
    const [bot1, bot2, bot3] = [await insertBot(t), await insertBot(t), await insertBot(t)];
    const song = (id: string, platform: string) => ({
      id,
      name: 'n',
      artist: '',
      album: '',
      duration: 1,
      coverUrl: '',
      platform,
    });
    const now = new Date();
    await t.db.insert(queueSnapshots).values([
      {
        botId: bot1,
        songs: JSON.stringify([song('u1', 'local'), song('123', 'music_a')]),
        currentIndex: 0,
        updatedAt: now,
      },
      { botId: bot2, songs: JSON.stringify([song('u2', 'local')]), currentIndex: -1, updatedAt: now },
      { botId: bot3, songs: '{not json', currentIndex: 0, updatedAt: now },
    ]);
    const saved = (id: string, songs: string) => ({
      id,
      ownerId: 'someone',
      name: id,
      songs,
      songCount: 1,
      createdAt: now,
      updatedAt: now,
    });
    await t.db
      .insert(savedQueues)
      .values([
        saved('kept', JSON.stringify([song('u3', 'local'), song('456', 'music_b')])),
        saved('broken', '[{"id":'),
      ]);
    expect(await uploadsInStoredQueues(t.db)).toEqual(new Set(['u1', 'u2', 'u3']));
  });
});

describe('the upload route with injected options', () => {
  const admin: Principal = {
    userId: 'admin-id',
    username: 'admin',
    role: 'admin',
    capabilities: [],
    bots: 'all',
    credential: { kind: 'session', sessionId: 's' },
  };
  const appWith = (options: Parameters<typeof uploadRoutes>[1]) => {
    const app = new OpenAPIHono<AppEnv>();
    app.use('*', async (c, next) => {
      c.set('principal', admin);
      await next();
    });
    app.route('/', uploadRoutes({ db: t.db, bus: t.bus, config: t.config, version: 'test' }, options));
    app.onError(errorHandler);
    return app;
  };

  it('cuts a streamed body off at the limit with 413 and keeps no partial file', async () => {
    const app = appWith({ maxBytes: 64 * 1024 });
    // No Content-Length: the limit must hold while the bytes arrive.
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 1024 * 1024) return controller.close();
        sent += 16 * 1024;
        controller.enqueue(new Uint8Array(16 * 1024));
      },
    });
    const before = filesIn(dir);
    const response = await app.fetch(uploadRequest({ name: 'big.mp3', bytes: body }));
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: 'The file is larger than 500 MB.' });
    expect(sent).toBeLessThan(1024 * 1024);
    expect(filesIn(dir)).toEqual(before);
  });

  it('keeps what the injected function says is queued when the quota evicts', async () => {
    const queued = await stored(2 * 1024 * 1024, 30);
    const free = await stored(2 * 1024 * 1024, 20);
    const app = appWith({ referencedUploadIds: async () => new Set([queued]) });
    const quota = t.config.uploadQuotaBytes;
    t.config.uploadQuotaBytes = 3 * 1024 * 1024;
    try {
      const response = await app.fetch(
        uploadRequest({
          name: 'n.wav',
          bytes: plainWav(t.dataDir, 1, 'render.wav'),
          contentType: 'audio/wav',
        }),
      );
      expect(response.status).toBe(200);
    } finally {
      t.config.uploadQuotaBytes = quota;
    }
    expect(await present(queued)).toEqual(KEPT);
    expect(await present(free)).toEqual(GONE);
  });
});
