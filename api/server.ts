/** Serves an app over HTTP (Node adapter); resolves once listening, with the bound port. */
import { type ServerType, serve } from '@hono/node-server';
import type { App } from './app';

export interface RunningServer {
  server: ServerType;
  port: number;
  close(): Promise<void>;
}

export function listen(app: App, host: string, port: number): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, hostname: host, port }, (info) =>
      resolve({
        server,
        port: info.port,
        close: () => new Promise((done) => server.close(() => done())),
      }),
    );
    server.once('error', reject);
  });
}
