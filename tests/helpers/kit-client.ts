/**
 * A client of the deploy kit as a browser elsewhere sees it: it reaches the kit's server name (mapped
 * to 127.0.0.1, as Chromium's host-resolver-rules do in the kit test) over TLS with the kit's
 * self-signed certificate, sends the site's Origin like a page would, and keeps the session cookie.
 */
import { Agent, request } from 'node:https';
import type { LookupFunction } from 'node:net';
import WebSocket from 'ws';
import { CookieJar } from '../../testkit/cookie-jar';

/** Every name is 127.0.0.1 (net.connect asks for one address or, with autoSelectFamily, for all). */
const toLoopback: LookupFunction = (_hostname, options, callback) => {
  if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
  else callback(null, '127.0.0.1', 4);
};

export interface KitAnswer {
  status: number;
  body: unknown;
}

export interface KitClient {
  /** A JSON call relative to the kit's base URL; a network error rejects. */
  call(method: string, path: string, body?: unknown): Promise<KitAnswer>;
  /** Opens `/ws` with the session cookie and Origin; resolves once it is open. */
  socket(): Promise<WebSocket>;
  close(): void;
}

export function kitClient(baseUrl: string): KitClient {
  const base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  const origin = base.origin;
  const jar = new CookieJar();
  const agent = new Agent({ keepAlive: true, rejectUnauthorized: false, lookup: toLoopback });
  const send = (method: string, path: string, body?: unknown): Promise<KitAnswer> => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = request(
        new URL(path, base),
        {
          method,
          agent,
          headers: {
            origin,
            ...(jar.header() ? { cookie: jar.header() } : {}),
            ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const headers = new Headers();
            for (const line of res.headers['set-cookie'] ?? []) headers.append('set-cookie', line);
            jar.store(new Response(null, { headers }));
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null });
          });
        },
      );
      req.on('error', (error) => reject(Object.assign(error, { reusedSocket: req.reusedSocket })));
      req.end(payload);
    });
  };
  return {
    async call(method, path, body) {
      try {
        return await send(method, path, body);
      } catch (error) {
        // A browser sends a request again when the kept-alive connection it reused was closed before
        // any answer (nginx ends idle ones when it reloads); a fresh connection's failure is final.
        if ((error as { reusedSocket?: boolean }).reusedSocket) return send(method, path, body);
        throw error;
      }
    },
    socket() {
      const ws = new WebSocket(new URL('ws', base).href.replace(/^http/, 'ws'), {
        headers: { origin, cookie: jar.header() ?? '' },
        rejectUnauthorized: false,
        lookup: toLoopback,
      });
      return new Promise((resolve, reject) => ws.once('open', () => resolve(ws)).once('error', reject));
    },
    close: () => agent.destroy(),
  };
}
