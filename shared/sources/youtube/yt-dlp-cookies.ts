/**
 * YTDLP_COOKIES for one yt-dlp run. yt-dlp reads the cookies file and writes its whole cookie jar
 * back into it when it ends (`--cookies FILE`: "Netscape formatted file to read cookies from and dump
 * cookie jar in", yt-dlp/yt-dlp README.md and yt_dlp/cookies.py `YoutubeDLCookieJar.save`), so runs
 * at once on one file (the api's searches, a daemon's stream) could read it while another rewrites
 * it. Each run gets a copy of its own in a private temporary folder (the folder 0700, the file 0600:
 * the cookies are a login), removed after the run; the admin's file is only ever read.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { err, ok, type Result } from '../../result';

export interface CookieCopy {
  /** The copy to name with `--cookies`. */
  file: string;
  /** Removes the copy and its folder; never throws. */
  remove(): Promise<void>;
}

/** A private copy of `source`, or why none could be made; never throws. */
export async function copyCookies(source: string): Promise<Result<CookieCopy>> {
  let cookies: Buffer;
  try {
    cookies = await readFile(source);
  } catch (error) {
    return err(`yt-dlp's cookies file cannot be read (${codeOf(error)} at ${source}; fix YTDLP_COOKIES)`);
  }
  let dir: string | undefined;
  try {
    dir = await mkdtemp(join(tmpdir(), 'yt-dlp-cookies-'));
    const file = join(dir, 'cookies.txt');
    await writeFile(file, cookies, { mode: 0o600 });
    const made = dir;
    return ok({ file, remove: () => rm(made, { recursive: true, force: true }).catch(() => undefined) });
  } catch (error) {
    if (dir) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    return err(`yt-dlp's cookies could not be copied for the run (${codeOf(error)} in ${tmpdir()})`);
  }
}

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error);
