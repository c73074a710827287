/**
 * A real `ws` client of the gateway at /ws for tests: every frame parsed with the shared schema,
 * a wait for a frame that matches, and the close code with the moment it arrived.
 */
import WebSocket from 'ws';
import { type WsMessage, WsMessageSchema } from '../../shared/ws-messages';

export interface Socket {
  ws: WebSocket;
  messages: WsMessage[];
  next(predicate: (m: WsMessage) => boolean, timeoutMs?: number): Promise<WsMessage>;
  /** The close code, once the socket closed. */
  closed: Promise<number>;
  /** `Date.now()` when the socket closed (set once `closed` resolved). */
  closedAt?: number;
}

/** Opens a socket at `url` (ws://…/ws) with these upgrade headers; rejects when the upgrade is refused. */
export function connect(url: string, headers: Record<string, string>): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    const messages: WsMessage[] = [];
    const waiters: (() => void)[] = [];
    ws.on('message', (data) => {
      messages.push(WsMessageSchema.parse(JSON.parse(String(data))));
      for (const wake of waiters.splice(0)) wake();
    });
    const next = async (predicate: (m: WsMessage) => boolean, timeoutMs = 2000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find(predicate);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no matching message; got ${JSON.stringify(messages)}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 50);
        });
      }
    };
    const socket: Socket = {
      ws,
      messages,
      next,
      closed: new Promise<number>((r) =>
        ws.on('close', (code) => {
          socket.closedAt = Date.now();
          r(code);
        }),
      ),
    };
    ws.on('open', () => resolve(socket));
    ws.on('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    ws.on('error', reject);
  });
}
