/**
 * YTDLP_COOKIES and YTDLP_ARGS from the environment to every yt-dlp run the api makes for `video_b`,
 * with the fake yt-dlp standing in for YouTube's bot check: without cookies a song look-up is a 502
 * whose `{error}` says what happened and what the admin can do; with them (and the extra options
 * first on the command line) it is answered. Settings that would break the source stop the service
 * at start-up with a sentence naming the variable.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config';
import { setupAdmin } from '../../testkit/accounts';
import { runService } from '../../testkit/run-service';
import { startTestApp, type TestApp } from '../../testkit/test-app';
import { FAKE_YTDLP, useFakeYtDlp, writeYoutubeCookies } from '../fakes/fake-yt-dlp';

const fake = useFakeYtDlp();
const dir = mkdtempSync(join(tmpdir(), 'youtube-settings-'));
const cookies = writeYoutubeCookies(join(dir, 'cookies.txt'));
const apps: TestApp[] = [];

afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  rmSync(dir, { recursive: true, force: true });
});

/** An admin's client of an app with these settings, and no daemon. */
async function adminOf(env: Record<string, string>) {
  const app = await startTestApp({ withDaemon: false, env: { YTDLP_PATH: FAKE_YTDLP, ...env } });
  apps.push(app);
  return (await setupAdmin(app)).api;
}

const song = (api: Awaited<ReturnType<typeof adminOf>>) =>
  api.GET('/api/music/song/{id}', {
    params: { path: { id: 'pApErB0ats1' }, query: { platform: 'video_b' } },
  });

describe('YouTube’s bot check at the api', () => {
  let bare: Awaited<ReturnType<typeof adminOf>>;
  let configured: Awaited<ReturnType<typeof adminOf>>;
  beforeAll(async () => {
    bare = await adminOf({});
    configured = await adminOf({
      YTDLP_COOKIES: cookies,
      YTDLP_ARGS: `--js-runtimes node --extractor-args "youtube:player_client=default,-web"`,
    });
  });

  it('answers 502 saying what happened and what the admin can do, without cookies', async () => {
    fake.set('FAKE_YTDLP_MODE', 'bot-check');
    const { response, error } = await song(bare);
    expect(response.status).toBe(502);
    expect(error).toMatchObject({
      error:
        'video_b: YouTube asked yt-dlp to sign in to confirm it is not a bot, as it often does for servers: ' +
        'the admin can give yt-dlp the cookies of a YouTube login (a cookies.txt file named by YTDLP_COOKIES), and update yt-dlp',
    });
    expect(fake.runs()[0]?.args).not.toContain('--cookies');
  });

  it('passes it with YTDLP_COOKIES, the YTDLP_ARGS words first on the command line', async () => {
    fake.set('FAKE_YTDLP_MODE', 'bot-check');
    const { response, data } = await song(configured);
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ id: 'pApErB0ats1', platform: 'video_b' });
    const args = fake.runs()[0]!.args;
    expect(args.slice(0, 6)).toEqual([
      ...['--js-runtimes', 'node', '--extractor-args', 'youtube:player_client=default,-web'],
      ...['--cookies', expect.stringMatching(/yt-dlp-cookies-\w+\/cookies\.txt$/)],
    ]);
  });
});

describe('settings the source cannot work with', () => {
  it('stop the service at start-up with a sentence naming the variable', async () => {
    const env = { DATA_DIR: mkdtempSync(join(dir, 'data-')), YTDLP_ARGS: '--print title' };
    await expect(runService(env, ['node', '--import', 'tsx', 'main.ts'])).rejects.toThrow(
      'invalid environment: YTDLP_ARGS: --print would change what yt-dlp prints, which the bot reads as one JSON answer',
    );
  }, 60_000);

  it.each([
    [{ YTDLP_ARGS: `--proxy 'socks5://x` }, `YTDLP_ARGS: has a ' that is never closed`],
    [{ YTDLP_ARGS: '-f best' }, 'YTDLP_ARGS: -f would override the audio format the bot chooses'],
    [
      { YTDLP_ARGS: '--proxy socks5://alice:hunter2@127.0.0.1:9050' },
      'YTDLP_ARGS: --proxy with a user name or password in its address would put them on the command line, where every local user can read it',
    ],
    [{ YTDLP_ARGS: '--username alice' }, 'YTDLP_ARGS: --username would put a login on the command line'],
    [
      { YTDLP_COOKIES: '/nonexistent/cookies.txt' },
      'YTDLP_COOKIES: no file the bot can read at /nonexistent/cookies.txt',
    ],
    [{ YTDLP_COOKIES: dir }, `YTDLP_COOKIES: no file the bot can read at ${dir}`],
  ])('are refused when the configuration is read: %j', (env, said) => {
    expect(() => loadConfig(env)).toThrow(`invalid environment: ${said}`);
  });

  it('are read once into the configuration: the words split without a shell, the cookies file made absolute', () => {
    const config = loadConfig({
      YTDLP_ARGS: `-t sleep --proxy "socks5://127.0.0.1:9050" $HOME`,
      YTDLP_COOKIES: cookies,
    });
    expect(config.ytDlpArgs).toEqual(['-t', 'sleep', '--proxy', 'socks5://127.0.0.1:9050', '$HOME']);
    expect(config.ytDlpCookies).toBe(cookies);
    expect(loadConfig({})).toMatchObject({ ytDlpArgs: [], ytDlpCookies: undefined });
  });
});
