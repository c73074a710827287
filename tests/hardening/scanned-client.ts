/**
 * Typed API clients for the security suites whose every answer is counted and scanned for registered
 * secrets before the caller sees it (secret-scan.ts): a browser (own cookie jar and client address),
 * a key holder, or anyone with raw headers. New session ids and raw keys the answers hand out are
 * registered as secrets as soon as they are seen.
 */
import { type ApiClient, createApiClient } from '../../openapi/client';
import { CookieJar } from '../../testkit/cookie-jar';
import { TEST_ORIGIN, type TestApp } from '../../testkit/test-app';
import { isEndlessStream } from '../helpers/ogg-reader';
import { type SecretScanner, sessionIdsIn } from './secret-scan';

export interface ScannedClients {
  browser(): { api: ApiClient; jar: CookieJar };
  withHeaders(headers: Record<string, string>): ApiClient;
  /** A raw request through the same scan (for what the typed client cannot send). */
  send(request: Request, jar?: CookieJar): Promise<Response>;
  /** Answers scanned so far. */
  readonly requests: number;
}

/** The answer's text for the scan; of an endless stream, its first chunk (the Ogg headers and on). */
async function scannedText(response: Response): Promise<string> {
  if (!isEndlessStream(response)) return response.clone().text();
  const reader = response.clone().body?.getReader();
  const first = await reader?.read();
  // Not awaited: a tee branch's cancel settles only once the caller cancels the other branch too.
  void reader?.cancel();
  return Buffer.from(first?.value ?? []).toString('latin1');
}

export function scannedClients(t: TestApp, scanner: SecretScanner): ScannedClients {
  let requests = 0;
  let browsers = 0;
  async function send(request: Request, jar?: CookieJar): Promise<Response> {
    const cookie = jar?.header();
    if (cookie) request.headers.set('cookie', cookie);
    const response = await t.app.fetch(request);
    const answer = {
      status: response.status,
      headers: response.headers,
      body: await scannedText(response),
    };
    requests++;
    scanner.scanAnswer(
      `${request.method} ${new URL(request.url).pathname}`,
      answer,
      sessionIdsIn(request.headers.get('cookie') ?? undefined),
    );
    jar?.store(response);
    return response;
  }
  const client = (headers: Record<string, string>, jar?: CookieJar) =>
    createApiClient({ baseUrl: TEST_ORIGIN, headers, fetch: (request) => send(request, jar) });
  return {
    browser() {
      const jar = new CookieJar();
      browsers++;
      return {
        api: client({ 'x-forwarded-for': `198.19.${(browsers >> 8) & 255}.${browsers & 255}` }, jar),
        jar,
      };
    },
    withHeaders: (headers) => client(headers),
    send,
    get requests() {
      return requests;
    },
  };
}
