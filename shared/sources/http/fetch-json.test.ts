import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchJson, MAX_ANSWER_BYTES } from './fetch-json';

let server: Server;
let base = '';
beforeAll(async () => {
  const big = Buffer.alloc(MAX_ANSWER_BYTES + 1, 0x20);
  server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/small') return res.end('{"ok":true}');
    // Announced: refused by its Content-Length. Chunked: refused once the bytes read pass the limit.
    if (req.url === '/announced') return res.end(big);
    res.write(big.subarray(0, MAX_ANSWER_BYTES));
    res.write(big.subarray(MAX_ANSWER_BYTES));
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('a platform answer', () => {
  it('is read when it fits', async () => {
    expect(await fetchJson('Example Music', `${base}/small`, {})).toEqual({ ok: true, value: { ok: true } });
  });

  it('is refused in words past 8 MiB, announced or not', async () => {
    for (const path of ['/announced', '/chunked'])
      expect(await fetchJson('Example Music', `${base}${path}`, {})).toEqual({
        ok: false,
        error: 'Example Music sent an answer larger than 8 MiB; it was not read',
      });
  });
});
