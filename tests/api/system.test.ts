import { afterEach, describe, expect, it } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };
import { insertBot, setupAdmin } from '../../testkit/accounts';
import { startTestApp, type TestApp } from '../../testkit/test-app';
import { PNG_1X1 } from '../helpers/png';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('public system routes', () => {
  it('reports health with the package version', async () => {
    t = await startTestApp();
    const { data, response } = await t.anonymous().GET('/api/health');
    expect(response.status).toBe(200);
    expect(data).toEqual({ status: 'ok', version: 'test' });
    expect(packageJson.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('gives null as the public URL when none is configured', async () => {
    t = await startTestApp();
    const { data } = await t.anonymous().GET('/api/config/public-url');
    expect(data).toEqual({ publicUrl: null });
  });

  it('gives PUBLIC_URL when it is set', async () => {
    t = await startTestApp({ env: { PUBLIC_URL: 'https://music.example.org' } });
    const { data } = await t.anonymous().GET('/api/config/public-url');
    expect(data).toEqual({ publicUrl: 'https://music.example.org' });
  });

  it('serves the OpenAPI 3.1 document and the docs page', async () => {
    t = await startTestApp();
    const doc = await t.app.request('/api/openapi.json');
    expect(doc.status).toBe(200);
    const body = (await doc.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(body.openapi).toBe('3.1.0');
    expect(Object.keys(body.paths)).toContain('/api/health');
    const page = await t.app.request('/api/docs');
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toContain('/api/docs/assets/swagger-ui-bundle.js');
    const asset = await t.app.request('/api/docs/assets/swagger-ui-bundle.js');
    expect(asset.status).toBe(200);
    expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });

  it('links the docs page, its script, the server of the document and avatars under BASE_PATH', async () => {
    const under = await startTestApp({ withDaemon: false, env: { BASE_PATH: '/music-bot' } });
    try {
      const page = await (await under.app.request('/api/docs')).text();
      expect(page).toContain('src="/music-bot/api/docs/assets/swagger-ui-bundle.js"');
      expect(page).toContain('href="/music-bot/api/docs/assets/swagger-ui.css"');
      expect(page).not.toMatch(/(src|href)="\/api\//);
      const init = await (await under.app.request('/api/docs/assets/init.js')).text();
      expect(init).toContain("url: '/music-bot/api/openapi.json'");
      const doc = (await (await under.app.request('/api/openapi.json')).json()) as { servers: unknown };
      expect(doc.servers).toEqual([{ url: '/music-bot' }]);
      const admin = await setupAdmin(under);
      const botId = await insertBot(under);
      const avatar = await admin.api.PUT('/api/bot/{id}/avatar', {
        params: { path: { id: botId } },
        body: { dataUrl: `data:image/png;base64,${PNG_1X1.toString('base64')}` },
      });
      expect(avatar.data).toEqual({ path: `/music-bot/api/bot/${botId}/avatar` });
    } finally {
      await under.close();
    }
    const published = await startTestApp({
      withDaemon: false,
      env: { PUBLIC_URL: 'https://music.example.org:8443/music-bot/' },
    });
    try {
      const doc = (await (await published.app.request('/api/openapi.json')).json()) as { servers: unknown };
      expect(doc.servers).toEqual([{ url: 'https://music.example.org:8443/music-bot' }]);
    } finally {
      await published.close();
    }
  });
});
