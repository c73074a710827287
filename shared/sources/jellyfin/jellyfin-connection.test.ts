/**
 * The check behind `POST /api/auth/jellyfin/test` against an msw stand-in for the server: given
 * fields win, empty ones fall back to the stored configuration, and every failure is a sentence
 * saying why (unreachable, not a Jellyfin server, wrong password, invalid key, no such user).
 */
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  ALICE,
  ALICE_LOGIN,
  API_KEY,
  BOB,
  JELLYFIN_URL,
  useJellyfinApi,
} from '../../../tests/helpers/jellyfin-api';
import type { StoredSettings } from '../../settings/settings';
import { testJellyfinConnection } from './jellyfin-connection-test';
import { INVALID_API_KEY, WRONG_PASSWORD } from './jellyfin-login';

const api = useJellyfinApi();
const STORED = ALICE_LOGIN;
const NOTHING_STORED: StoredSettings['jellyfin'] = {
  serverUrl: '',
  authMode: 'password',
  username: '',
  password: '',
};
const PASSED = { ok: true, serverName: 'Attic Media', version: '10.10.7' };

describe('Jellyfin connection test', () => {
  it('checks the stored configuration when no field is given', async () => {
    expect(await testJellyfinConnection({}, STORED)).toEqual(PASSED);
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /System/Info/Public',
      'POST /Users/AuthenticateByName',
    ]);
  });

  it('prefers the given fields and lets empty ones fall back to the stored ones', async () => {
    expect(
      await testJellyfinConnection({ serverUrl: '', username: 'bob', password: BOB.password }, STORED),
    ).toEqual(PASSED);
    expect(await testJellyfinConnection({ username: 'bob', password: '' }, STORED)).toEqual({
      ok: false,
      error: WRONG_PASSWORD,
    });
    expect(api.to('/Users/AuthenticateByName').map((r) => r.body)).toEqual([
      { Username: 'bob', Pw: BOB.password },
      { Username: 'bob', Pw: ALICE.password },
    ]);
  });

  it('checks an API key, acting as the given user id or the first administrator', async () => {
    expect(
      await testJellyfinConnection({ authMode: 'apikey', apiKey: API_KEY, userId: BOB.id }, STORED),
    ).toEqual(PASSED);
    expect(api.requests.at(-1)).toMatchObject({ path: `/Users/${BOB.id}`, auth: { Token: API_KEY } });
    const storedKey = {
      ...NOTHING_STORED,
      serverUrl: JELLYFIN_URL,
      authMode: 'apikey',
      password: API_KEY,
    } as const;
    expect(await testJellyfinConnection({}, storedKey)).toEqual(PASSED);
    expect(api.requests.at(-1)).toMatchObject({ path: '/Users', auth: { Token: API_KEY } });
  });

  it('never takes a stored password for an API key', async () => {
    expect(await testJellyfinConnection({ authMode: 'apikey' }, STORED)).toEqual({
      ok: false,
      error: 'Jellyfin is not configured: no API key',
    });
  });

  it('says when the key is invalid or names no user', async () => {
    expect(await testJellyfinConnection({ authMode: 'apikey', apiKey: 'not-a-key' }, STORED)).toEqual({
      ok: false,
      error: INVALID_API_KEY,
    });
    const unknownUser = '0000000000000000000000000000beef';
    expect(
      await testJellyfinConnection({ authMode: 'apikey', apiKey: API_KEY, userId: unknownUser }, STORED),
    ).toEqual({ ok: false, error: `Jellyfin has no user with the id ${unknownUser}` });
  });

  it('says when nothing is configured or the address is not one', async () => {
    expect(await testJellyfinConnection({}, NOTHING_STORED)).toEqual({
      ok: false,
      error: 'Jellyfin is not configured',
    });
    expect(await testJellyfinConnection({ serverUrl: 'ftp://media.example.test' }, STORED)).toEqual({
      ok: false,
      error: 'the Jellyfin server address ftp://media.example.test is not an http(s) URL',
    });
    expect(api.requests).toEqual([]);
  });

  it('says when the server cannot be reached', async () => {
    api.answer('GET /System/Info/Public', () => HttpResponse.error());
    const result = await testJellyfinConnection({}, STORED);
    expect(result).toEqual({
      ok: false,
      error: expect.stringMatching(`^Jellyfin at ${JELLYFIN_URL} could not be reached \\(.+\\)$`),
    });
  });

  it('says when the address answers but is not a Jellyfin server', async () => {
    const notJellyfin = { ok: false, error: `${JELLYFIN_URL} is not a Jellyfin server` };
    api.answer('GET /System/Info/Public', () =>
      HttpResponse.html('<html><body>Welcome to nginx!</body></html>'),
    );
    expect(await testJellyfinConnection({}, STORED)).toEqual(notJellyfin);
    api.answer('GET /System/Info/Public', () => new HttpResponse(null, { status: 404 }));
    expect(await testJellyfinConnection({}, STORED)).toEqual(notJellyfin);
    api.answer('GET /System/Info/Public', () =>
      HttpResponse.json({ ServerName: 'Den', Version: '4.8.0.0', ProductName: 'Other Media Server' }),
    );
    expect(await testJellyfinConnection({}, STORED)).toEqual(notJellyfin);
    expect(api.to('/Users/AuthenticateByName')).toEqual([]);
  });
});
