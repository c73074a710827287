/**
 * YTDLP_ARGS as the `video_b` source takes it: split like a shell without one, useful options kept
 * in order, and the options that would break the source refused with a reason, however yt-dlp's
 * option parser would let them be written (abbreviated, `=value`, in a cluster of short options).
 */
import { describe, expect, it } from 'vitest';
import { parseYtDlpArgs } from './yt-dlp-args';

const refusal = (text: string) => {
  const parsed = parseYtDlpArgs(text);
  return parsed.ok ? undefined : parsed.error;
};

describe('parseYtDlpArgs', () => {
  it('keeps the options an admin adds, in order; unset or blank is none', () => {
    expect(
      parseYtDlpArgs(
        `--js-runtimes node --extractor-args "youtube:player_client=default,-web" --proxy socks5://127.0.0.1:9050 -t sleep --cookies-from-browser firefox -4 --client-certificate /etc/yt/cert.pem`,
      ),
    ).toEqual({
      ok: true,
      value: [
        ...['--js-runtimes', 'node', '--extractor-args', 'youtube:player_client=default,-web'],
        ...['--proxy', 'socks5://127.0.0.1:9050', '-t', 'sleep', '--cookies-from-browser', 'firefox'],
        ...['-4', '--client-certificate', '/etc/yt/cert.pem'],
      ],
    });
    expect(parseYtDlpArgs(undefined)).toEqual({ ok: true, value: [] });
    expect(parseYtDlpArgs('  ')).toEqual({ ok: true, value: [] });
  });

  it('refuses options that change what yt-dlp prints, or print something else', () => {
    expect(refusal('--print title')).toBe(
      '--print would change what yt-dlp prints, which the bot reads as one JSON answer',
    );
    expect(refusal('-j')).toMatch(/^-j would change what yt-dlp prints/);
    expect(refusal('--print-json')).toMatch(/^--print-json would change what yt-dlp prints/);
    expect(refusal('--list-formats')).toBe(
      '--list-formats would make yt-dlp print something else instead of the video',
    );
    expect(refusal('-U')).toMatch(/^-U would make yt-dlp print something else/);
  });

  it('refuses the options the source sets itself: the format, the videos, the cookies, downloading', () => {
    expect(refusal('-f best')).toBe('-f would override the audio format the bot chooses');
    expect(refusal('--yes-playlist')).toBe('--yes-playlist would change which videos yt-dlp answers for');
    expect(refusal('--cookies /tmp/c.txt')).toBe(
      '--cookies is set by YTDLP_COOKIES: give the cookies file there',
    );
    expect(refusal('--no-simulate')).toBe('--no-simulate would make yt-dlp download the files');
    expect(refusal('-- https://www.youtube.com/watch?v=aaaaaaaaaaa')).toMatch(/^"--" would end the options/);
  });

  it('sees a refused option however yt-dlp would read it: abbreviated, with =value, in a cluster', () => {
    expect(refusal('--dump-single')).toBe(
      '--dump-single (--dump-single-json) would change what yt-dlp prints, which the bot reads as one JSON answer',
    );
    expect(refusal('--format=bestvideo')).toBe('--format would override the audio format the bot chooses');
    expect(refusal('-qJ')).toMatch(/^-J \(in -qJ\) would change what yt-dlp prints/);
    // After a short option that takes a value, the rest of the cluster is that value.
    expect(refusal('-oJ.%(ext)s -t sleep')).toBeUndefined();
    expect(refusal('-vfbest')).toMatch(/^-f \(in -vfbest\) would override the audio format/);
  });

  it('refuses a secret on the command line: passwords, and a Cookie or Authorization header', () => {
    expect(refusal('--password hunter2')).toMatch(/^--password would put a secret on the command line/);
    expect(refusal('-p hunter2')).toMatch(/^-p would put a secret/);
    expect(refusal('--add-headers "Cookie: SID=1"')).toMatch(
      /^--add-headers with a Cookie or Authorization header/,
    );
    expect(refusal('--add-headers=authorization:Bearer')).toMatch(/^--add-headers with a Cookie/);
    expect(refusal('--add-headers "Accept-Language: de"')).toBeUndefined();
  });

  it('refuses a login on the command line: a user name, or a proxy address with credentials', () => {
    expect(refusal('--username alice')).toBe(
      '--username would put a login on the command line, where every local user can read it: keep it in a yt-dlp config file (--config-locations) or a .netrc file',
    );
    expect(refusal('-u alice')).toMatch(/^-u would put a login on the command line/);
    expect(refusal('-vu alice')).toMatch(/^-u \(in -vu\) would put a login/);
    expect(refusal('--ap-username alice')).toMatch(/^--ap-username would put a login/);
    const proxyRefusal =
      '--proxy with a user name or password in its address would put them on the command line, where every local user can read it: set the proxy in a yt-dlp config file (--config-locations)';
    expect(refusal('--proxy socks5://alice:hunter2@127.0.0.1:9050')).toBe(proxyRefusal);
    expect(refusal('--proxy=http://alice@proxy.example:3128/')).toBe(proxyRefusal);
    expect(refusal('--prox alice:hunter2@proxy.example:3128')).toBe(proxyRefusal);
    expect(refusal('--geo-verification-proxy socks5://a:b@127.0.0.1:1080')).toMatch(
      /^--geo-verification-proxy with a user name or password/,
    );
    // An @ further on (a path or query) is no login; nor is a proxy without one.
    expect(refusal('--proxy http://127.0.0.1:3128/a@b')).toBeUndefined();
    expect(refusal('--proxy socks5://127.0.0.1:9050 --netrc')).toBeUndefined();
  });

  it('says how to quote when the quoting never ends', () => {
    expect(refusal(`--extractor-args 'youtube:x`)).toBe(
      `has a ' that is never closed (quote as in a shell: '…', "…" or \\)`,
    );
  });
});
