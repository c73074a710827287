/**
 * The `library_a` (Jellyfin) client against an msw stand-in for the server: both ways of logging in,
 * the token kept in `platform_accounts` and shared between processes, its renewal after a 401, and
 * a changed server address or user throwing the kept token away.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  ALICE,
  ALICE_LOGIN,
  API_KEY,
  BOB,
  JELLYFIN_URL,
  useJellyfinApi,
  useJellyfinSettings,
} from '../../../tests/helpers/jellyfin-api';
import { platformAccounts } from '../../db/schema';
import type { JellyfinClient } from './jellyfin-client';
import { INVALID_API_KEY, WRONG_PASSWORD } from './jellyfin-login';
import { ItemsSchema } from './jellyfin-schemas';

const api = useJellyfinApi();
// A trailing slash and a capitalised user name: both are read as Jellyfin reads them.
const jellyfin = useJellyfinSettings({ ...ALICE_LOGIN, serverUrl: `${JELLYFIN_URL}/`, username: 'Alice' });
const { newClient } = jellyfin;
const listSongs = (client: JellyfinClient) =>
  client.get('/Items', { IncludeItemTypes: 'Audio', Recursive: true }, ItemsSchema);
const storedRow = () =>
  jellyfin.db().query.platformAccounts.findFirst({ where: eq(platformAccounts.platform, 'library_a') });
const logins = () => api.to('/Users/AuthenticateByName');

describe('Jellyfin client, password mode', () => {
  it('logs in by name with the MediaBrowser header, then sends the token and the user id', async () => {
    const songs = await listSongs(newClient());
    expect(songs.ok && songs.value.data.Items.length).toBe(3);
    const [login, items] = api.requests;
    expect(login).toMatchObject({
      method: 'POST',
      path: '/Users/AuthenticateByName',
      body: { Username: 'Alice', Pw: ALICE.password },
      auth: { Client: 'TS3 Music Bot', Device: 'TS3 Music Bot', DeviceId: 'ts3-music-bot', Version: '1.0.0' },
    });
    expect(login!.auth.Token).toBeUndefined();
    expect(items).toMatchObject({
      path: '/Items',
      query: { userId: ALICE.id, IncludeItemTypes: 'Audio', Recursive: 'true' },
      auth: { Token: 'usertoken1', DeviceId: 'ts3-music-bot' },
    });
  });

  it('keeps the token in platform_accounts, where another process finds it without logging in', async () => {
    await listSongs(newClient());
    const row = await storedRow();
    expect(JSON.parse(row!.credential)).toEqual({
      serverUrl: JELLYFIN_URL,
      userId: ALICE.id,
      token: 'usertoken1',
    });
    expect(row!.nickname).toBe('alice');

    await listSongs(newClient());
    expect(logins()).toHaveLength(1);
    expect(api.to('/Items').map((r) => r.auth.Token)).toEqual(['usertoken1', 'usertoken1']);
  });

  it('logs in once more after a 401 and retries with the new token, which it keeps', async () => {
    const client = newClient();
    await listSongs(client);
    api.expireTokens();
    const songs = await listSongs(client);
    expect(songs.ok).toBe(true);
    expect(api.requests.map((r) => `${r.path} ${r.auth.Token ?? '-'}`)).toEqual([
      '/Users/AuthenticateByName -',
      '/Items usertoken1',
      '/Items usertoken1',
      '/Users/AuthenticateByName -',
      '/Items usertoken2',
    ]);
    expect(JSON.parse((await storedRow())!.credential).token).toBe('usertoken2');
  });

  it('drops the kept token when the user name or the server address changes', async () => {
    await listSongs(newClient());
    await jellyfin.configure({ username: 'bob', password: BOB.password });
    await listSongs(newClient());
    expect(api.to('/Items').at(-1)!.query.userId).toBe(BOB.id);

    await jellyfin
      .db()
      .update(platformAccounts)
      .set({
        credential: JSON.stringify({ serverUrl: 'https://old.example.test', userId: BOB.id, token: 'x' }),
      });
    await listSongs(newClient());
    expect(logins().map((r) => (r.body as { Username: string }).Username)).toEqual(['Alice', 'bob', 'bob']);
    expect(JSON.parse((await storedRow())!.credential).serverUrl).toBe(JELLYFIN_URL);
  });

  it('says a wrong password is one, and stores nothing', async () => {
    await jellyfin.configure({ password: 'wrong' });
    expect(await listSongs(newClient())).toEqual({ ok: false, error: WRONG_PASSWORD });
    expect(await storedRow()).toBeUndefined();
  });

  it('says a Jellyfin without a server address is not configured, without asking anyone', async () => {
    await jellyfin.configure({ serverUrl: '' });
    expect(await listSongs(newClient())).toEqual({ ok: false, error: 'Jellyfin is not configured' });
    await jellyfin.configure({ username: ' ' });
    expect(await listSongs(newClient())).toEqual({
      ok: false,
      error: 'Jellyfin is not configured: no username',
    });
    expect(api.requests).toEqual([]);
  });
});

describe('Jellyfin client, API key mode (the key lives in the settings password field)', () => {
  const KEY_LOGIN = { serverUrl: JELLYFIN_URL, authMode: 'apikey', username: '', password: API_KEY } as const;

  it('acts as the first active administrator, with the key as the token and no login', async () => {
    await jellyfin.configure(KEY_LOGIN);
    await listSongs(newClient());
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /Users', 'GET /Items']);
    expect(api.requests.every((r) => r.auth.Token === API_KEY)).toBe(true);
    // carol is an administrator too, but disabled.
    expect(api.to('/Items')[0]!.query.userId).toBe(ALICE.id);
    expect(JSON.parse((await storedRow())!.credential)).toEqual({
      serverUrl: JELLYFIN_URL,
      userId: ALICE.id,
      token: API_KEY,
    });
  });

  it('acts as the configured user, and says when there is none of that name', async () => {
    await jellyfin.configure({ ...KEY_LOGIN, username: 'BOB' });
    await listSongs(newClient());
    expect(api.to('/Items')[0]!.query.userId).toBe(BOB.id);

    await jellyfin.configure({ ...KEY_LOGIN, username: 'dave' });
    expect(await listSongs(newClient())).toEqual({
      ok: false,
      error: 'Jellyfin has no active user named dave',
    });
  });

  it('says an invalid key is one, and that a key mode without a key is not configured', async () => {
    await jellyfin.configure({ ...KEY_LOGIN, password: '0123456789abcdef0123456789abcdef' });
    expect(await listSongs(newClient())).toEqual({ ok: false, error: INVALID_API_KEY });
    await jellyfin.configure({ ...KEY_LOGIN, password: '' });
    expect(await listSongs(newClient())).toEqual({
      ok: false,
      error: 'Jellyfin is not configured: no API key',
    });
  });
});
