/**
 * A stand-in for a Jellyfin server (msw) at `JELLYFIN_URL` (with a base path, as behind a reverse
 * proxy). It checks each request has the real shape — the `Authorization: MediaBrowser Client="…",
 * Device="…", DeviceId="…", Version="…"[, Token="…"]` header, known query names and values, report
 * bodies — and answers from the trimmed fixtures in tests/fixtures/jellyfin. Like the real server,
 * a login on a device ends that device's previous token, an unknown token answers 401, and
 * `/Items` filters its library by `Ids`, `ParentId`, `IncludeItemTypes`, `GenreIds`, `Filters` and
 * `searchTerm` (sorting is the server's business: tests check the `SortBy` asked for). Unlike the
 * real server it refuses query names it does not know, so a misspelt one fails a test instead of
 * being ignored.
 *
 * Shapes from jellyfin/jellyfin (Jellyfin.Api/Controllers/*.cs, MediaBrowser.Model/Dto/BaseItemDto.cs)
 * and Jellyfin's API authorization notes; see tests/fixtures/jellyfin/README.md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpResponse, http } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { z } from 'zod';
import { type Db, migrateDb, openDb } from '../../shared/db/client';
import { platformAccounts, settings } from '../../shared/db/schema';
import type { StoredSettings } from '../../shared/settings/settings';
import { encodeStoredValue } from '../../shared/settings/stored-value';
import { JellyfinClient } from '../../shared/sources/jellyfin/jellyfin-client';
import { storedJellyfinConfig } from '../../shared/sources/jellyfin/jellyfin-config';
import { storedJellyfinSessions } from '../../shared/sources/jellyfin/jellyfin-session-store';
import { useMswServer } from './msw-server';
import { readFixture, requestsTo, usePlatformStub } from './platform-stub';

export const JELLYFIN_URL = 'https://media.example.test/jellyfin';
export const ALICE = { id: 'a1ce0000000000000000000000000001', name: 'alice', password: 'correct horse' };
export const BOB = { id: 'b0b00000000000000000000000000002', name: 'bob', password: 'bobs secret' };
export const API_KEY = 'f00dfeed0123456789abcdef00c0ffee';
/** The settings' `jellyfin` block of a bot that logs in as alice. */
export const ALICE_LOGIN: StoredSettings['jellyfin'] = {
  serverUrl: JELLYFIN_URL,
  authMode: 'password',
  username: 'alice',
  password: ALICE.password,
};

export const jellyfinFixture = (name: string): unknown => readFixture('jellyfin', name);

const GUID = /^[0-9a-f]{32}$/;
const ITEM_KINDS = ['Audio', 'MusicAlbum', 'Playlist', 'MusicArtist', 'AudioBook', 'MusicGenre'];
const SORT_BY = [
  'SortName',
  'ParentIndexNumber',
  'IndexNumber',
  'PlayCount',
  'DateCreated',
  'Random',
  'Album',
];
const FILTERS = ['IsFavorite', 'IsPlayed', 'IsUnplayed'];
const FIELDS = ['ChildCount', 'Overview', 'Genres', 'DateCreated'];
const list = (allowed: string[]) =>
  z.string().refine((value) => value.split(',').every((part) => allowed.includes(part)));
const int = z.string().regex(/^\d+$/);

/** Query names the fake knows (Jellyfin's own spelling), with the values it accepts. */
const QUERY = {
  userId: z.string().regex(GUID),
  searchTerm: z.string().min(1),
  IncludeItemTypes: list(ITEM_KINDS),
  MediaTypes: z.enum(['Audio', 'Video']),
  Recursive: z.enum(['true', 'false']),
  Limit: int,
  StartIndex: int,
  Ids: z.string().regex(GUID),
  ParentId: z.string().regex(GUID),
  GenreIds: z.string().regex(GUID),
  SortBy: list(SORT_BY),
  SortOrder: z.enum(['Ascending', 'Descending']),
  Filters: list(FILTERS),
  Fields: list(FIELDS),
} as const;

const ReportSchema = z.object({
  ItemId: z.string().regex(GUID),
  PositionTicks: z.number().int().min(0),
  PlaySessionId: z.string().optional(),
});
const PlayingSchema = ReportSchema.extend({
  IsPaused: z.boolean(),
  PlayMethod: z.enum(['DirectPlay', 'DirectStream', 'Transcode']),
  CanSeek: z.boolean().optional(),
});
const REPORT_SCHEMAS = { '': PlayingSchema, '/Progress': PlayingSchema, '/Stopped': ReportSchema } as const;

const LibraryItemSchema = z
  .object({
    Id: z.string(),
    Name: z.string(),
    Type: z.string(),
    AlbumId: z.string().optional(),
    GenreItems: z.array(z.object({ Id: z.string() })).optional(),
    UserData: z.object({ IsFavorite: z.boolean(), Played: z.boolean() }).optional(),
  })
  .loose();
type LibraryItem = z.infer<typeof LibraryItemSchema>;

export interface JellyfinRequest {
  method: string;
  /** The path after the server's base path, e.g. `/Items`. */
  path: string;
  query: Record<string, string>;
  /** The fields of the `MediaBrowser` Authorization header. */
  auth: Record<string, string>;
  body: unknown;
}

/** `MediaBrowser Key="value", …` read into its fields; undefined when it is not that scheme. */
export function parseMediaBrowserHeader(header: string | null): Record<string, string> | undefined {
  const match = header?.match(/^MediaBrowser (.+)$/);
  if (!match) return undefined;
  const fields: Record<string, string> = {};
  for (const part of match[1]!.split(', ')) {
    const field = part.match(/^([A-Za-z]+)="([^"]*)"$/);
    if (!field) return undefined;
    fields[field[1]!] = decodeURIComponent(field[2]!);
  }
  return fields;
}

export function useJellyfinApi() {
  const stub = usePlatformStub<JellyfinRequest>();
  /** Live user tokens: token → user id. */
  const tokens = new Map<string, string>();
  const deviceTokens = new Map<string, string>();
  let issued = 0;
  const library = z.object({ Items: z.array(LibraryItemSchema) }).parse(jellyfinFixture('library')).Items;
  const users = z
    .array(z.object({ Id: z.string(), Name: z.string() }).loose())
    .parse(jellyfinFixture('users'));

  /** `fromPlayer`: an audio URL, fetched by ffmpeg with the token in its query and no Jellyfin header. */
  const route = (
    method: 'get' | 'post',
    path: string,
    answer: (r: JellyfinRequest) => Response,
    fromPlayer = false,
  ) =>
    http[method](`${JELLYFIN_URL}${path}`, async ({ request }) => {
      const url = new URL(request.url);
      const auth = parseMediaBrowserHeader(request.headers.get('authorization'));
      const text = await request.text();
      const asked: JellyfinRequest = {
        method: request.method,
        path: url.pathname.slice(new URL(JELLYFIN_URL).pathname.length),
        query: Object.fromEntries(url.searchParams),
        auth: auth ?? {},
        body: text ? JSON.parse(text) : undefined,
      };
      stub.requests.push(asked);
      return stub.reply(`${request.method} ${path}`, asked, () => {
        const complete = ['Client', 'Device', 'DeviceId', 'Version'].every((field) => auth?.[field]);
        if ((!complete && !fromPlayer) || request.headers.has('x-emby-token'))
          return new HttpResponse('Malformed authorization header', { status: 400 });
        return answer(asked);
      });
    });

  /** The user a request acts for (an API key acts for the `userId` it names), or a 401 answer. */
  const caller = (r: JellyfinRequest): { userId: string | undefined } | Response => {
    const token = r.auth.Token ?? r.query.ApiKey;
    if (token === API_KEY) return { userId: r.query.userId };
    const userId = token && tokens.get(token);
    return userId ? { userId } : new HttpResponse(null, { status: 401 });
  };
  const withCaller =
    (answer: (r: JellyfinRequest, userId: string | undefined) => Response) => (r: JellyfinRequest) => {
      const who = caller(r);
      return who instanceof Response ? who : answer(r, who.userId);
    };
  const badQuery = (r: JellyfinRequest, allowed: (keyof typeof QUERY)[]): Response | undefined => {
    for (const [name, value] of Object.entries(r.query)) {
      const schema = QUERY[name as keyof typeof QUERY];
      if (!allowed.includes(name as keyof typeof QUERY) || !schema.safeParse(value).success)
        return HttpResponse.json({ title: `bad query ${name}=${value}` }, { status: 400 });
    }
    return undefined;
  };
  const page = (items: unknown[], r: JellyfinRequest) => {
    const start = Number(r.query.StartIndex ?? 0);
    const limit = r.query.Limit === undefined ? items.length : Number(r.query.Limit);
    return HttpResponse.json({
      Items: items.slice(start, start + limit),
      TotalRecordCount: items.length,
      StartIndex: start,
    });
  };
  const matches = (item: LibraryItem, q: Record<string, string>) =>
    (!q.Ids || item.Id === q.Ids) &&
    (!q.ParentId || item.AlbumId === q.ParentId) &&
    (!q.IncludeItemTypes || q.IncludeItemTypes.split(',').includes(item.Type)) &&
    (!q.GenreIds || (item.GenreItems ?? []).some((genre) => genre.Id === q.GenreIds)) &&
    (!q.Filters?.includes('IsFavorite') || item.UserData?.IsFavorite === true) &&
    (!q.Filters?.includes('IsPlayed') || item.UserData?.Played === true) &&
    (!q.searchTerm || item.Name.toLowerCase().includes(q.searchTerm.toLowerCase()));
  const ITEMS_QUERY = Object.keys(QUERY) as (keyof typeof QUERY)[];
  const known = (id: string | undefined) => library.some((item) => item.Id === id);

  useMswServer(
    route('get', '/System/Info/Public', () => HttpResponse.json(jellyfinFixture('public-info') as object)),
    route('post', '/Users/AuthenticateByName', (r) => {
      const body = z.object({ Username: z.string(), Pw: z.string() }).safeParse(r.body);
      if (!body.success) return new HttpResponse('Username and Pw are required', { status: 400 });
      const user = [ALICE, BOB].find(
        (u) => u.name === body.data.Username.toLowerCase() && u.password === body.data.Pw,
      );
      if (!user) return new HttpResponse('Invalid username or password entered.', { status: 401 });
      const device = `${r.auth.DeviceId}/${user.id}`;
      const previous = deviceTokens.get(device);
      if (previous) tokens.delete(previous);
      const token = `usertoken${++issued}`;
      tokens.set(token, user.id);
      deviceTokens.set(device, token);
      const answer = jellyfinFixture('authenticate-by-name') as {
        AccessToken: string;
        User: { Id: string; Name: string };
      };
      return HttpResponse.json({
        ...answer,
        AccessToken: token,
        User: { ...answer.User, Id: user.id, Name: user.name },
      });
    }),
    route(
      'get',
      '/Users',
      withCaller(() => HttpResponse.json(users)),
    ),
    route(
      'get',
      '/Users/:userId',
      withCaller((r) => {
        const user = users.find((u) => r.path === `/Users/${u.Id}`);
        return user ? HttpResponse.json(user) : new HttpResponse(null, { status: 404 });
      }),
    ),
    route(
      'get',
      '/Items',
      withCaller(
        (r) =>
          badQuery(r, ITEMS_QUERY) ??
          page(
            library.filter((item) => matches(item, r.query)),
            r,
          ),
      ),
    ),
    route(
      'get',
      '/Items/:itemId/InstantMix',
      withCaller(
        (r) =>
          badQuery(r, ['userId', 'Limit']) ??
          (known(r.path.split('/')[2])
            ? page((jellyfinFixture('instant-mix') as { Items: unknown[] }).Items, r)
            : new HttpResponse(null, { status: 404 })),
      ),
    ),
    route(
      'get',
      '/Playlists/:playlistId/Items',
      withCaller(
        (r) =>
          badQuery(r, ['userId', 'Limit', 'StartIndex']) ??
          (known(r.path.split('/')[2])
            ? HttpResponse.json(jellyfinFixture('playlist-items') as object)
            : new HttpResponse('Playlist not found', { status: 404 })),
      ),
    ),
    route(
      'get',
      '/Audio/:itemId/Lyrics',
      withCaller((r) =>
        r.path === '/Audio/c0000000000000000000000000000001/Lyrics'
          ? HttpResponse.json(jellyfinFixture('lyrics') as object)
          : new HttpResponse(null, { status: 404 }),
      ),
    ),
    route(
      'get',
      '/MusicGenres',
      withCaller(
        (r) =>
          badQuery(r, ['userId', 'SortBy', 'Limit']) ??
          HttpResponse.json(jellyfinFixture('music-genres') as object),
      ),
    ),
    ...(['stream', 'universal'] as const).map((endpoint) =>
      route(
        'get',
        `/Audio/:itemId/${endpoint}`,
        withCaller((r) =>
          known(r.path.split('/')[2])
            ? new HttpResponse(new Uint8Array([0xff, 0xfb, 0x90, 0x00]), {
                headers: { 'content-type': 'audio/mpeg' },
              })
            : new HttpResponse(null, { status: 404 }),
        ),
        true,
      ),
    ),
    ...(Object.keys(REPORT_SCHEMAS) as (keyof typeof REPORT_SCHEMAS)[]).map((suffix) =>
      route(
        'post',
        `/Sessions/Playing${suffix}`,
        withCaller((r) =>
          REPORT_SCHEMAS[suffix].safeParse(r.body).success
            ? new HttpResponse(null, { status: 204 })
            : new HttpResponse('Malformed report', { status: 400 }),
        ),
      ),
    ),
  );
  // Each test meets a freshly started server: no live tokens, none issued yet.
  afterEach(() => {
    tokens.clear();
    deviceTokens.clear();
    issued = 0;
  });
  return {
    requests: stub.requests,
    /** The requests to one path, e.g. `/Items`. */
    to: requestsTo(stub.requests),
    /** Ends every user token, as a server restart with a wiped session table or an admin's "sign out" does. */
    expireTokens: () => {
      tokens.clear();
      deviceTokens.clear();
    },
    /** Answers `METHOD /path-pattern` (as registered, e.g. `GET /System/Info/Public`) with this Response. */
    answer: (key: string, response: () => Response) => stub.answer(key, response),
  };
}

/**
 * A migrated database for one test file whose settings hold `login` at the start of every test, with
 * no kept token; its clients read both, as the platform module's factories will.
 */
export function useJellyfinSettings(login: StoredSettings['jellyfin']) {
  let db: Db | undefined;
  const opened = () => {
    if (!db) throw new Error('the Jellyfin test database opens in beforeAll');
    return db;
  };
  const configure = async (changes: Partial<StoredSettings['jellyfin']>) => {
    const row = {
      key: 'jellyfin',
      value: encodeStoredValue({ ...login, ...changes }),
      updatedAt: new Date(),
    };
    await opened().insert(settings).values(row).onConflictDoUpdate({ target: settings.key, set: row });
  };
  const dir = mkdtempSync(join(tmpdir(), 'jellyfin-'));
  beforeAll(async () => {
    db = openDb({ url: `file:${join(dir, 'bot.db')}` });
    await migrateDb(db);
  });
  afterAll(() => {
    db?.$client.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await opened().delete(platformAccounts);
    await configure({});
  });
  return {
    db: opened,
    /** Stores the settings' `jellyfin` block with these changes, as the settings route does. */
    configure,
    /** A client on this database; it may be made at a test file's top, before the database opens. */
    newClient: () =>
      new JellyfinClient(() => storedJellyfinConfig(opened())(), {
        load: () => storedJellyfinSessions(opened()).load(),
        save: (session) => storedJellyfinSessions(opened()).save(session),
      }),
  };
}

/** The stand-in server and settings that log in as alice: the set-up of the adapter's own tests. */
export const useJellyfinAsAlice = () => ({
  api: useJellyfinApi(),
  jellyfin: useJellyfinSettings(ALICE_LOGIN),
});
