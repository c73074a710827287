import { afterEach, describe, expect, it } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };
import { startTestApp, type TestApp } from '../helpers/test-app';

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
});
