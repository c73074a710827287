/** Serves an app over HTTP (Node adapter) with WebSockets; resolves once listening, with the bound port. */
import { type ServerType, serve } from '@hono/node-server';
import type { createApp } from './app';

type BuiltApp = Pick<ReturnType<typeof createApp>, 'app' | 'injectWebSocket' | 'gateway'>;

export interface RunningServer {
  server: ServerType;
  port: number;
  close(): Promise<void>;
}

/** Serves the app and its WebSocket gateway. */
export function listen(
  { app, injectWebSocket, gateway }: BuiltApp,
  host: string,
  port: number,
): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, hostname: host, port }, (info) =>
      resolve({
        server,
        port: info.port,
        close: () =>
          new Promise((done) => {
            gateway.close();
            server.close(() => done());
            // Open WebSockets would hold close() forever.
            if ('closeAllConnections' in server) server.closeAllConnections();
          }),
      }),
    );
    injectWebSocket(server);
    server.once('error', reject);
  });
}
