import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, migrateDb, openDb } from '../../db/client';
import { platformAccounts } from '../../db/schema';
import { storedLogin } from './stored-login';

let dir = '';
let db: Db;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tsmb-stored-login-'));
  db = openDb({ url: `file:${join(dir, 'bot.db')}` });
  await migrateDb(db);
});
afterAll(() => {
  db?.$client.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A parser that reads a login only from a cookie with `TOKEN`. */
const parse = (cookie: string) => (cookie.includes('TOKEN=') ? { cookie } : undefined);

describe('the shared stored-login store', () => {
  it("reads the platform's own row through its parser, on every use", async () => {
    const lookup = storedLogin(db, 'music_b', parse);
    expect(await lookup()).toBeUndefined();
    await db
      .insert(platformAccounts)
      .values({ platform: 'music_b', credential: 'TOKEN=t1', updatedAt: new Date() });
    await db
      .insert(platformAccounts)
      .values({ platform: 'video_a', credential: 'TOKEN=other', updatedAt: new Date() });
    expect(await lookup()).toEqual({ cookie: 'TOKEN=t1' });
  });

  it('is "not logged in" for a row the parser does not read as a login', async () => {
    await db
      .insert(platformAccounts)
      .values({ platform: 'music_c', credential: 'nothing', updatedAt: new Date() });
    expect(await storedLogin(db, 'music_c', parse)()).toBeUndefined();
  });
});
