/**
 * An HTTP server on 127.0.0.1 at a port the system picks, for the relays that hand ffmpeg a local URL
 * instead of a platform's (daemon/audio/relay/stream-relay.ts, the Spotify PCM relay). It never keeps a
 * process alive on its own.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackServer {
  server: Server;
  port: number;
}

export function listenOnLoopback(
  serve: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<LoopbackServer> {
  return new Promise((resolve, reject) => {
    const server = createServer(serve);
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.unref();
      resolve({ server, port: (server.address() as AddressInfo).port });
    });
  });
}
