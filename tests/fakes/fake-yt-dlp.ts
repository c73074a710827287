/**
 * The fake `yt-dlp` (yt-dlp.mjs beside this file) for tests: its path, and per test a record of every
 * run (process id and command line) plus a clean slate of the environment variables that steer it;
 * and a cookies.txt of a (made-up) YouTube login such as an admin gives with YTDLP_COOKIES.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeEach } from 'vitest';
import { z } from 'zod';

export const FAKE_YTDLP = fileURLToPath(new URL('./yt-dlp.mjs', import.meta.url));

const STEERING = [
  'FAKE_YTDLP_MODE',
  'FAKE_YTDLP_VERSION',
  'FAKE_YTDLP_AUDIO_URL',
  'FAKE_YTDLP_AUDIO_URL_FROM',
  'FAKE_YTDLP_JS_RUNTIMES',
  'FAKE_YTDLP_EJS',
] as const;
export type FakeYtDlpSetting = (typeof STEERING)[number];

const RunSchema = z.object({ pid: z.number(), args: z.array(z.string()) });
export type FakeYtDlpRun = z.infer<typeof RunSchema>;

export interface FakeYtDlp {
  /** The runs so far in this test, oldest first. */
  runs(): FakeYtDlpRun[];
  /** Sets one of the fake's environment variables for the rest of this test. */
  set(name: FakeYtDlpSetting, value: string): void;
}

/** A Netscape cookies.txt holding a YouTube login cookie, written at `path` (the fake's bot check passes with it). */
export function writeYoutubeCookies(path: string): string {
  const line = ['.youtube.com', 'TRUE', '/', 'TRUE', '1893456000', '__Secure-3PSID', 'made-up-login-cookie'];
  writeFileSync(path, `# Netscape HTTP Cookie File\n\n${line.join('\t')}\n`, { mode: 0o600 });
  return path;
}

export function useFakeYtDlp(): FakeYtDlp {
  const dir = mkdtempSync(join(tmpdir(), 'fake-yt-dlp-'));
  let log = '';
  let count = 0;
  beforeEach(() => {
    for (const name of STEERING) delete process.env[name];
    log = join(dir, `runs-${++count}.jsonl`);
    process.env.FAKE_YTDLP_LOG = log;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return {
    runs() {
      let text: string;
      try {
        text = readFileSync(log, 'utf8');
      } catch {
        return [];
      }
      return text
        .split('\n')
        .filter(Boolean)
        .map((line) => RunSchema.parse(JSON.parse(line)));
    },
    set(name, value) {
      process.env[name] = value;
    },
  };
}
