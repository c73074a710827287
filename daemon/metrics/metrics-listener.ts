/**
 * A daemon's own `GET /metrics` when it runs apart from the api (daemon/main.ts, `DAEMON_METRICS_PORT`):
 * a bare node:http listener, since the daemon has no HTTP app, and the token (METRICS_TOKEN) is the
 * only way in, since it has no sessions to check. In `make run` the api's /metrics includes the
 * daemon's instead. A scrape is rendered on the daemon's thread; at one every few seconds that is far
 * less than a bot's work between two frames.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exposition, METRICS_CONTENT_TYPE, type MetricsSource } from '../../shared/metrics/exposition';
import { bearsMetricsToken } from '../../shared/metrics/metrics-token';

export interface MetricsListenerOptions {
  host: string;
  port: number;
  token: string;
  sources: readonly MetricsSource[];
}

export interface MetricsListener {
  port: number;
  close(): Promise<void>;
}

const refuse = (response: ServerResponse, status: number, error: string) =>
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error }));

export function serveDaemonMetrics(options: MetricsListenerOptions): Promise<MetricsListener> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics') return refuse(response, 404, 'not found: this listener serves GET /metrics');
    if (request.method !== 'GET') return refuse(response, 405, 'method not allowed: GET /metrics');
    if (!bearsMetricsToken(request.headers.authorization, options.token))
      return refuse(response, 401, 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>');
    exposition(options.sources).then(
      (text) => response.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE }).end(text),
      () => refuse(response, 500, 'the metrics could not be gathered'),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      }),
    );
  });
}
