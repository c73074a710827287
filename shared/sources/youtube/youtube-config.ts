/**
 * YouTube's slice of the process configuration (platform-module.ts `ConfigSlice`): the yt-dlp to run
 * and what every run is given, read from the environment by the entries with everything else.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import type { ConfigSlice } from '../platform-module';
import { parseYtDlpArgs } from './yt-dlp-args';

export interface YoutubeOptions {
  /** YTDLP_PATH: the yt-dlp executable; unset means `yt-dlp` on PATH. */
  ytDlpPath: string | undefined;
  /** YTDLP_COOKIES: a cookies.txt of a YouTube login every run is given (its bot check asks for one). */
  ytDlpCookies: string | undefined;
  /** YTDLP_ARGS: extra options for every run, split without a shell and checked at start-up. */
  ytDlpArgs: readonly string[];
}

const env = {
  YTDLP_PATH: z.string().optional(),
  YTDLP_COOKIES: z
    .string()
    .optional()
    .transform((path, ctx) => {
      if (!path) return undefined;
      if (isReadableFile(resolve(path))) return resolve(path);
      ctx.addIssue({ code: 'custom', message: `no file the bot can read at ${path} (give a cookies.txt)` });
      return z.NEVER;
    }),
  YTDLP_ARGS: z
    .string()
    .optional()
    .transform((text, ctx) => {
      const parsed = parseYtDlpArgs(text);
      if (parsed.ok) return parsed.value;
      ctx.addIssue({ code: 'custom', message: parsed.error });
      return z.NEVER;
    }),
};

export const youtubeConfig: ConfigSlice<typeof env, YoutubeOptions> = {
  env,
  options: (e) => ({
    ytDlpPath: e.YTDLP_PATH || undefined,
    ytDlpCookies: e.YTDLP_COOKIES,
    ytDlpArgs: e.YTDLP_ARGS,
  }),
};

function isReadableFile(path: string): boolean {
  try {
    accessSync(path, constants.R_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
