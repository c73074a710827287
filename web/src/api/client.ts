/**
 * The one API client of the UI: the generated OpenAPI client (same-origin, so the session cookie
 * travels with every call), and `call`, which turns an answer into a result whose error is a sentence.
 */
import { createApiClient } from '@api/index';
import { apiBaseUrl } from '../base';
import { t } from '../i18n';

export const api = createApiClient({ baseUrl: apiBaseUrl });

export type CallResult<T> = { ok: true; value: T } | { ok: false; status: number; error: string };

interface ClientAnswer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The readable text of an error body: the API always answers `{error}` (sometimes with `message`). */
export function errorText(body: unknown, status: number): string {
  if (body && typeof body === 'object') {
    const { error, message } = body as { error?: unknown; message?: unknown };
    if (typeof message === 'string' && message) return message;
    if (typeof error === 'string' && error) return error;
  }
  return t('error.status', { status });
}

/** Awaits a client call; network failures and error answers become `{ok: false, error}`. */
export async function call<T>(request: Promise<ClientAnswer<T>>): Promise<CallResult<T>> {
  try {
    const { data, error, response } = await request;
    if (response.ok) return { ok: true, value: data as T };
    return { ok: false, status: response.status, error: errorText(error, response.status) };
  } catch {
    return { ok: false, status: 0, error: t('error.unreachable') };
  }
}
