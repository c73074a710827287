/**
 * One HTTP call to a platform API whose answer is JSON. Every outside failure (network, timeout, HTTP
 * status, a body that is not JSON) comes back as a Result with a sentence a listener can read, named
 * after the service ("QQ Music could not be reached (…)"); reading the answer is the caller's job.
 */
import { err, ok, type Result } from '../../result';

const TIMEOUT_MS = 10_000;

export async function fetchJson(service: string, url: string, init: RequestInit): Promise<Result<unknown>> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    return err(
      `${service} could not be reached (${error instanceof Error ? error.message : 'network error'})`,
    );
  }
  if (!response.ok) return err(`${service} answered HTTP ${response.status}`);
  try {
    return ok(await response.json());
  } catch {
    return err(`${service} answered with something that is not JSON`);
  }
}
