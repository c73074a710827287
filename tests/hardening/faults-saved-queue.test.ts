/**
 * Corrupted queue blobs in the database (SPEC: "a corrupt blob reads as an empty queue"):
 * - a saved queue (`/api/saved-queues`) whose songs are not JSON, not a list of songs, or raw bytes is
 *   still listed, with 0 songs, and loading it answers "no songs" with the bot's queue untouched;
 * - a bot's live-queue snapshot that is damaged the same ways is read as an empty queue at daemon
 *   start: every bot still starts and connects, none plays garbage, and the snapshot written next is
 *   sound again. A snapshot whose songs are fine but whose index and position are out of range keeps
 *   its songs and starts nothing.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { bots as botsTable, queueSnapshots, savedQueues } from '../../shared/db/schema';
import { SHARED_QUEUE_OWNER } from '../../shared/domain/constants';
import { receipts } from '../../shared/receipts';
import { insertBot, type Session, withAdminApp } from '../../testkit/accounts';
import { botRow } from '../../testkit/bot-row';
import type { TestApp } from '../../testkit/test-app';
import { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';
import { DaemonHarness } from '../daemon/harness';
import { useFaultTally } from './fault-tally';

const tally = useFaultTally('faults-saved-queue');

/** What a damaged blob may hold: bytes that are not JSON, JSON of the wrong shape, raw binary. */
const CORRUPT_BLOBS: Record<string, string | Uint8Array> = {
  truncated: '[{"id":"1","name":"Half a so',
  notAList: '{"songs":[]}',
  wrongSongs: '[{"id":1,"title":"no such fields"},null]',
  binary: Uint8Array.from([0x00, 0xff, 0xfe, 0x7b, 0x5b]),
  empty: '',
};

describe('a corrupted saved queue', () => {
  let t: TestApp;
  let admin: Session;
  let botId: string;
  withAdminApp(async (app, session) => {
    t = app;
    admin = session;
    botId = await insertBot(app, 'Loader');
    await admin.api.POST('/api/bot/settings', { body: { savedQueuesEnabled: true } });
  });

  it('is listed, and loading it answers "no songs" and leaves the bot as it was', async () => {
    const now = new Date();
    for (const [name, songs] of Object.entries(CORRUPT_BLOBS)) {
      // Raw SQL: the schema's types would not let a test store bytes where text belongs.
      await t.db.$client.execute({
        sql: 'INSERT INTO saved_queues (id, owner_id, name, songs, song_count, created_at, updated_at) VALUES (?, ?, ?, ?, 3, ?, ?)',
        args: [randomUUID(), SHARED_QUEUE_OWNER, name, songs, now.getTime(), now.getTime()],
      });
      tally.injected();
    }
    const listed = await admin.api.GET('/api/saved-queues');
    expect(tally.answered(listed.response.status)).toBe(200);
    const queues = listed.data?.queues ?? [];
    expect(queues.map((q) => q.name).sort()).toEqual(Object.keys(CORRUPT_BLOBS).sort());
    // The list agrees with what loading reads: no songs, whatever count was stored beside the blob.
    expect(queues.map((q) => q.songCount)).toEqual(queues.map(() => 0));
    const bot = { params: { path: { botId } } };
    const before = (await admin.api.GET('/api/player/{botId}/queue', bot)).data;
    for (const queue of queues) {
      const loaded = await admin.api.POST('/api/saved-queues/{id}/load', {
        params: { path: { id: queue.id } },
        body: { botId },
      });
      expect(tally.answered(loaded.response.status)).toBe(200);
      expect(loaded.data).toMatchObject({
        ok: false,
        loaded: 0,
        mode: 'replace',
        message: receipts.emptyList(queue.name),
      });
    }
    const after = (await admin.api.GET('/api/player/{botId}/queue', bot)).data;
    if (JSON.stringify(after) !== JSON.stringify(before)) tally.changedData();
    expect(after).toEqual(before);
    // A corrupt queue can still be deleted (and is then gone from the list).
    const removed = await admin.api.DELETE('/api/saved-queues/{id}', {
      params: { path: { id: queues[0]!.id } },
    });
    expect(tally.answered(removed.response.status)).toBe(200);
    expect(
      await t.db.query.savedQueues.findFirst({ where: eq(savedQueues.id, queues[0]!.id) }),
    ).toBeUndefined();
  });
});

describe('a corrupted live-queue snapshot', () => {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  it('reads as an empty queue: every bot starts and connects, and the next snapshot is sound', async () => {
    const server = await Ts3TestServer.start();
    closers.push(() => server.close());
    const h = await DaemonHarness.create(server);
    closers.push(() => h.close());
    await h.setSettings({ savedQueuesEnabled: true });
    const song = await h.toneSong('kept', [{ frequencyHz: 500, seconds: 5 }]);
    const damaged: Record<string, { songs: string | Uint8Array; index: number; position: number }> = {
      ...Object.fromEntries(
        Object.entries(CORRUPT_BLOBS).map(([name, songs]) => [name, { songs, index: 0, position: 12 }]),
      ),
      // Sound songs behind an index and a position that point nowhere.
      outOfRange: { songs: JSON.stringify([song]), index: 7, position: -40 },
    };
    const bots = new Map<string, string>();
    for (const [name, snapshot] of Object.entries(damaged)) {
      const id = randomUUID();
      await h.db.insert(botsTable).values({ ...botRow(id, name), serverPort: server.port, autoStart: true });
      // Raw SQL: the schema's types would not let a test store bytes where text belongs.
      await h.db.$client.execute({
        sql: 'INSERT INTO queue_snapshots (bot_id, songs, current_index, position_seconds, updated_at) VALUES (?, ?, ?, ?, ?)',
        args: [id, snapshot.songs, snapshot.index, snapshot.position, Date.now()],
      });
      tally.injected();
      bots.set(name, id);
    }
    await h.startDaemon();
    for (const [name, id] of bots) {
      const status = await h.waitForStatus(id, (s) => s.connected, 20_000, `${name} connected`);
      expect({ name, queueSize: status.queueSize, playing: status.playing }).toEqual({
        name,
        queueSize: name === 'outOfRange' ? 1 : 0,
        playing: false,
      });
    }
    for (const [name, id] of bots) {
      await h.waitFor(
        async () => {
          const row = await h.db.query.queueSnapshots.findFirst({ where: eq(queueSnapshots.botId, id) });
          return typeof row?.songs === 'string' && Array.isArray(JSON.parse(row.songs));
        },
        5000,
        `a sound snapshot of ${name}`,
      );
    }
    const owned = h.daemon?.ownedBotIds() ?? [];
    if (owned.length !== bots.size) tally.crashed();
    expect(owned.sort()).toEqual([...bots.values()].sort());
  }, 60_000);
});
