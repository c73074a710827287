/**
 * HTTP requests across a thread boundary without a socket: `serveFetchOverPort` answers requests with a
 * fetch handler (the api's `app.fetch`, on the main thread), and `portFetch` is a `fetch` on the other
 * end of the port (the daemon's thread, for chat commands). Requests and answers cross as their parts
 * (method, URL, headers, body bytes), so the handler runs where the api runs and the daemon's thread
 * only waits for the answer, as it would for a socket.
 */
import type { MessagePort } from 'node:worker_threads';

interface WireRequest {
  call: number;
  method: string;
  url: string;
  headers: [string, string][];
  body: ArrayBuffer | undefined;
}

type WireAnswer =
  | { call: number; ok: true; status: number; headers: [string, string][]; body: ArrayBuffer }
  | { call: number; ok: false; message: string };

export type FetchHandler = (request: Request) => Response | Promise<Response>;

/** Answers the requests `portFetch` sends over `port` with `handler`. */
export function serveFetchOverPort(handler: FetchHandler, port: MessagePort): void {
  port.on('message', async (wire: WireRequest) => {
    let answer: WireAnswer;
    try {
      const response = await handler(
        new Request(wire.url, {
          method: wire.method,
          headers: wire.headers,
          ...(wire.body ? { body: wire.body } : {}),
        }),
      );
      answer = {
        call: wire.call,
        ok: true,
        status: response.status,
        headers: [...response.headers],
        body: await response.arrayBuffer(),
      };
    } catch (error) {
      answer = {
        call: wire.call,
        ok: false,
        message: error instanceof Error ? error.message : String(error),
      };
    }
    port.postMessage(answer, answer.ok ? [answer.body] : []);
  });
}

/** A fetch whose requests are answered on the other side of `port`; fails once the port is closed. */
export function portFetch(port: MessagePort): (request: Request) => Promise<Response> {
  const waiting = new Map<number, { resolve: (r: Response) => void; reject: (e: Error) => void }>();
  let nextCall = 1;
  let closed = false;
  port.on('message', (answer: WireAnswer) => {
    const pending = waiting.get(answer.call);
    waiting.delete(answer.call);
    if (!pending) return;
    if (!answer.ok) return pending.reject(new Error(answer.message));
    // A null-body status (204, 304) takes no body, not even an empty one.
    const body = answer.body.byteLength > 0 ? answer.body : null;
    pending.resolve(new Response(body, { status: answer.status, headers: answer.headers }));
  });
  port.once('close', () => {
    closed = true;
    for (const pending of waiting.values()) pending.reject(new Error('the api has gone away'));
    waiting.clear();
  });
  return async (request) => {
    if (closed) throw new Error('the api has gone away');
    const body = request.body ? await request.arrayBuffer() : undefined;
    const call = nextCall++;
    const wire: WireRequest = {
      call,
      method: request.method,
      url: request.url,
      headers: [...request.headers],
      body,
    };
    return new Promise((resolve, reject) => {
      waiting.set(call, { resolve, reject });
      port.postMessage(wire, body ? [body] : []);
    });
  };
}
