/**
 * Finding and running the `yt-dlp` executable for `video_b`, against the fake in tests/fakes/: the
 * version check and its short-lived cache, the limits of one run (deadline, output cap, what a
 * failure says), the admin's settings every run carries (YTDLP_ARGS, a private copy of the
 * YTDLP_COOKIES file), and YouTube's common refusals said in plain words with what the admin can do.
 */
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { FAKE_YTDLP, useFakeYtDlp, writeYoutubeCookies } from '../../../tests/fakes/fake-yt-dlp';
import { YtDlp } from './yt-dlp';
import { STATUS_MAX_AGE_MS, ytDlpAccountStatus, ytDlpComponents, ytDlpStatus } from './yt-dlp-status';

const fake = useFakeYtDlp();
const SEARCH = ['--dump-single-json', '--flat-playlist', '--', 'ytsearch2:paper boats'];
const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'yt-dlp-test-'));
  dirs.push(dir);
  return dir;
};

afterEach(() => {
  vi.useRealTimers();
});

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('yt-dlp detection', () => {
  it('reports the version of an installed yt-dlp, from `yt-dlp --version`', async () => {
    expect(await ytDlpStatus(FAKE_YTDLP)).toEqual({ available: true, version: '2025.01.26' });
    expect(fake.runs().map((run) => run.args)).toEqual([['--version']]);
    expect(await ytDlpAccountStatus(new YtDlp(FAKE_YTDLP))).toEqual({
      loggedIn: true,
      nickname: 'yt-dlp 2025.01.26',
      phrase: { code: 'ytDlpVersion', params: { version: '2025.01.26' } },
    });
    // The JavaScript runtime and the EJS component, from what `--verbose` says of yt-dlp itself.
    expect(fake.runs().map((run) => run.args)).toEqual([['--version'], ['--verbose']]);
  });

  // Each test uses a yt-dlp of its own (YTDLP_ARGS differ), since answers are kept for a while.
  it("finds the JavaScript runtime and the EJS component, with the admin's options", async () => {
    expect(await ytDlpComponents(new YtDlp(FAKE_YTDLP, {}, { args: ['--proxy', 'http://a:1'] }))).toEqual({
      jsRuntime: 'deno-2.6.5',
      ejs: 'yt_dlp_ejs-0.8.0',
    });
    fake.set('FAKE_YTDLP_JS_RUNTIMES', '');
    fake.set('FAKE_YTDLP_EJS', '');
    expect(await ytDlpComponents(new YtDlp(FAKE_YTDLP, {}, { args: ['--proxy', 'http://b:1'] }))).toEqual({
      jsRuntime: undefined,
      ejs: undefined,
    });
    // A runtime named in YTDLP_ARGS, the EJS scripts allowed to be downloaded.
    const named = new YtDlp(
      FAKE_YTDLP,
      {},
      { args: ['--js-runtimes', 'node', '--remote-components', 'ejs:github'] },
    );
    expect(await ytDlpComponents(named)).toEqual({ jsRuntime: 'node-22.12.0', ejs: 'ejs:github' });
    expect(fake.runs().at(-1)?.args).toEqual([
      '--js-runtimes',
      'node',
      '--remote-components',
      'ejs:github',
      '--verbose',
    ]);
  });

  it.each([
    ['', '0.8.0', 'ytDlpNoJsRuntime', 'yt-dlp 2025.01.26, but no JavaScript runtime'],
    ['deno-2.6.5', '', 'ytDlpNoEjs', 'yt-dlp 2025.01.26, but without its EJS component'],
    [
      'node-16.0.0 (unsupported)',
      '',
      'ytDlpNoJsRuntimeNorEjs',
      'yt-dlp 2025.01.26, but without a JavaScript runtime and its EJS component',
    ],
  ])(
    'says which part is missing in the status (runtimes "%s", yt-dlp-ejs "%s")',
    async (runtimes, ejs, code, start) => {
      fake.set('FAKE_YTDLP_JS_RUNTIMES', runtimes);
      fake.set('FAKE_YTDLP_EJS', ejs);
      const status = await ytDlpAccountStatus(
        new YtDlp(FAKE_YTDLP, {}, { args: ['--proxy', `http://${code}:1`] }),
      );
      expect(status).toMatchObject({ loggedIn: true, phrase: { code, params: { version: '2025.01.26' } } });
      expect(status.nickname).toMatch(new RegExp(`^${start}`));
    },
  );

  it('says yt-dlp is not installed when YTDLP_PATH points nowhere, without throwing', async () => {
    const nowhere = join(freshDir(), 'yt-dlp');
    const phrase = { code: 'ytDlpMissingAt', params: { path: nowhere } };
    expect(await ytDlpStatus(nowhere)).toEqual({
      available: false,
      reason: `yt-dlp is not installed (nothing at ${nowhere}; fix YTDLP_PATH)`,
      phrase,
    });
    expect(await ytDlpAccountStatus(new YtDlp(nowhere))).toEqual({
      loggedIn: false,
      nickname: `yt-dlp is not installed (nothing at ${nowhere}; fix YTDLP_PATH)`,
      phrase,
    });
  });

  it('looks for yt-dlp on PATH when no path is configured', async () => {
    const bin = freshDir();
    symlinkSync(FAKE_YTDLP, join(bin, 'yt-dlp'));
    const path = process.env.PATH;
    // The fake runs through `#!/usr/bin/env node`, so node's own folder stays on PATH.
    process.env.PATH = `${bin}:${dirname(process.execPath)}`;
    try {
      expect(await ytDlpStatus()).toEqual({ available: true, version: '2025.01.26' });
    } finally {
      process.env.PATH = path;
    }
  });

  it('says so when the file is there but not executable', async () => {
    const copy = join(freshDir(), 'yt-dlp');
    copyFileSync(FAKE_YTDLP, copy);
    chmodSync(copy, 0o644);
    expect(await ytDlpStatus(copy)).toEqual({
      available: false,
      reason: `yt-dlp at ${copy} is not executable`,
    });
  });

  it('reports a yt-dlp that fails to start with the last line it printed', async () => {
    fake.set('FAKE_YTDLP_MODE', 'crash');
    const copy = join(freshDir(), 'yt-dlp');
    symlinkSync(FAKE_YTDLP, copy);
    expect(await ytDlpStatus(copy)).toEqual({
      available: false,
      reason: "yt-dlp: ModuleNotFoundError: No module named 'yt_dlp'",
    });
  });

  it('keeps an answer briefly, then sees an upgraded yt-dlp without a restart', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const copy = join(freshDir(), 'yt-dlp');
    symlinkSync(FAKE_YTDLP, copy);
    expect(await ytDlpStatus(copy)).toEqual({ available: true, version: '2025.01.26' });
    fake.set('FAKE_YTDLP_VERSION', '2025.02.19');
    vi.setSystemTime(Date.now() + STATUS_MAX_AGE_MS - 1_000);
    expect(await ytDlpStatus(copy)).toEqual({ available: true, version: '2025.01.26' });
    expect(fake.runs()).toHaveLength(1);
    vi.setSystemTime(Date.now() + 2_000);
    expect(await ytDlpStatus(copy)).toEqual({ available: true, version: '2025.02.19' });
    expect(fake.runs()).toHaveLength(2);
  });

  it('sees a yt-dlp installed after a check found none', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const path = join(freshDir(), 'yt-dlp');
    expect(await ytDlpStatus(path)).toMatchObject({ available: false });
    symlinkSync(FAKE_YTDLP, path);
    vi.setSystemTime(Date.now() + STATUS_MAX_AGE_MS + 1);
    expect(await ytDlpStatus(path)).toEqual({ available: true, version: '2025.01.26' });
  });
});

describe('a yt-dlp run', () => {
  it('kills a yt-dlp that does not answer in time, and says so', async () => {
    fake.set('FAKE_YTDLP_MODE', 'hang');
    const started = Date.now();
    const result = await new YtDlp(FAKE_YTDLP, { timeoutMs: 1_000 }).run(SEARCH);
    expect(result).toEqual({
      ok: false,
      error: { message: 'yt-dlp did not answer within 1 s', notFound: false },
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    const [run] = fake.runs();
    await vi.waitFor(() => expect(() => process.kill(run!.pid, 0)).toThrow(), { timeout: 3_000 });
  });

  it('stops reading a yt-dlp that prints more than the cap', async () => {
    fake.set('FAKE_YTDLP_MODE', 'flood');
    const result = await new YtDlp(FAKE_YTDLP, { maxOutputBytes: 1024 * 1024 }).run(SEARCH);
    expect(result).toEqual({
      ok: false,
      error: { message: 'yt-dlp printed more than 1024 KiB', notFound: false },
    });
    const [run] = fake.runs();
    await vi.waitFor(() => expect(() => process.kill(run!.pid, 0)).toThrow(), { timeout: 3_000 });
  });

  it('turns an answer that is not JSON into a sentence', async () => {
    fake.set('FAKE_YTDLP_MODE', 'garbage');
    expect(await new YtDlp(FAKE_YTDLP).json(SEARCH, z.object({}))).toEqual({
      ok: false,
      error: { message: 'yt-dlp answered with something that is not JSON', notFound: false },
    });
  });

  it('turns JSON of another shape into a sentence', async () => {
    expect(await new YtDlp(FAKE_YTDLP).json(SEARCH, z.object({ formats: z.array(z.unknown()) }))).toEqual({
      ok: false,
      error: { message: 'yt-dlp answered in an unexpected shape', notFound: false },
    });
  });

  it('reads the reason of a refusal from the last ERROR line, marking unknown videos', async () => {
    const result = await new YtDlp(FAKE_YTDLP).run([
      ...['--dump-single-json', '--no-playlist', '--'],
      'https://www.youtube.com/watch?v=zzzzzzzzzzz',
    ]);
    expect(result).toEqual({
      ok: false,
      error: {
        message: 'YouTube has no such video any more (it was removed or never existed)',
        notFound: true,
      },
    });
  });

  it('passes on yt-dlp’s own last ERROR line for a refusal it has no words of its own for', async () => {
    const result = await new YtDlp(FAKE_YTDLP).run(['--dump-single-json', '--', 'not a url']);
    expect(result).toEqual({
      ok: false,
      error: {
        message: expect.stringMatching(/^yt-dlp: ERROR: \[generic\] 'not a url' is not a valid URL/),
        notFound: false,
      },
    });
  });

  it('passes arguments without a shell: quotes, semicolons and `$()` arrive as written', async () => {
    const query = `it's "here"; $(touch /tmp/pwned) & echo`;
    const result = await new YtDlp(FAKE_YTDLP).run(['--dump-single-json', '--', `ytsearch1:${query}`]);
    expect(result.ok).toBe(true);
    expect(fake.runs()[0]!.args).toEqual(['--dump-single-json', '--', `ytsearch1:${query}`]);
  });
});

describe('the admin’s settings, and YouTube’s refusals in plain words', () => {
  const VIDEO = ['--dump-single-json', '--no-playlist', '--', 'https://www.youtube.com/watch?v=pApErB0ats1'];
  const AUDIO = ['-f', 'bestaudio', ...VIDEO];
  const failed = (message: string, notFound = false) => ({ ok: false, error: { message, notFound } });

  it('puts YTDLP_ARGS first and a private copy of the cookies file next, so the source’s own options win', async () => {
    const cookies = writeYoutubeCookies(join(freshDir(), 'cookies.txt'));
    const before = readFileSync(cookies, 'utf8');
    const ytDlp = new YtDlp(FAKE_YTDLP, {}, { cookies, args: ['--js-runtimes', 'node'] });
    expect((await ytDlp.run(VIDEO)).ok).toBe(true);
    const [run] = fake.runs();
    const copy = run!.args[3]!;
    expect(run!.args).toEqual(['--js-runtimes', 'node', '--cookies', copy, ...VIDEO]);
    expect(copy).not.toBe(cookies);
    // yt-dlp wrote its cookie jar back into the copy, which is gone; the admin's file is as it was.
    expect(existsSync(copy)).toBe(false);
    expect(readFileSync(cookies, 'utf8')).toBe(before);
  });

  it('says when the cookies file cannot be read, without running yt-dlp', async () => {
    const missing = join(freshDir(), 'gone.txt');
    expect(await new YtDlp(FAKE_YTDLP, {}, { cookies: missing }).run(VIDEO)).toEqual(
      failed(`yt-dlp's cookies file cannot be read (ENOENT at ${missing}; fix YTDLP_COOKIES)`),
    );
    expect(fake.runs()).toEqual([]);
  });

  it('turns "Sign in to confirm you’re not a bot" into what the admin can do, and passes it with cookies', async () => {
    fake.set('FAKE_YTDLP_MODE', 'bot-check');
    expect(await new YtDlp(FAKE_YTDLP).run(VIDEO)).toEqual(
      failed(
        'YouTube asked yt-dlp to sign in to confirm it is not a bot, as it often does for servers: ' +
          'the admin can give yt-dlp the cookies of a YouTube login (a cookies.txt file named by YTDLP_COOKIES), and update yt-dlp',
      ),
    );
    const cookies = writeYoutubeCookies(join(freshDir(), 'cookies.txt'));
    expect((await new YtDlp(FAKE_YTDLP, {}, { cookies }).run(VIDEO)).ok).toBe(true);
  });

  it('names the missing JavaScript runtime when formats are missing for want of one, and passes with one named', async () => {
    fake.set('FAKE_YTDLP_MODE', 'no-js-runtime');
    expect(await new YtDlp(FAKE_YTDLP).run(AUDIO)).toEqual(
      failed(
        'yt-dlp could not read this YouTube video because it lacks a JavaScript runtime, which YouTube now requires: ' +
          'the admin can install deno (or node, named with "--js-runtimes node" in YTDLP_ARGS) as the yt-dlp wiki describes, and update yt-dlp',
      ),
    );
    // The warning alone, with the metadata answered, is no failure.
    expect((await new YtDlp(FAKE_YTDLP).run(VIDEO)).ok).toBe(true);
    expect((await new YtDlp(FAKE_YTDLP, {}, { args: ['--js-runtimes', 'node'] }).run(AUDIO)).ok).toBe(true);
  });

  it('names the missing EJS component when yt-dlp skipped its challenge solver script, and passes once allowed to download it', async () => {
    fake.set('FAKE_YTDLP_MODE', 'no-ejs');
    expect(await new YtDlp(FAKE_YTDLP).run(AUDIO)).toEqual(
      failed(
        'yt-dlp could not read this YouTube video because it lacks its EJS component (the challenge solver scripts its JavaScript runtime runs): ' +
          'the admin can install the yt-dlp-ejs package next to yt-dlp, or allow yt-dlp to download it with "--remote-components ejs:github" in YTDLP_ARGS',
      ),
    );
    const allowed = new YtDlp(FAKE_YTDLP, {}, { args: ['--remote-components', 'ejs:github'] });
    expect((await allowed.run(AUDIO)).ok).toBe(true);
  });

  it.each([
    [
      'age-restricted',
      'YouTube shows this video only to signed-in adults: the admin can give yt-dlp the cookies of an adult’s YouTube login with YTDLP_COOKIES',
    ],
    [
      'geo-blocked',
      'YouTube does not offer this video in the server’s country: the admin can send yt-dlp through a proxy elsewhere ("--proxy URL" in YTDLP_ARGS)',
    ],
    [
      'rate-limited',
      'YouTube is limiting how often this server may ask, for up to an hour: try again later; the admin can slow yt-dlp down with "-t sleep" in YTDLP_ARGS',
    ],
  ])('says what a %s refusal means', async (mode, message) => {
    fake.set('FAKE_YTDLP_MODE', mode);
    expect(await new YtDlp(FAKE_YTDLP).run(AUDIO)).toEqual(failed(message));
  });

  it('says a private video and a missing playlist are not there', async () => {
    const ytDlp = new YtDlp(FAKE_YTDLP);
    expect(
      await ytDlp.run(['--dump-single-json', '--', 'https://www.youtube.com/watch?v=r0adTr1p_03']),
    ).toEqual(failed('This YouTube video is private: only accounts its owner invited can watch it', true));
    expect(
      await ytDlp.run([
        '--flat-playlist',
        '-J',
        '--',
        'https://www.youtube.com/playlist?list=PLnoSuchPlaylist0000',
      ]),
    ).toEqual(failed('YouTube has no such playlist (it was removed, made private or never existed)', true));
  });
});
