import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETUP_WIZARD_COOKIE } from '../../shared/setup-wizard';
import { webRoutes } from './static';

let distDir: string;

beforeAll(() => {
  distDir = mkdtempSync(join(tmpdir(), 'tsmb-web-'));
  mkdirSync(join(distDir, 'assets'));
  writeFileSync(
    join(distDir, 'index.html'),
    '<html><head><base href="/" /></head><body><script src="./assets/index-abc.js"></script></body></html>',
  );
  writeFileSync(join(distDir, 'assets', 'index-abc.js'), 'console.log(1)');
  writeFileSync(join(distDir, 'favicon.svg'), '<svg/>');
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
});
