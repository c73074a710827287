import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../api/middleware/body-size-limit';
import { startTestApp, TEST_ORIGIN, type TestApp } from '../../testkit/test-app';

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
    expect(await res.json()).toMatchObject({ error: 'request body is not valid JSON' });
  });

  it('answers a wrong content type with 400 {error}', async () => {
    const res = await post(
      '/api/session/login',
      'username=a&password=b',
      'application/x-www-form-urlencoded',
    );
    expect(res.status).toBe(400);
    expect((await res.json()) as { error: string }).toMatchObject({
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
    expect(await res.json()).toMatchObject({ error: 'no route for GET /api/does-not-exist' });
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
      expect(await res.json()).toMatchObject({ error: 'internal error (request id req-42)' });
      expect(res.headers.get('x-request-id')).toBe('req-42');
      const health = await broken.fetch(new Request(`${TEST_ORIGIN}/api/health`));
      expect(health.status).toBe(200);
    } finally {
      await broken.daemon?.stop();
    }
  });

  describe('a body over 1 MiB, over a real socket', () => {
    const oversized = Buffer.alloc(MAX_BODY_BYTES + 512 * 1024, 'a');
    let base: URL;
    beforeAll(async () => {
      base = new URL(await t.listen());
    });

    /**
     * POSTs `oversized` in 64 KB pieces, `pauseMs` apart (a slow uplink), with or without a length, and
     * resolves with the answer's status, `Connection` header and body, or rejects with the socket error.
     */
    const send = (pauseMs: number, announceLength: boolean) =>
      new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
        const req = request(
          {
            host: base.hostname,
            port: base.port,
            path: '/api/session/login',
            method: 'POST',
            agent: false,
            headers: {
              'content-type': 'application/json',
              ...(announceLength ? { 'content-length': oversized.length } : {}),
            },
          },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (text: string) => {
              body += text;
            });
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }),
            );
          },
        );
        req.on('error', reject);
        void (async () => {
          for (let at = 0; at < oversized.length; at += 64 * 1024) {
            req.write(oversized.subarray(at, at + 64 * 1024));
            if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
          }
          req.end();
        })();
      });

    it('always lets the client read the 413 {error}, with or without a length, fast or slow', async () => {
      const answers = [];
      // undici sends the whole body while the answer may already be there: before the body was read
      // first, 8 of 20 such tries ended in "other side closed" instead of the 413.
      for (let i = 0; i < 10; i++) {
        const res = await fetch(new URL('/api/session/login', base), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: oversized,
        });
        answers.push({
          status: res.status,
          connection: res.headers.get('connection'),
          body: await res.text(),
        });
      }
      // A slow uplink, announced and chunked.
      answers.push(...(await Promise.all([send(40, true), send(40, false)])));
      for (const answer of answers) {
        expect(answer.status).toBe(413);
        expect(JSON.parse(answer.body)).toMatchObject({ error: 'the request body is larger than 1 MiB' });
        expect(answer.connection).toBe('close');
      }
    });

    it('still takes a body just under the limit without a length (chunked)', async () => {
      const res = await t.fetch(
        new Request(`${TEST_ORIGIN}/api/session/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: new Blob([
            JSON.stringify({ username: 'nobody', password: 'x'.repeat(MAX_BODY_BYTES - 64) }),
          ]).stream(),
          duplex: 'half',
        } as RequestInit),
      );
      expect(res.status).not.toBe(413);
      expect(((await res.json()) as { error: string }).error).toBeTruthy();
    });
  });
});
