/**
 * The upload janitor against a real libSQL file and the in-process bus: a played upload is deleted
 * (row and file) once no bot's queue holds it, never while one does, and never when some bot's owner
 * does not answer.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UploadJanitor } from '../../daemon/upload-janitor';
import { InProcessBus } from '../../shared/bus/in-process-bus';
import { botCommandSubject } from '../../shared/bus/subjects';
import { type Db, migrateDb, openDb } from '../../shared/db/client';
import { bots, uploads } from '../../shared/db/schema';
import type { Song } from '../../shared/domain/schemas';
import { logger } from '../../shared/logger';
import { UPLOADS_DIR } from '../../shared/sources/local/local-source';
import { markUploadPlayed } from '../../shared/sources/local/upload-retention';
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
});
