/**
 * The daemon's login refresher (daemon/login-refresher.ts) on a real libSQL file, against the stand-ins
 * for NetEase's, Kugou's and Bilibili's refresh: renewed shared and personal logins are stored, an
 * expired one is left for its status to show logged out, an unreachable platform changes nothing; the
 * conditional update keeps a newer login over a renewal of the older one, also when two daemons refresh
 * at once; rounds run at start and on the interval; and no log line it writes carries a credential.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { LoginRefresher, type LoginRefresherDeps } from '../../daemon/login-refresher';
import { type Db, migrateDb, openDb } from '../../shared/db/client';
import { personalLinks, platformAccounts, users } from '../../shared/db/schema';
import { logger } from '../../shared/logger';
import { ok } from '../../shared/result';
import type { PlatformModule } from '../../shared/sources/platform-module';
import { PLATFORM_MODULES } from '../../shared/sources/platform-modules';
import { useBilibiliRefreshApi } from '../helpers/bilibili-refresh-api';
import { useKugouRefreshApi } from '../helpers/kugou-refresh-api';
import { useNeteaseRefreshApi } from '../helpers/netease-refresh-api';

const logLines = vi.hoisted((): string[] => []);
vi.mock(import('pino'), async (importOriginal) =>
  (await import('../helpers/log-capture')).pinoAtTraceInto(logLines, await importOriginal()),
);

const netease = useNeteaseRefreshApi();
const kugou = useKugouRefreshApi();
useBilibiliRefreshApi();

/** Every credential value the tests store or the stand-ins hand out: none may reach a log line. */
const SECRETS = [
  'shared_music_u',
  'renewed_shared_music_u',
  'personal_music_u',
  'renewed_personal_music_u',
  'gone_sessdata',
  'gone_refresh_token',
  'down_kugou_token',
  'newer_login',
  'stale_renewal',
];

let dir: string;
let db: Db;
const OLD = new Date('2024-01-01T00:00:00Z');
const log = logger('daemon');

async function openFile(): Promise<Db> {
  const opened = openDb({ url: `file:${join(dir, 'bot.db')}` });
  await migrateDb(opened);
  return opened;
}

const refresher = (deps: Partial<LoginRefresherDeps> = {}, on: Db = db) =>
  new LoginRefresher({ ctx: { db: on, dataDir: dir }, log, ...deps });

const shared = async (platform: string) =>
  db.query.platformAccounts.findFirst({ where: eq(platformAccounts.platform, platform) });
const personal = async (platform: string) =>
  db.query.personalLinks.findFirst({
    where: and(eq(personalLinks.userId, 'user-1'), eq(personalLinks.platform, platform)),
  });

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tsmb-refresh-'));
  db = await openFile();
  await db.insert(users).values({ id: 'user-1', username: 'listener', role: 'member', createdAt: OLD });
});

describe('the login refresher', () => {
  it('stores renewed logins, leaves an expired one, and changes nothing when a platform is down', async () => {
    netease.renew('shared_music_u', 'renewed_shared_music_u');
    netease.renew('personal_music_u', 'renewed_personal_music_u');
    kugou.down();
    await db.insert(platformAccounts).values([
      { platform: 'music_a', credential: 'MUSIC_U=shared_music_u; NMTID=keep-me', updatedAt: OLD },
      {
        platform: 'video_a',
        credential: 'SESSDATA=gone_sessdata; bili_jct=x; ac_time_value=gone_refresh_token',
        nickname: 'Listener Nine',
        updatedAt: OLD,
      },
      {
        platform: 'music_c',
        credential: 'token=down_kugou_token; userid=40000002; KUGOU_API_MID=1; dfid=-',
        updatedAt: OLD,
      },
      { platform: 'music_b', credential: 'uin=1; qqmusic_key=no_refresh_here', updatedAt: OLD },
    ]);
    await db.insert(personalLinks).values({
      userId: 'user-1',
      platform: 'music_a',
      credential: 'MUSIC_U=personal_music_u',
      linkedAt: OLD,
    });

    expect(await refresher().round()).toEqual({
      renewed: 2,
      unchanged: 1,
      expired: 1,
      failed: 1,
      superseded: 0,
    });

    const neteaseRow = await shared('music_a');
    expect(neteaseRow?.credential).toBe(
      'MUSIC_U=renewed_shared_music_u; NMTID=keep-me; __csrf=csrf-renewed_shared_music_u',
    );
    expect(neteaseRow?.updatedAt.getTime()).toBeGreaterThan(OLD.getTime());
    expect((await personal('music_a'))?.credential).toBe(
      'MUSIC_U=renewed_personal_music_u; __csrf=csrf-renewed_personal_music_u',
    );
    // linked_at says when the user linked, not when the login was last renewed.
    expect((await personal('music_a'))?.linkedAt).toEqual(OLD);
    // The expired login stays as it is (its status reads loggedIn: false); so does the unreachable one.
    expect(await shared('video_a')).toMatchObject({
      credential: 'SESSDATA=gone_sessdata; bili_jct=x; ac_time_value=gone_refresh_token',
      nickname: 'Listener Nine',
      updatedAt: OLD,
    });
    expect(await shared('music_c')).toMatchObject({ updatedAt: OLD });
    expect((await shared('music_c'))?.credential).toContain('down_kugou_token');

    const lines = logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 40,
        platform: 'video_a',
        msg: expect.stringMatching(/no longer accepts/),
      }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 40, platform: 'music_c', reason: 'Kugou Music answered HTTP 502' }),
    );
  });

  it('keeps a login that changed while it was being renewed (conditional update), shared and personal', async () => {
    await db
      .insert(platformAccounts)
      .values({ platform: 'music_a', credential: 'MUSIC_U=a', updatedAt: OLD });
    await db
      .insert(personalLinks)
      .values({ userId: 'user-1', platform: 'music_a', credential: 'MUSIC_U=a', linkedAt: OLD });
    const newer = new Date('2024-01-02T00:00:00Z');
    // Someone logs in again while the platform is renewing the old login: first the shared, then the
    // personal one.
    let asked = 0;
    const refreshOf = () => async () => {
      if (++asked === 1)
        await db
          .update(platformAccounts)
          .set({ credential: 'MUSIC_U=newer_login', updatedAt: newer })
          .where(eq(platformAccounts.platform, 'music_a'));
      else
        await db
          .update(personalLinks)
          .set({ credential: 'MUSIC_U=newer_login' })
          .where(eq(personalLinks.userId, 'user-1'));
      return ok({ credential: 'MUSIC_U=stale_renewal' });
    };
    expect(await refresher({ refreshOf }).round()).toMatchObject({ renewed: 0, superseded: 2 });
    expect(await shared('music_a')).toMatchObject({ credential: 'MUSIC_U=newer_login', updatedAt: newer });
    expect((await personal('music_a'))?.credential).toBe('MUSIC_U=newer_login');
  });

  it('lets only one of two daemons refreshing at once store its renewal', async () => {
    await db
      .insert(platformAccounts)
      .values({ platform: 'music_a', credential: 'MUSIC_U=a', updatedAt: OLD });
    const other = await openFile();
    // Both daemons have read the row before either platform call answers.
    let arrived = 0;
    let release: () => void = () => {};
    const bothAsked = new Promise<void>((resolve) => {
      release = resolve;
    });
    const renewTo = (credential: string) => () => async () => {
      if (++arrived === 2) release();
      await bothAsked;
      return ok({ credential });
    };
    const rounds = await Promise.all([
      refresher({ refreshOf: renewTo('MUSIC_U=first') }).round(),
      refresher({ refreshOf: renewTo('MUSIC_U=second') }, other).round(),
    ]);
    expect(rounds.map((r) => r.renewed).sort()).toEqual([0, 1]);
    expect(rounds.map((r) => r.superseded).sort()).toEqual([0, 1]);
    const winner = rounds[0]?.renewed ? 'MUSIC_U=first' : 'MUSIC_U=second';
    expect((await shared('music_a'))?.credential).toBe(winner);
    other.$client.close();
  });

  it('runs a round at start and then on every interval until stopped', async () => {
    await db
      .insert(platformAccounts)
      .values({ platform: 'music_a', credential: 'MUSIC_U=a', updatedAt: OLD });
    let calls = 0;
    const running = refresher({
      intervalMs: 40,
      refreshOf: () => async () => {
        calls++;
        return ok('expired' as const);
      },
    });
    running.start();
    await vi.waitFor(() => expect(calls).toBeGreaterThanOrEqual(3), { timeout: 2000 });
    running.stop();
    const stoppedAt = calls;
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(calls).toBe(stoppedAt);
  });

  it('uses the refresh of the platforms whose login allows it', () => {
    const ctx = { db, dataDir: dir };
    const entries: [string, PlatformModule][] = Object.entries(PLATFORM_MODULES);
    const refreshable = entries
      .filter(([, entry]) => entry.login?.(ctx).refresh)
      .map(([platform]) => platform);
    expect(refreshable.sort()).toEqual(['music_a', 'music_b', 'music_c', 'video_a']);
  });

  it('never writes a credential into a log line', () => {
    expect(logLines.length).toBeGreaterThan(0);
    for (const line of logLines) for (const secret of SECRETS) expect(line).not.toContain(secret);
  });
});
