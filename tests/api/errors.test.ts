import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_ORIGIN, type TestApp } from '../helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const post = (path: string, body: string, contentType?: string) =>
  t.fetch(
    new Request(`${TEST_ORIGIN}${path}`, {
      method: 'POST',
      body,
      headers: contentType ? { 'content-type': contentType } : {},
    }),
  );

describe('the error model', () => {
  it('answers a malformed JSON body with 400 {error}', async () => {
    const res = await post('/api/session/login', '{"username": "a", ', 'application/json');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'request body is not valid JSON' });
  });

  it('answers a wrong content type with 400 {error}', async () => {
    const res = await post(
      '/api/session/login',
      'username=a&password=b',
      'application/x-www-form-urlencoded',
    );
    expect(res.status).toBe(400);
    expect((await res.json()) as { error: string }).toEqual({
      error: 'request body must be JSON (Content-Type: application/json)',
    });
  });

  it('answers a missing body with 400 naming it', async () => {
    const res = await post('/api/session/login', '', 'application/json');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/JSON/);
  });

  it('names the field that failed validation', async () => {
    const res = await post(
      '/api/session/login',
      JSON.stringify({ username: 'x', password: 42 }),
      'application/json',
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/^password: /);
  });

  it('answers an unknown /api route with 404 JSON', async () => {
    const res = await t.fetch(new Request(`${TEST_ORIGIN}/api/does-not-exist`));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'no route for GET /api/does-not-exist' });
  });

  it('turns an unexpected exception into 500 {error} with a request id and keeps serving', async () => {
    const broken = await startTestApp();
    try {
      // A database that went away is an internal failure, never the client's fault.
      broken.db.$client.close();
      const res = await broken.fetch(
        new Request(`${TEST_ORIGIN}/api/session/needs-setup`, { headers: { 'x-request-id': 'req-42' } }),
      );
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ error: 'internal error (request id req-42)' });
      expect(res.headers.get('x-request-id')).toBe('req-42');
      const health = await broken.fetch(new Request(`${TEST_ORIGIN}/api/health`));
      expect(health.status).toBe(200);
    } finally {
      await broken.daemon?.stop();
    }
  });
});
