/**
 * librespot's own login, kept: the reusable credentials librespot writes as `credentials.json` into its
 * credentials cache (`--system-cache`, librespot-org/librespot core/src/cache.rs) after its OAuth login
 * (librespot-oauth-login.ts). They live under DATA_DIR, readable by this user only, and are never
 * returned by the API nor logged. While they are kept, every librespot run logs in with them instead
 * of the connected account's access token.
 *
 * Each run gets a private copy in a folder of its own: librespot rewrites the file when Spotify hands
 * it newer credentials, and several bots playing at once must not read one another's half-written file.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** librespot's file name in its credentials cache. */
export const CREDENTIALS_FILE = 'credentials.json';

export class LibrespotCredentials {
  private readonly folder: string;

  constructor(dataDir: string) {
    this.folder = join(dataDir, 'spotify', 'librespot');
  }

  /** The kept credentials as librespot wrote them, or undefined when there are none. */
  async read(): Promise<string | undefined> {
    try {
      return await readFile(join(this.folder, CREDENTIALS_FILE), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** Keeps the credentials librespot wrote into `cacheDir` (replacing any kept before). */
  async keepFrom(cacheDir: string): Promise<void> {
    await mkdir(this.folder, { recursive: true, mode: 0o700 });
    // Copied beside the kept file first, then renamed over it: a run starting meanwhile reads the old
    // file or the new one, never half of one.
    const partial = join(this.folder, `.${randomBytes(6).toString('hex')}.partial`);
    await writeFile(partial, await readFile(join(cacheDir, CREDENTIALS_FILE)), { mode: 0o600 });
    await rename(partial, join(this.folder, CREDENTIALS_FILE));
  }

  async forget(): Promise<void> {
    await rm(join(this.folder, CREDENTIALS_FILE), { force: true });
  }

  /** An empty cache folder of its own (mode 0700) for one librespot run; the caller removes it. */
  async newCacheDir(): Promise<string> {
    const runs = join(this.folder, 'runs');
    await mkdir(runs, { recursive: true, mode: 0o700 });
    return mkdtemp(join(runs, 'run-'));
  }

  /** A cache folder holding a private copy of the kept credentials, or undefined when none are kept. */
  async runCacheDir(): Promise<string | undefined> {
    const kept = await this.read();
    if (kept === undefined) return undefined;
    const dir = await this.newCacheDir();
    await writeFile(join(dir, CREDENTIALS_FILE), kept, { mode: 0o600 });
    return dir;
  }
}

export const removeCacheDir = (dir: string): Promise<void> => rm(dir, { recursive: true, force: true });
