/**
 * Serves the built browser UI (`web/dist`) with history-mode routing: hashed assets with a year-long
 * immutable cache (text files brotli- or gzip-compressed where the browser takes it, compressed.ts), and
 * `index.html` (never cached, so a rebuild shows at once) for every other GET that accepts HTML and is
 * not under `/api` or `/ws`. The reverse-proxy sub-path (`BASE_PATH`) is written into the page's
 * `<base href>` at serve time, so one build works at any path: the bundle refers to its assets
 * relatively and reads its base from the document.
 * Until the bundle exists (`make run` builds it first) the root leads to the API's try-it page.
 * `/setup` after first-run setup leads to the dashboard (or, signed out, on to sign-in), unless this
 * browser is still walking the wizard (shared/setup-wizard.ts).
 */
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { SETUP_WIZARD_COOKIE } from '../../shared/setup-wizard';
import { GUEST_SESSION_COOKIE, MEMBER_SESSION_COOKIE } from '../access/sessions';
import type { AppEnv } from '../env';
import { CompressedCopies, chooseEncoding, isCompressible } from './compressed';

export const WEB_DIST_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** Vite names everything under assets/ after its content hash: a changed file is a new URL. */
const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
const SHORT_CACHE = 'public, max-age=3600';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

const HTML_TAG = '<html';
/** Read by the page's session store (web/src/stores/session.ts). */
const SIGNED_OUT_ATTRIBUTE = 'data-signed-out';

/** The placeholder `web/index.html` carries; replaced by the configured base path. */
const BASE_TAG = '<base href="/" />';

export interface WebRoutesOptions {
  /** `BASE_PATH` without a trailing slash ('' at the root). */
  basePath: string;
  distDir?: string;
  /** Whether first-run setup is over: then `/setup` opens only for a wizard under way in the browser. */
  setupDone?: () => Promise<boolean>;
}

const isServiceRoute = (path: string) =>
  path === '/api' || path.startsWith('/api/') || path === '/ws' || path.startsWith('/ws/');

export function webRoutes({ basePath, distDir = WEB_DIST_DIR, setupDone }: WebRoutesOptions) {
  const indexPath = join(distDir, 'index.html');
  let cachedIndex: { mtimeMs: number; html: string } | undefined;
  const compressed = new CompressedCopies();

  /** index.html with the base path written in; re-read only when a rebuild changed the file. */
  async function indexHtml(): Promise<string | undefined> {
    const info = await stat(indexPath).catch(() => undefined);
    if (!info) return undefined;
    if (cachedIndex?.mtimeMs !== info.mtimeMs) {
      const html = (await readFile(indexPath, 'utf8')).replace(BASE_TAG, `<base href="${basePath}/" />`);
      cachedIndex = { mtimeMs: info.mtimeMs, html };
    }
    return cachedIndex.html;
  }

  /** A file inside the bundle, or undefined (also for any path that would leave it). */
  async function bundleFile(
    path: string,
  ): Promise<{ body: Buffer; type: string; mtimeMs: number } | undefined> {
    const file = normalize(join(distDir, decodeURIComponent(path)));
    if (!file.startsWith(distDir + sep) || file === indexPath) return undefined;
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) return undefined;
    return {
      body: await readFile(file),
      type: CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      mtimeMs: info.mtimeMs,
    };
  }

  return new Hono<AppEnv>().get('*', async (c, next) => {
    const path = c.req.path;
    if (isServiceRoute(path)) return next();
    const file = path === '/' ? undefined : await bundleFile(path).catch(() => undefined);
    if (file) {
      c.header('content-type', file.type);
      c.header('cache-control', path.startsWith('/assets/') ? IMMUTABLE_CACHE : SHORT_CACHE);
      if (!isCompressible(file.type, file.body.length)) return c.body(new Uint8Array(file.body));
      c.header('vary', 'accept-encoding');
      const encoding = chooseEncoding(c.req.header('accept-encoding'));
      if (!encoding) return c.body(new Uint8Array(file.body));
      c.header('content-encoding', encoding);
      return c.body(new Uint8Array(await compressed.get(path, file.mtimeMs, encoding, file.body)));
    }
    const accept = c.req.header('accept') ?? '';
    const wantsPage = path === '/' || accept.includes('text/html');
    if (!wantsPage) return next();
    if (path === '/setup' && !getCookie(c, SETUP_WIZARD_COOKIE) && (await setupDone?.()))
      return c.redirect(`${basePath}/`);
    const html = await indexHtml();
    if (html === undefined) return path === '/' ? c.redirect(`${basePath}/api/docs`) : next();
    c.header('cache-control', 'no-cache');
    c.header('x-robots-tag', 'noindex');
    // A browser with no session cookie is signed out: the page need not ask (a 401 logged for nothing).
    const signedOut = !getCookie(c, MEMBER_SESSION_COOKIE) && !getCookie(c, GUEST_SESSION_COOKIE);
    return c.html(signedOut ? html.replace(HTML_TAG, `${HTML_TAG} ${SIGNED_OUT_ATTRIBUTE}`) : html);
  });
}
