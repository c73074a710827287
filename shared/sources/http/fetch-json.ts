/**
 * One HTTP call to a platform API. Every outside failure (network, deadline, HTTP status, a body that
 * is not JSON) comes back as a Result with a sentence a listener can read, named after the service
 * ("QQ Music could not be reached (…)", "NetEase Cloud Music did not answer within 10 s"); reading the
 * answer is the caller's job. The deadline covers the whole exchange, the body included, so a
 * platform that sends its headers and then stalls is given up on too.
 */
import { readBounded, TOO_LARGE } from '../../net/read-bounded';
import { err, ok, type Result } from '../../result';
import { timedOutSentence, unreachableSentence } from './unreachable';

const TIMEOUT_MS = 10_000;

/**
 * The platform's response, for callers that need more than its JSON (Set-Cookie headers, a picture, a
 * redirect's Location). With `redirect: 'manual'` a redirect is an answer, not a failure.
 */
export async function fetchResponse(
  service: string,
  url: string,
  init: RequestInit,
): Promise<Result<Response>> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    return err(unreachable(service, error));
  }
  const redirected = init.redirect === 'manual' && response.status >= 300 && response.status < 400;
  if (response.ok || redirected) return ok(response);
  // The body is not wanted; cancelling it frees the connection. Not awaited: a stalled body must not
  // hold up the answer.
  void response.body?.cancel().catch(() => undefined);
  return err(refusal(service, response.status));
}

/**
 * The most of one answer that is read: lyrics, the longest playlists and QR pictures fit many times
 * over. A larger answer is refused rather than held in memory whole.
 */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/** A response's body, read up to MAX_ANSWER_BYTES, or the sentence saying it was larger (or never came). */
export async function readBytes(service: string, response: Response): Promise<Result<Buffer>> {
  let bytes: Awaited<ReturnType<typeof readBounded>>;
  try {
    bytes = await readBounded(response, MAX_ANSWER_BYTES);
  } catch (error) {
    return err(unreachable(service, error));
  }
  return bytes === TOO_LARGE ? err(tooLarge(service)) : ok(bytes);
}

/** A response's body as UTF-8 text, bounded as readBytes. */
export async function readText(service: string, response: Response): Promise<Result<string>> {
  const bytes = await readBytes(service, response);
  return bytes.ok ? ok(bytes.value.toString('utf8')) : bytes;
}

/** A response's body as JSON, or the sentence saying it was something else (or never came). */
export async function readJson(service: string, response: Response): Promise<Result<unknown>> {
  const body = await readText(service, response);
  if (!body.ok) return body;
  const text = body.value;
  try {
    return ok(JSON.parse(text));
  } catch {
    const type = response.headers.get('content-type')?.split(';')[0]?.trim();
    return err(`${service} answered with something that is not JSON${type ? ` (${type})` : ''}`);
  }
}

/** JSON when the text is JSON, else undefined (for answers whose status says more than their body). */
export function parseJsonLoosely(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

export async function fetchJson(service: string, url: string, init: RequestInit): Promise<Result<unknown>> {
  const response = await fetchResponse(service, url, init);
  return response.ok ? readJson(service, response.value) : response;
}

function unreachable(service: string, error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError')
    return timedOutSentence(service, TIMEOUT_MS / 1000);
  return unreachableSentence(service, error instanceof Error ? error.message : 'network error');
}

function tooLarge(service: string): string {
  return `${service} sent an answer larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB; it was not read`;
}

function refusal(service: string, status: number): string {
  return status === 429
    ? `${service} is limiting requests (HTTP 429); try again in a while`
    : `${service} answered HTTP ${status}`;
}
