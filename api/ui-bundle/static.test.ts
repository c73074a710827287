import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETUP_WIZARD_COOKIE } from '../../shared/setup-wizard';
import { webRoutes } from './static';

let distDir: string;
/** A script large enough to be worth compressing. */
const BIG_SCRIPT = `export const songs = [${Array.from({ length: 400 }, (_, i) => `'song ${i}'`).join(', ')}];`;

beforeAll(() => {
  distDir = mkdtempSync(join(tmpdir(), 'tsmb-web-'));
  mkdirSync(join(distDir, 'assets'));
  writeFileSync(
    join(distDir, 'index.html'),
    '<html><head><base href="/" /></head><body><script src="./assets/index-abc.js"></script></body></html>',
  );
  writeFileSync(join(distDir, 'assets', 'index-abc.js'), 'console.log(1)');
  writeFileSync(join(distDir, 'favicon.svg'), '<svg/>');
  writeFileSync(join(distDir, 'assets', 'big-abc.js'), BIG_SCRIPT);
});
afterAll(() => rmSync(distDir, { recursive: true, force: true }));

/** The web routes behind a JSON 404, as in the real app. */
function app(basePath = '', dir = distDir, setupDone = async () => false) {
  return new Hono()
    .route('/', webRoutes({ basePath, distDir: dir, setupDone }))
    .notFound((c) => c.json({ error: 'not found' }, 404));
}
const html = { accept: 'text/html,application/xhtml+xml' };

describe('web routes', () => {
  it('serves index.html for history-mode routes, uncached, with the base path written in', async () => {
    for (const path of ['/', '/player/abc', '/settings/keys']) {
      const res = await app('/music-bot').request(path, { headers: html });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toContain('<base href="/music-bot/" />');
    }
    expect(await (await app().request('/', { headers: html })).text()).toContain('<base href="/" />');
  });

  it('serves hashed assets with an immutable cache and other files with a short one', async () => {
    const asset = await app().request('/assets/index-abc.js');
    expect(asset.headers.get('content-type')).toContain('text/javascript');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect(await asset.text()).toBe('console.log(1)');
    const icon = await app().request('/favicon.svg');
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(icon.headers.get('cache-control')).toBe('public, max-age=3600');
  });

  it('leaves /api and /ws alone, and answers 404 to missing files that are not pages', async () => {
    expect((await app().request('/api/nothing', { headers: html })).status).toBe(404);
    expect((await app().request('/ws', { headers: html })).status).toBe(404);
    expect((await app().request('/assets/missing.js')).status).toBe(404);
    expect((await app().request('/../package.json')).status).toBe(404);
    expect((await app().request('/%2e%2e/%2e%2e/package.json')).status).toBe(404);
  });

  it('leads the root to the API docs while the bundle is not built', async () => {
    const res = await app('/music-bot', join(distDir, 'absent')).request('/', { headers: html });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/music-bot/api/docs');
  });

  it('sends /setup to the dashboard once setup is done, unless this browser is walking the wizard', async () => {
    const done = app('/music-bot', distDir, async () => true);
    const reopened = await done.request('/setup', { headers: html });
    expect(reopened.status).toBe(302);
    expect(reopened.headers.get('location')).toBe('/music-bot/');
    const underWay = await done.request('/setup?step=bot', {
      headers: { ...html, cookie: `${SETUP_WIZARD_COOKIE}=1` },
    });
    expect(underWay.status).toBe(200);
    expect(await underWay.text()).toContain('<base href="/music-bot/" />');
    const firstRun = await app('', distDir, async () => false).request('/setup', { headers: html });
    expect(firstRun.status).toBe(200);
  });

  it('tells the page a browser without a session cookie is signed out, so it need not ask', async () => {
    const page = async (cookie?: string) =>
      (await app().request('/player', { headers: { ...html, ...(cookie ? { cookie } : {}) } })).text();
    expect(await page()).toContain('<html data-signed-out>');
    expect(await page('tsmb_session=abc')).toContain('<html><head>');
    expect(await page('tsmb_guest=abc')).toContain('<html><head>');
    expect(await page('other=1')).toContain('<html data-signed-out>');
  });

  it('compresses text assets for browsers that take it: brotli first, gzip else, never when refused', async () => {
    const asset = (acceptEncoding?: string) =>
      app().request('/assets/big-abc.js', {
        headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
      });
    const br = await asset('gzip, deflate, br');
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('accept-encoding');
    expect(br.headers.get('cache-control')).toContain('immutable');
    const brBody = Buffer.from(await br.arrayBuffer());
    expect(brBody.length).toBeLessThan(BIG_SCRIPT.length / 4);
    expect(brotliDecompressSync(brBody).toString()).toBe(BIG_SCRIPT);
    // The second answer is the kept copy, byte for byte.
    expect(Buffer.from(await (await asset('br')).arrayBuffer()).equals(brBody)).toBe(true);

    const gz = await asset('gzip');
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(BIG_SCRIPT);

    for (const refused of [undefined, 'identity', 'br;q=0, gzip;q=0']) {
      const plain = await asset(refused);
      expect(plain.headers.get('content-encoding')).toBeNull();
      expect(await plain.text()).toBe(BIG_SCRIPT);
    }
    // A file too small to gain from it is sent as it is.
    const small = await app().request('/assets/index-abc.js', { headers: { 'accept-encoding': 'br' } });
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(await small.text()).toBe('console.log(1)');
  });
});
