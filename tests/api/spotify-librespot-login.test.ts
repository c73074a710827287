/**
 * librespot's own login through the real app (/api/spotify/librespot): the server starts the fake
 * librespot (tests/fakes/librespot.mjs) with librespot's `--enable-oauth` command line, answers the
 * authorization address it printed, and forwards the pasted redirect's code to librespot's loopback
 * listener; the credentials librespot writes are kept under DATA_DIR, never answered, and every run
 * then logs in with them instead of the token (the fake's command line shows the cache). Forgetting
 * goes back to the token. Admins only, audited; bad addresses are refused in words.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spotifyModule } from '../../shared/sources/spotify/spotify-module';
import { createMember, type Session, withAdminApp } from '../../testkit/accounts';
import type { TestApp } from '../../testkit/test-app';
import { FAKE_LIBRESPOT, spotifySettings, storeSpotifySettings, useSpotifyApi } from '../helpers/spotify-api';

const spotify = useSpotifyApi();
let t: TestApp;
let admin: Session;
withAdminApp(
  (app, session) => {
    t = app;
    admin = session;
  },
  { env: { LIBRESPOT_PATH: FAKE_LIBRESPOT } },
);

const keptFile = () => join(t.config.dataDir, 'spotify', 'librespot', 'credentials.json');
/** Every answer this file saw, to scan for the credentials at the end. */
const seen: string[] = [];
const remember = <T extends { response: Response }>(answer: T): T => {
  seen.push(JSON.stringify(answer));
  return answer;
};

async function startLogin(): Promise<URL> {
  const started = remember(await admin.api.POST('/api/spotify/librespot/login'));
  expect(started.response.status).toBe(200);
  return new URL(started.data!.url);
}

/** Where Spotify would send the browser after signing in: librespot's redirect with a code. */
function redirectOf(authorization: URL, code: string): string {
  const back = new URL(authorization.searchParams.get('redirect_uri')!);
  back.search = new URLSearchParams({ code, state: authorization.searchParams.get('state')! }).toString();
  return back.toString();
}

const finish = async (redirectUrl: string, session = admin) =>
  remember(await session.api.POST('/api/spotify/librespot/callback', { body: { redirectUrl } }));

describe('librespot’s own login', () => {
  it('is refused to members and answers 404 while Spotify is not configured', async () => {
    await storeSpotifySettings(t.db, spotifySettings({ enabled: false }));
    expect((await admin.api.POST('/api/spotify/librespot/login')).response.status).toBe(404);
    await storeSpotifySettings(t.db, spotifySettings());
    const member = await createMember(t, admin, { capabilities: ['platform.auth'] });
    expect((await member.api.POST('/api/spotify/librespot/login')).response.status).toBe(403);
    expect((await member.api.DELETE('/api/spotify/librespot/login')).response.status).toBe(403);
    expect((await finish('http://127.0.0.1:1/login?code=x', member)).response.status).toBe(403);
  });

  it('answers the address librespot printed, with the loopback redirect it listens on', async () => {
    await storeSpotifySettings(t.db, spotifySettings());
    const url = await startLogin();
    expect(`${url.origin}${url.pathname}`).toBe('https://accounts.spotify.com/authorize');
    expect(url.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/login$/);
    expect(url.searchParams.get('state')).toBeTruthy();
    const status = await admin.api.GET('/api/spotify/status');
    expect(status.data).toMatchObject({ playerLogin: 'token' });
  });

  it('refuses what is not the redirect of this attempt, in words naming the field, and keeps nothing', async () => {
    await storeSpotifySettings(t.db, spotifySettings());
    const url = await startLogin();
    const notAnAddress = await finish('the code is AQB123');
    expect(notAnAddress.response.status).toBe(400);
    expect(notAnAddress.error).toMatchObject({
      code: 'librespotLoginBadAddress',
      params: { field: 'redirectUrl' },
    });
    const noCode = await finish('http://127.0.0.1:5588/login?state=x');
    expect(noCode.error).toMatchObject({ code: 'librespotLoginBadAddress' });
    const other = await finish(redirectOf(url, 'AQBcode').replace(/state=[^&]+/, 'state=someoneelse'));
    expect(other.response.status).toBe(400);
    expect(other.error).toMatchObject({ code: 'librespotLoginOtherAttempt' });
    const denied = await finish('http://127.0.0.1:5588/login?error=access_denied');
    expect(denied.error).toMatchObject({ code: 'librespotLoginDenied' });
    expect(denied.error?.error).toBe('Spotify did not grant the login (access_denied).');
    // librespot's own refusal to trade the code ends the attempt: a 502 in its words, then 409.
    const refused = await finish(redirectOf(url, 'denied'));
    expect(refused.response.status).toBe(502);
    expect(refused.error?.error).toMatch(
      /^librespot could not finish the login: librespot stopped \(.*invalid_grant/,
    );
    const over = await finish(redirectOf(url, 'AQBcode'));
    expect(over.response.status).toBe(409);
    expect(over.error).toMatchObject({ code: 'librespotLoginNone' });
    expect(existsSync(keptFile())).toBe(false);
  });

  it('keeps the credentials librespot writes, and every run then plays with them instead of the token', async () => {
    await storeSpotifySettings(t.db, spotifySettings({ deviceName: 'Deck Radio' }));
    await spotify.storeLogin(t.db);
    const url = await startLogin();
    // The host of the pasted address is not where the code goes: only librespot's loopback is.
    const pasted = redirectOf(url, 'AQBsecretcode').replace('127.0.0.1', 'attacker.example');
    const done = await finish(pasted);
    expect(done.response.status).toBe(200);
    expect(done.data).toMatchObject({ authorized: true, playerLogin: 'librespot' });
    const kept = readFileSync(keptFile(), 'utf8');
    expect(JSON.parse(kept)).toMatchObject({ username: 'keeper' });
    expect(statSync(keptFile()).mode & 0o777).toBe(0o600);
    expect((await admin.api.GET('/api/spotify/status')).data).toMatchObject({ playerLogin: 'librespot' });
    // The logging-in librespot is gone.
    await expect.poll(() => spotify.registrations().length, { timeout: 3000 }).toBe(0);

    const source = spotifyModule.source({
      db: t.db,
      dataDir: t.config.dataDir,
      librespotPath: FAKE_LIBRESPOT,
    });
    try {
      const resolved = await source.resolveStream({ id: '4TrackNightFerry000001', platform: 'streaming_a' });
      const stream = resolved.ok && resolved.value.input.kind === 'url' ? resolved.value.input.url : '';
      const controller = new AbortController();
      const response = await fetch(stream, { signal: controller.signal });
      expect(response.headers.get('content-type')).toBe('audio/wav');
      const [run] = spotify.registrations();
      controller.abort();
      expect(run?.accessToken).toBeUndefined();
      expect(run?.credentials).toMatchObject({ username: 'keeper' });
      const cache = run?.args[run.args.indexOf('--system-cache') + 1] ?? '';
      expect(cache.startsWith(join(t.config.dataDir, 'spotify', 'librespot', 'runs'))).toBe(true);
      expect(run?.args).not.toContain('--access-token');
      // The run's private copy is removed once it is over.
      await expect.poll(() => existsSync(cache), { timeout: 3000 }).toBe(false);
    } finally {
      await source.close();
    }

    const audit = await admin.api.GET('/api/audit', { params: { query: { limit: 10 } } });
    expect(audit.data?.entries[0]).toMatchObject({
      action: 'spotify.librespot_login',
      actorUsername: 'admin',
    });
    for (const text of seen) {
      expect(text).not.toContain(kept);
      expect(text).not.toContain(JSON.parse(kept).auth_data);
    }
  });

  it('forgets the kept login: librespot logs in with the token again', async () => {
    await storeSpotifySettings(t.db, spotifySettings());
    expect(existsSync(keptFile())).toBe(true);
    const forgotten = await admin.api.DELETE('/api/spotify/librespot/login');
    expect(forgotten.data).toMatchObject({ playerLogin: 'token' });
    expect(existsSync(keptFile())).toBe(false);
    const audit = await admin.api.GET('/api/audit', { params: { query: { limit: 10 } } });
    expect(audit.data?.entries[0]).toMatchObject({ action: 'spotify.librespot_logout' });
  });
});
