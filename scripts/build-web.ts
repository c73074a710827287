/**
 * Builds the browser UI (`web/dist`) with Vite's JS API when the bundle is missing or older than its
 * sources (web/src, shared/, web/index.html, the Vite config, the API client and document). `make run` and
 * `make test` call it, and so does the UI tests' set-up; a lock directory keeps two callers from
 * building into the same folder at once.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WEB = join(ROOT, 'web');
const BUNDLE_INDEX = join(WEB, 'dist', 'index.html');
const LOCK = join(WEB, '.build-lock');
/** A lock older than this belongs to a build that died; a real build takes seconds. */
const STALE_LOCK_MS = 120_000;

/** What the bundle is built from: a change to any of them means a rebuild. */
const SOURCES = [
  join(WEB, 'src'),
  // The page imports the shared catalogs and rules (@shared): a changed phrase is a changed page.
  join(ROOT, 'shared'),
  join(WEB, 'public'),
  join(WEB, 'build'),
  join(WEB, 'index.html'),
  join(WEB, 'vite.config.ts'),
  join(ROOT, 'openapi', 'client'),
  join(ROOT, 'openapi', 'openapi.json'),
];

/** The newest modification time of a file, or of any file below a folder. */
function newestMtimeMs(path: string): number {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestMtimeMs(join(path, name))), 0);
}

export function webBundleIsStale(): boolean {
  if (!existsSync(BUNDLE_INDEX)) return true;
  const built = statSync(BUNDLE_INDEX).mtimeMs;
  return SOURCES.some((source) => newestMtimeMs(source) > built);
}

async function acquireLock(): Promise<void> {
  for (;;) {
    try {
      mkdirSync(LOCK);
      return;
    } catch {
      const lock = statSync(LOCK, { throwIfNoEntry: false });
      if (lock && Date.now() - lock.mtimeMs > STALE_LOCK_MS) rmSync(LOCK, { force: true, recursive: true });
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/** Builds the bundle if it is stale; resolves with whether it built. */
export async function ensureWebBuild(): Promise<boolean> {
  if (!webBundleIsStale()) return false;
  await acquireLock();
  try {
    // Another caller may have built it while we waited for the lock.
    if (!webBundleIsStale()) return false;
    await build({ configFile: join(WEB, 'vite.config.ts'), logLevel: 'warn' });
    return true;
  } finally {
    rmSync(LOCK, { force: true, recursive: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = Date.now();
  if (await ensureWebBuild()) console.log(`web UI built in ${Date.now() - started} ms`);
}
