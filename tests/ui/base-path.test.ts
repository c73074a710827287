/**
 * The UI under a sub-path behind a reverse proxy that strips it (`BASE_PATH=/music-bot`): pages,
 * assets, API calls and the WebSocket all go through the prefix, and history-mode links keep it.
 */
import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import { connect } from 'node:net';
import type { Duplex } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PASSWORD } from '../../testkit/accounts';
import { screenshot, startUiHarness, type UiHarness } from './ui-harness';

const PREFIX = '/music-bot';
let ui: UiHarness;
let proxy: Server;
let proxyUrl = '';

/** A minimal stripping proxy, as `location /music-bot/ { proxy_pass http://app/; }` would be. */
function startProxy(target: URL): Promise<string> {
  const upstreamPath = (req: IncomingMessage) => req.url!.slice(PREFIX.length) || '/';
  proxy = createServer((req, res) => {
    if (!req.url?.startsWith(`${PREFIX}/`)) {
      res.writeHead(404).end();
      return;
    }
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        path: upstreamPath(req),
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  proxy.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const upstream = connect(Number(target.port), target.hostname, () => {
      const headers = [];
      for (let i = 0; i < req.rawHeaders.length; i += 2)
        headers.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(`${req.method} ${upstreamPath(req)} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`);
      upstream.write(head);
      socket.pipe(upstream).pipe(socket);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  return new Promise((resolve) =>
    proxy.listen(0, '127.0.0.1', () => {
      const address = proxy.address();
      resolve(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
    }),
  );
}

beforeAll(async () => {
  ui = await startUiHarness({ BASE_PATH: PREFIX });
  proxyUrl = await startProxy(new URL(ui.baseUrl));
}, 90_000);

afterAll(async () => {
  proxy?.closeAllConnections();
  await new Promise((resolve) => proxy?.close(resolve));
  await ui?.close();
});

it('works under BASE_PATH behind a stripping proxy: assets, API, socket and links', async () => {
  const page = await ui.newPage();
  page.setDefaultTimeout(8000);
  const outside: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(`${proxyUrl}${PREFIX}/`)) outside.push(r.url());
  });
  await page.goto(`${proxyUrl}${PREFIX}/`);
  await page.waitForURL(`${proxyUrl}${PREFIX}/setup`);
  await page.getByLabel('Username').fill('owner');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Repeat the password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create the admin account' }).click();
  await page.getByRole('heading', { name: 'Language and theme' }).waitFor();

  await page.goto(`${proxyUrl}${PREFIX}/settings/keys`);
  await page.getByRole('heading', { name: 'API keys' }).waitFor();
  await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await page.waitForURL(`${proxyUrl}${PREFIX}/`);
  await screenshot(page, 'base-path-dashboard');
  expect(outside).toEqual([]);
  await page.context().close();
});
