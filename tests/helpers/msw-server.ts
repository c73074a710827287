/**
 * An msw server for one test file, standing in for a platform's API: it listens for the whole file
 * and fails any request to a host it does not handle, except loopback ones (the api under test, local
 * audio servers), which pass through untouched.
 */
import type { RequestHandler } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll } from 'vitest';

const PASS_THROUGH_HOSTS = new Set(['127.0.0.1', 'localhost', 'bot.test']);

export function useMswServer(...handlers: RequestHandler[]): void {
  const server = setupServer(...handlers);
  beforeAll(() =>
    server.listen({
      onUnhandledRequest: (request, print) => {
        if (!PASS_THROUGH_HOSTS.has(new URL(request.url).hostname)) print.error();
      },
    }),
  );
  afterAll(() => server.close());
}
