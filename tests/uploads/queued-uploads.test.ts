/**
 * The one answer to "which uploads does some queue hold" (shared/bus/queued-uploads.ts), against a
 * real libSQL file and the in-process bus: the daemon's own queues, other bots' live queues over the
 * bus, the stored snapshots and the saved queues all count; a bot nobody runs holds only its snapshot; and a bot whose
 * queue cannot be read for any other reason makes the answer unknown, so the janitor deletes nothing
 * and quota eviction keeps every upload (api/uploads/kept-uploads.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { uploadsKeptByEviction } from '../../api/uploads/kept-uploads';
import { BusError } from '../../shared/bus/bus';
import { InProcessBus } from '../../shared/bus/in-process-bus';
import { queuedUploadIds } from '../../shared/bus/queued-uploads';
import { botCommandSubject } from '../../shared/bus/subjects';
import { type Db, migrateDb, openDb } from '../../shared/db/client';
import { bots, queueSnapshots, savedQueues, uploads } from '../../shared/db/schema';
import type { Song } from '../../shared/domain/schemas';
import { botRow } from '../../testkit/bot-row';

const BUS_DEADLINE_MS = 300;
let dataDir: string;
let db: Db;
let bus: InProcessBus;

const upload = async (id: string) => {
  await db.insert(uploads).values({
    id,
    originalName: `${id}.ogg`,
    storedName: `${id}.ogg`,
    sizeBytes: 1,
    createdAt: new Date(),
  });
  return { id, platform: 'local' };
};
const song = (id: string, platform = 'local'): Song => ({
  id,
  name: id,
  artist: '',
  album: '',
  duration: 1,
  coverUrl: '',
  platform: platform as Song['platform'],
});

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'queued-uploads-'));
  db = openDb({ url: `file:${join(dataDir, 'bot.db')}` });
  await migrateDb(db);
  await db.insert(bots).values([botRow('own', 'own'), botRow('remote', 'remote', 'r')]);
  for (const id of ['in-own', 'in-remote', 'in-snapshot', 'in-saved', 'nowhere']) await upload(id);
  await db.insert(queueSnapshots).values({
    botId: 'remote',
    songs: JSON.stringify([song('in-snapshot'), song('in-snapshot-too', 'music_a')]),
    currentIndex: 0,
    updatedAt: new Date(),
  });
  await db.insert(savedQueues).values({
    id: 'saved',
    ownerId: 'someone',
    name: 'For later',
    songs: JSON.stringify([song('in-saved'), song('in-saved-too', 'music_a')]),
    songCount: 2,
    createdAt: new Date(),
    updatedAt: new Date(),
  });
  return () => {
    db.$client.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
});
beforeEach(() => {
  bus = new InProcessBus(BUS_DEADLINE_MS);
});
afterEach(() => bus.close());

const ownQueues = () => new Map([['own', [song('in-own'), song('in-own', 'music_a')]]]);
/** The remote bot's daemon answering `handler` to every op. */
const remoteAnswers = (handler: () => unknown) => bus.respond(botCommandSubject('remote'), handler);

describe('queuedUploadIds', () => {
  it('counts the own queues, the live queues of other bots, every stored snapshot and every saved queue', async () => {
    // The own bot is never asked over the bus: its queue is at hand.
    bus.respond(botCommandSubject('own'), () => {
      throw new Error('the own bot was asked over the bus');
    });
    remoteAnswers(() => ({ ok: true, status: 200, data: { songs: [song('in-remote')] } }));
    expect(await queuedUploadIds({ db, bus, ownQueues })).toEqual(
      new Set(['in-own', 'in-remote', 'in-snapshot', 'in-saved']),
    );
  });

  it('takes a bot no daemon runs as holding only its snapshot', async () => {
    expect(await queuedUploadIds({ db, bus, ownQueues })).toEqual(
      new Set(['in-own', 'in-snapshot', 'in-saved']),
    );
  });

  it.each([
    ['does not answer in time', () => new Promise(() => {})],
    [
      'fails',
      () => {
        throw new BusError('handler-failed', 'boom');
      },
    ],
    ['refuses', () => ({ ok: false, status: 409, message: 'not now' })],
    [
      'answers something that is not a list of songs',
      () => ({ ok: true, status: 200, data: { songs: 'x' } }),
    ],
  ])('is unknown when a running bot %s', async (_case, handler) => {
    remoteAnswers(handler);
    expect(await queuedUploadIds({ db, bus, ownQueues })).toBeUndefined();
  });

  it('is unknown while the bus is down', async () => {
    await bus.close();
    expect(await queuedUploadIds({ db, bus, ownQueues })).toBeUndefined();
  });
});

describe('uploadsKeptByEviction', () => {
  it('keeps what the queues hold when they can be read', async () => {
    remoteAnswers(() => ({ ok: true, status: 200, data: { songs: [] } }));
    expect(await uploadsKeptByEviction({ db, bus })).toEqual(new Set(['in-snapshot', 'in-saved']));
  });

  it('keeps every upload when a queue cannot be read', async () => {
    remoteAnswers(() => new Promise(() => {}));
    expect(await uploadsKeptByEviction({ db, bus })).toEqual(
      new Set(['in-own', 'in-remote', 'in-snapshot', 'in-saved', 'nowhere']),
    );
  });
});
