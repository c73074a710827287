/**
 * One HTTP call to a platform API. Every outside failure (network, timeout, HTTP status, a body that
 * is not JSON) comes back as a Result with a sentence a listener can read, named after the service
 * ("QQ Music could not be reached (…)"); reading the answer is the caller's job.
 */
import { err, ok, type Result } from '../../result';

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
    return err(
      `${service} could not be reached (${error instanceof Error ? error.message : 'network error'})`,
    );
  }
  const redirected = init.redirect === 'manual' && response.status >= 300 && response.status < 400;
  return response.ok || redirected ? ok(response) : err(`${service} answered HTTP ${response.status}`);
}

/** A response's body as JSON, or the sentence saying it was something else. */
export async function readJson(service: string, response: Response): Promise<Result<unknown>> {
  try {
    return ok(await response.json());
  } catch {
    return err(`${service} answered with something that is not JSON`);
  }
}

export async function fetchJson(service: string, url: string, init: RequestInit): Promise<Result<unknown>> {
  const response = await fetchResponse(service, url, init);
  return response.ok ? readJson(service, response.value) : response;
}
