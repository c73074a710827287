/**
 * An msw server for one test file, standing in for the platforms' APIs: it listens for the whole file
 * and fails any request to a host it does not handle, except loopback ones (the api under test, local
 * audio servers), which pass through untouched. A file may stand in for several platforms at once:
 * every call adds its handlers to the file's one server (msw wants a single server per process).
 */
import type { RequestHandler } from 'msw';
import { type SetupServer, setupServer } from 'msw/node';
import { afterAll, beforeAll } from 'vitest';

const PASS_THROUGH_HOSTS = new Set(['127.0.0.1', 'localhost', 'bot.test']);

/** The handlers of this test file (vitest gives each file its own module instance). */
let fileHandlers: RequestHandler[] | undefined;

export function useMswServer(...handlers: RequestHandler[]): void {
  if (fileHandlers) {
    fileHandlers.push(...handlers);
    return;
  }
  const all = [...handlers];
  fileHandlers = all;
  let server: SetupServer | undefined;
  beforeAll(() => {
    server = setupServer(...all);
    server.listen({
      onUnhandledRequest: (request, print) => {
        if (!PASS_THROUGH_HOSTS.has(new URL(request.url).hostname)) print.error();
      },
    });
  });
  afterAll(() => server?.close());
}
