/** Serves an app over HTTP (Node adapter) with WebSockets; resolves once listening, with the bound port. */
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { settleWithin } from '../shared/settle-within';
import { WS_CLOSE_GOING_AWAY } from '../shared/ws-messages';
import type { createApp } from './app';

type BuiltApp = Pick<
  ReturnType<typeof createApp>,
  'app' | 'injectWebSocket' | 'gateway' | 'listenHub' | 'wss' | 'keyUses'
>;

/** How long requests still running at shutdown, and sockets slow to answer their close, are given. */
export const HTTP_GRACE_MS = 1500;

export interface RunningServer {
  server: Server;
  port: number;
  /** Stops serving (see `stopServing`); resolves once every connection is gone. */
  close(): Promise<void>;
}

/** Serves the app and its WebSocket gateway. */
export function listen(built: BuiltApp, host: string, port: number): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    let stopping: Promise<void> | undefined;
    // Plain HTTP/1.1: `serve` makes a node:http server unless given another factory.
    const server = serve({ fetch: built.app.fetch, hostname: host, port }, (info) =>
      resolve({
        server,
        port: info.port,
        close: () => {
          stopping ??= stopServing(server, built);
          return stopping;
        },
      }),
    ) as Server;
    // Once stopping, a keep-alive connection ends as soon as its answer is sent instead of idling on.
    server.on('request', (_request, response) =>
      response.once('finish', () => {
        if (stopping) server.closeIdleConnections();
      }),
    );
    built.injectWebSocket(server);
    server.once('error', reject);
  });
}

/**
 * Stops accepting connections and WebSocket upgrades, closes every WebSocket with 1001 ("going away":
 * the browser reconnects, to the next server behind a proxy) and ends idle keep-alive connections at
 * once. Requests still running, and sockets that have not answered their close, get HTTP_GRACE_MS;
 * then their connections are cut. An upgraded socket is no longer the HTTP server's to close, so
 * without this a tab left open would keep the process alive forever.
 */
async function stopServing(server: Server, { gateway, listenHub, wss, keyUses }: BuiltApp): Promise<void> {
  // Node ≥ 19 also ends idle keep-alive connections here.
  const closed = new Promise<void>((done) => server.close(() => done()));
  wss.close();
  // Listen streams never end on their own: end them, so they do not hold the shutdown for its grace.
  listenHub.close();
  for (const socket of wss.clients) socket.close(WS_CLOSE_GOING_AWAY, 'server shutting down');
  await settleWithin(closed, HTTP_GRACE_MS);
  server.closeAllConnections();
  for (const socket of wss.clients) socket.terminate();
  await closed;
  gateway.close();
  // The last API key uses, before the database closes.
  await keyUses.flush();
}
