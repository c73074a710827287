/**
 * /api/saved-queues through the real app and daemon (SPEC "Saved queues" and Limits): 403 while the
 * feature is off, before a request is even validated; a bot's queue saved privately or into the shared
 * bucket, listed with one's own; a same-named save overwrites; an empty queue is a 400; at most 50
 * queues per owner (409) and 1000 songs per queue; another user's private queue is a 404 to list,
 * load or delete; deleting one's own or a shared queue.
 *
 * The bots' queues are restored from live-queue snapshots at bot start, so no voice server is needed.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { SAVED_QUEUE_MAX_SONGS, SAVED_QUEUES_PER_OWNER } from '../../api/saved-queues';
import { queueSnapshots, savedQueues } from '../../shared/db/schema';
import { SHARED_QUEUE_OWNER } from '../../shared/domain/constants';
import type { Song } from '../../shared/domain/schemas';
import { createMember, insertBot, type Session, withAdminApp } from '../../testkit/accounts';
import type { TestApp } from '../../testkit/test-app';

let t: TestApp;
let admin: Session;
let member: Session;
withAdminApp(async (app, session) => {
  t = app;
  admin = session;
  member = await createMember(app, session, { bots: 'all' });
});

const songs = (count: number, prefix = randomUUID().slice(0, 8)): Song[] =>
  Array.from({ length: count }, (_, i) => ({
    id: `${prefix}-${i}`,
    name: `Song ${i}`,
    artist: 'Tester',
    album: '',
    duration: 60,
    coverUrl: '',
    platform: 'local' as const,
  }));

/** A bot whose queue holds `queued`: its live-queue snapshot, restored when the daemon starts it. */
async function botWithQueue(queued: Song[]): Promise<string> {
  const botId = await insertBot(t, undefined, (id) =>
    t.db.insert(queueSnapshots).values({
      botId: id,
      songs: JSON.stringify(queued),
      currentIndex: -1,
      positionSeconds: 0,
      updatedAt: new Date(),
    }),
  );
  // The daemon restores the snapshot as it starts the bot.
  await vi.waitFor(async () => {
    const { data } = await admin.api.GET('/api/player/{botId}/queue', { params: { path: { botId } } });
    expect(data?.queue).toHaveLength(queued.length);
  });
  return botId;
}

const list = async (session: Session) => (await session.api.GET('/api/saved-queues')).data?.queues ?? [];
const save = (session: Session, body: { botId: string; name: string; shared?: boolean }) =>
  session.api.POST('/api/saved-queues', { body });
const rowsNamed = (ownerId: string, name: string) =>
  t.db
    .select()
    .from(savedQueues)
    .where(and(eq(savedQueues.ownerId, ownerId), eq(savedQueues.name, name)));

describe('while savedQueuesEnabled is off (the default)', () => {
  it('answers 403 on every route, before the request is validated, and stores nothing', async () => {
    const id = randomUUID();
    for (const session of [admin, member]) {
      const calls = [
        session.api.GET('/api/saved-queues'),
        // Each of these is also a bad request: the gate answers first.
        session.api.POST('/api/saved-queues', { body: {} as never }),
        session.api.POST('/api/saved-queues/{id}/load', {
          params: { path: { id } },
          body: { botId: 'x', mode: 'sideways' } as never,
        }),
        session.api.DELETE('/api/saved-queues/{id}', { params: { path: { id } } }),
      ];
      for (const { response, error } of await Promise.all(calls)) {
        expect([response.status, error]).toEqual([
          403,
          expect.objectContaining({ error: 'saved queues are disabled' }),
        ]);
      }
    }
    expect(await t.db.select().from(savedQueues)).toEqual([]);
  });
});

describe('once enabled', () => {
  let three: Song[];
  let two: Song[];
  let threeBot: string;
  let twoBot: string;
  let emptyBot: string;
  beforeAll(async () => {
    const on = await admin.api.POST('/api/bot/settings', { body: { savedQueuesEnabled: true } });
    expect(on.response.status).toBe(200);
    three = songs(3);
    two = songs(2);
    [threeBot, twoBot, emptyBot] = await Promise.all([
      botWithQueue(three),
      botWithQueue(two),
      botWithQueue([]),
    ]);
  });

  it("saves a bot's queue as the caller's own and lists it", async () => {
    const { data, response } = await save(admin, { botId: threeBot, name: 'Evening' });
    expect(response.status).toBe(200);
    expect(data?.queue).toMatchObject({ ownerId: admin.id, name: 'Evening', songCount: 3 });
    expect(await list(admin)).toContainEqual(data?.queue);
    const [row] = await rowsNamed(admin.id, 'Evening');
    expect(JSON.parse(row!.songs)).toEqual(three);
  });

  it('overwrites a queue of the same name and owner, keeping its id', async () => {
    const first = await save(admin, { botId: threeBot, name: 'Overwritten' });
    const second = await save(admin, { botId: twoBot, name: 'Overwritten' });
    expect(second.response.status).toBe(200);
    expect(second.data?.queue).toMatchObject({ id: first.data?.queue.id, songCount: 2 });
    expect(second.data?.queue.createdAt).toBe(first.data?.queue.createdAt);
    const rows = await rowsNamed(admin.id, 'Overwritten');
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.songs)).toEqual(two);
  });

  it('answers 400 for an empty queue and stores nothing', async () => {
    const { error, response } = await save(admin, { botId: emptyBot, name: 'Nothing' });
    expect([response.status, error]).toEqual([
      400,
      expect.objectContaining({ error: 'the queue is empty; nothing to save' }),
    ]);
    expect(await rowsNamed(admin.id, 'Nothing')).toEqual([]);
  });

  it('stores shared: true in the shared bucket, listed for everyone beside their own', async () => {
    const shared = await save(admin, { botId: twoBot, name: 'For everyone', shared: true });
    expect(shared.data?.queue).toMatchObject({ ownerId: SHARED_QUEUE_OWNER, songCount: 2 });
    const own = await save(member, { botId: threeBot, name: 'Mine' });
    expect(own.data?.queue.ownerId).toBe(member.id);
    const seen = (await list(member)).map((q) => [q.ownerId, q.name]);
    expect(seen).toContainEqual([SHARED_QUEUE_OWNER, 'For everyone']);
    expect(seen).toContainEqual([member.id, 'Mine']);
    expect(seen.filter(([owner]) => owner !== member.id && owner !== SHARED_QUEUE_OWNER)).toEqual([]);
  });

  it("answers 404 for another user's private queue: not listed, not loaded, not deleted", async () => {
    const { data } = await save(admin, { botId: threeBot, name: 'Private' });
    const id = data!.queue.id;
    expect((await list(member)).map((q) => q.id)).not.toContain(id);
    const loaded = await member.api.POST('/api/saved-queues/{id}/load', {
      params: { path: { id } },
      body: { botId: twoBot },
    });
    expect([loaded.response.status, loaded.error]).toEqual([
      404,
      expect.objectContaining({ error: 'saved queue not found' }),
    ]);
    const deleted = await member.api.DELETE('/api/saved-queues/{id}', { params: { path: { id } } });
    expect(deleted.response.status).toBe(404);
    expect(await rowsNamed(admin.id, 'Private')).toHaveLength(1);
  });

  it('deletes one’s own queue and a shared one; a second delete is a 404', async () => {
    const own = (await save(member, { botId: twoBot, name: 'Short-lived' })).data!.queue;
    const shared = (await save(admin, { botId: twoBot, name: 'Shared, short-lived', shared: true })).data!
      .queue;
    for (const { id } of [own, shared]) {
      const gone = await member.api.DELETE('/api/saved-queues/{id}', { params: { path: { id } } });
      expect([gone.response.status, gone.data]).toEqual([200, { ok: true }]);
      const again = await member.api.DELETE('/api/saved-queues/{id}', { params: { path: { id } } });
      expect(again.response.status).toBe(404);
    }
    const ids = (await list(member)).map((q) => q.id);
    expect(ids).not.toContain(own.id);
    expect(ids).not.toContain(shared.id);
  });

  it(`holds at most ${SAVED_QUEUES_PER_OWNER} queues per owner (409), while overwriting still works`, async () => {
    const owner = await createMember(t, admin, { bots: 'all' });
    const now = new Date();
    await t.db.insert(savedQueues).values(
      Array.from({ length: SAVED_QUEUES_PER_OWNER - 1 }, (_, i) => ({
        id: randomUUID(),
        ownerId: owner.id,
        name: `Queue ${i}`,
        songs: JSON.stringify(two),
        songCount: 2,
        createdAt: now,
        updatedAt: now,
      })),
    );
    expect((await save(owner, { botId: twoBot, name: 'The fiftieth' })).response.status).toBe(200);
    const over = await save(owner, { botId: twoBot, name: 'One too many' });
    expect([over.response.status, over.error]).toEqual([
      409,
      expect.objectContaining({ error: `at most ${SAVED_QUEUES_PER_OWNER} saved queues; delete one first` }),
    ]);
    expect(await rowsNamed(owner.id, 'One too many')).toEqual([]);
    const overwrite = await save(owner, { botId: threeBot, name: 'Queue 0' });
    expect(overwrite.data?.queue.songCount).toBe(3);
    // The cap is per owner: the shared bucket and other users still save.
    expect((await save(owner, { botId: twoBot, name: 'Shared', shared: true })).response.status).toBe(200);
    expect((await list(owner)).filter((q) => q.ownerId === owner.id)).toHaveLength(SAVED_QUEUES_PER_OWNER);
  });

  it(`holds at most ${SAVED_QUEUE_MAX_SONGS} songs in a queue`, async () => {
    const [full, over] = await Promise.all([
      botWithQueue(songs(SAVED_QUEUE_MAX_SONGS)),
      botWithQueue(songs(SAVED_QUEUE_MAX_SONGS + 1)),
    ]);
    const kept = await save(admin, { botId: full, name: 'Full' });
    expect(kept.data?.queue.songCount).toBe(SAVED_QUEUE_MAX_SONGS);
    const refused = await save(admin, { botId: over, name: 'Too long' });
    expect([refused.response.status, refused.error]).toEqual([
      400,
      expect.objectContaining({ error: `a saved queue holds at most ${SAVED_QUEUE_MAX_SONGS} songs` }),
    ]);
    expect(await rowsNamed(admin.id, 'Too long')).toEqual([]);
  });
});
