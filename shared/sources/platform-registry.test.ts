/**
 * The platform registry (shared/domain/platforms.ts) is the one place a platform's facts live: every
 * list derived from it — the OpenAPI enums in the committed document, the chat flags, the defaults of
 * a fresh installation, the fallback order, the quality lists, the login ways, the UI's labels in both
 * languages — says what the rows say, and each platform's adapters (platform-modules.ts) have exactly the
 * capabilities its row claims, so the UI offers only what a platform has.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseChatCommand } from '../../daemon/chat/parse-command';
import { en } from '../../web/src/i18n/en';
import { zh } from '../../web/src/i18n/zh';
import { type Db, migrateDb, openDb } from '../db/client';
import {
  AUTH_LOGIN_KINDS,
  PLATFORM_REGISTRY,
  PLATFORMS,
  type Platform,
  type PlatformFacts,
  type ShelfKind,
} from '../domain/platforms';
import { platformName } from '../i18n/phrases';
import { readQualityMap } from '../settings/quality';
import { serverCredentialsSlice } from '../settings/server-credentials';
import { readSettings } from '../settings/settings';
import { choosePlatform } from './platform-choice';
import { PLATFORM_CONFIG } from './platform-config';
import type { PlatformModule } from './platform-module';
import { Catalogs, PLATFORM_MODULES, type SourceContext } from './platform-modules';

const rows = Object.entries(PLATFORM_REGISTRY) as [Platform, PlatformFacts][];
const where = (fact: (facts: PlatformFacts) => boolean) => rows.filter(([, f]) => fact(f)).map(([p]) => p);

const document = JSON.parse(readFileSync(join(process.cwd(), 'openapi', 'openapi.json'), 'utf8')) as {
  components: { schemas: Record<string, { enum?: string[]; properties?: Record<string, unknown> }> };
};
const schema = (name: string) => document.components.schemas[name];

let dir = '';
let db: Db;
let ctx: SourceContext;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tsmb-registry-'));
  db = openDb({ url: `file:${join(dir, 'bot.db')}` });
  await migrateDb(db);
  ctx = { db, dataDir: dir };
});
afterAll(() => {
  db?.$client.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the lists derived from the registry', () => {
  it('every row has a value of its own', () => {
    expect(new Set(PLATFORMS).size).toBe(PLATFORMS.length);
    expect(rows).toHaveLength(PLATFORMS.length);
  });

  it('the committed OpenAPI document: Platform, QrPlatform and the quality report', () => {
    expect(schema('Platform')?.enum).toEqual(rows.map(([p]) => p));
    expect(schema('QrPlatform')?.enum).toEqual(where((f) => f.logins.includes('qr')));
    expect(Object.keys(schema('QualitySettings')?.properties ?? {})).toEqual(where((f) => f.qualityReported));
  });

  it('a login kept in the settings (server, oauth) names its settings key, which is its module settings slice', () => {
    for (const [platform, facts] of rows) {
      const keptInSettings = facts.logins.some((kind) => kind === 'server' || kind === 'oauth');
      const module: PlatformModule = PLATFORM_MODULES[platform];
      expect({ platform, settingsKey: facts.settingsKey }).toEqual({
        platform,
        settingsKey: keptInSettings ? module.settings?.key : undefined,
      });
      if (keptInSettings) expect(facts.settingsKey).toBeDefined();
      // The browser's server login form edits the one ServerCredentials shape.
      if (facts.logins.includes('server'))
        expect(module.settings?.shown).toBe(serverCredentialsSlice('any').shown);
    }
  });

  it('the chat flags: each row with a flag is picked by it, and no other flag picks a platform', () => {
    for (const [platform, facts] of rows) {
      const flag = facts.chatFlag;
      if (flag) expect(parseChatCommand(`!play some song ${flag}`)?.platform).toBe(platform);
    }
    const flags = rows.flatMap(([, f]) => (f.chatFlag ? [f.chatFlag] : []));
    expect(new Set(flags).size).toBe(flags.length);
    for (const letter of 'abcdefghijklmnopqrstuvwxyz')
      if (!flags.includes(`-${letter}`))
        expect(parseChatCommand(`!play some song -${letter}`)?.platform).toBeUndefined();
  });

  it('a fresh installation: the enabled platforms, and the fallback order when none is the default', async () => {
    const settings = await readSettings(db);
    expect(settings.enabledProviders).toEqual(where((f) => f.enabledByDefault));
    // With every platform enabled and no default, taking away the chosen one each time walks the order.
    const byPriority = rows
      .filter(([, f]) => f.priority !== undefined)
      .sort(([, a], [, b]) => (a.priority ?? 0) - (b.priority ?? 0))
      .map(([p]) => p);
    const walked: Platform[] = [];
    let enabled = [...PLATFORMS];
    for (;;) {
      const choice = choosePlatform(
        { enabledProviders: enabled, localAudioEnabled: true, defaultPlatform: null },
        undefined,
      );
      if (!choice.ok) break;
      walked.push(choice.value);
      enabled = enabled.filter((p) => p !== choice.value);
    }
    expect(walked).toEqual(byPriority);
    expect(new Set(rows.map(([, f]) => f.priority).filter(Boolean)).size).toBe(byPriority.length);
  });

  it('the qualities: a stored quality a platform does not serve reads as its first one', () => {
    const none = readQualityMap({});
    const unserved = readQualityMap(Object.fromEntries(PLATFORMS.map((p) => [p, 'not-a-quality'])));
    for (const [platform, facts] of rows) {
      expect(none[platform]).toBe(facts.qualities[0]);
      expect(unserved[platform]).toBe(facts.qualities[0]);
      for (const quality of facts.qualities)
        expect(readQualityMap({ [platform]: quality })[platform]).toBe(quality);
    }
  });

  it('the names: every platform has one in English (the registry one) and in Chinese, in the shared catalog only', () => {
    for (const platform of PLATFORMS) {
      expect(platformName(platform, 'en')).toBe(PLATFORM_REGISTRY[platform].name);
      expect(platformName(platform, 'zh').trim()).not.toBe('');
    }
    // The UI labels platforms from the shared catalog; a name of its own could word them apart.
    for (const catalog of [en, zh] as Record<string, string>[])
      expect(Object.keys(catalog).filter((key) => key.startsWith('platform.'))).toEqual([]);
  });

  it('the web UI keeps no list of platforms of its own (it reads the registry)', () => {
    const value = `'(?:${PLATFORMS.join('|')})'`;
    const list = new RegExp(`\\[[^\\]]*${value}[^\\]]*${value}[^\\]]*\\]`);
    const offenders = sourceFiles(join(process.cwd(), 'web', 'src')).filter((file) =>
      list.test(readFileSync(file, 'utf8')),
    );
    expect(offenders).toEqual([]);
  });
});

describe("each platform's adapters have what its row says", () => {
  const SHELF_METHODS: Record<ShelfKind, string> = {
    recommendedPlaylists: 'recommendedPlaylists',
    dailySongs: 'dailySongs',
    accountPlaylists: 'userPlaylists',
    popularVideos: 'popular',
    latestAlbums: 'latestAlbums',
    mostPlayed: 'mostPlayed',
    genres: 'genres',
    uploadedAlbums: 'uploadedAlbums',
  };

  it('the configuration reads exactly the slices the modules name', () => {
    const modules: PlatformModule[] = Object.values(PLATFORM_MODULES);
    const named = modules.flatMap((module) => (module.config ? [module.config] : []));
    expect(new Set<unknown>(PLATFORM_CONFIG)).toEqual(new Set<unknown>(named));
    expect(named).toHaveLength(PLATFORM_CONFIG.length);
  });

  it.each(PLATFORMS)('%s: search kinds, FM, lyrics, shelves and login ways', (platform) => {
    const facts: PlatformFacts = PLATFORM_REGISTRY[platform];
    const catalog = new Catalogs(ctx).get(platform) as unknown as Record<string, unknown>;
    const has = (method: string) => typeof catalog[method] === 'function';
    expect(has('searchAlbums')).toBe(facts.searchKinds.includes('albums'));
    expect(has('searchPlaylists')).toBe(facts.searchKinds.includes('playlists'));
    expect(has('personalFm')).toBe(facts.personalFm);
    expect(has('relatedSongs')).toBe(facts.relatedSongs);
    expect(has('lyrics')).toBe(facts.lyrics);
    for (const [shelf, method] of Object.entries(SHELF_METHODS))
      expect({ shelf, has: has(method) }).toEqual({ shelf, has: facts.shelves.includes(shelf as ShelfKind) });

    const module: PlatformModule = PLATFORM_MODULES[platform];
    const login = module.login?.(ctx);
    expect(AUTH_LOGIN_KINDS.filter((kind) => login?.[kind] !== undefined)).toEqual(
      AUTH_LOGIN_KINDS.filter((kind) => facts.logins.includes(kind)),
    );
  });
});

function sourceFiles(root: string): string[] {
  return readdirSync(root).flatMap((name) => {
    const path = join(root, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|vue)$/.test(name) ? [path] : [];
  });
}
