/**
 * The one API client of the UI: the generated OpenAPI client (same-origin, so the session cookie
 * travels with every call), and `call`, which turns an answer into a result whose error is a sentence.
 */
import { createApiClient } from '@api/index';
import { apiBaseUrl } from '../base';
import { locale, t, tPhrase } from '../i18n';
import { platformFailure, platformFailureText } from './platform-errors';

export const api = createApiClient({ baseUrl: apiBaseUrl });
// Whatever the server words itself (a phrase this page does not know yet) comes in the page's language.
api.use({
  onRequest({ request }) {
    request.headers.set('accept-language', locale.value);
    return request;
  },
});

/** A refusal: its text in the page's language, and the phrase it was worded from when the API sent one. */
export interface Refusal {
  ok: false;
  status: number;
  error: string;
  code?: string;
  params?: Record<string, string | number>;
}
export type CallResult<T> = { ok: true; value: T } | Refusal;

interface ClientAnswer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

interface Worded {
  code?: unknown;
  params?: unknown;
  more?: unknown;
}

/** A sentence of the API (`{code, params}` beside its text) in the page's language. */
function wordPhrase({ code, params }: Worded, text: string): string {
  if (typeof code !== 'string') return text;
  const values = params && typeof params === 'object' ? (params as Record<string, string | number>) : {};
  return tPhrase({ code, params: values }, text);
}

/**
 * The receipt of an answer (`{message, code, params, more?}`) in the page's language, or '' when the
 * answer has none.
 */
export function receiptText(body: unknown): string {
  if (!body || typeof body !== 'object') return '';
  const { message, more } = body as Worded & { message?: unknown };
  if (typeof message !== 'string' || !message) return '';
  if (!Array.isArray(more) || !more.length) return wordPhrase(body as Worded, message);
  const parts = [body as Worded, ...(more as Worded[])].map((part) => wordPhrase(part, ''));
  return parts.every(Boolean) ? parts.join(' ') : message;
}

/**
 * The readable text of an error body: the API always answers `{error, code, params}` (sometimes with
 * `message`); a music platform's failure is worded for people (platform-errors.ts).
 */
export function errorText(body: unknown, status: number): string {
  if (body && typeof body === 'object') {
    const { error, code, params } = body as Worded & { error?: unknown };
    const failure = platformFailure(code, params);
    if (failure) return platformFailureText(failure);
    if (typeof error === 'string' && error) return wordPhrase(body as Worded, error);
  }
  return t('error.status', { status });
}

function phraseOf(body: unknown): Pick<Refusal, 'code' | 'params'> {
  const { code, params } = (body ?? {}) as Worded;
  if (typeof code !== 'string') return {};
  return {
    code,
    params: params && typeof params === 'object' ? (params as Record<string, string | number>) : {},
  };
}

/**
 * The request field a refusal names (`serverAddress`), if it names one: a validation refusal
 * (`field…`), or one of its own kind about a field (`usernameTaken`).
 */
export const refusedField = (result: CallResult<unknown>): string | undefined =>
  !result.ok && typeof result.params?.field === 'string' ? result.params.field : undefined;

/** Awaits a client call; network failures and error answers become `{ok: false, error}`. */
export async function call<T>(request: Promise<ClientAnswer<T>>): Promise<CallResult<T>> {
  try {
    const { data, error, response } = await request;
    if (response.ok) return { ok: true, value: data as T };
    return {
      ok: false,
      status: response.status,
      error: errorText(error, response.status),
      ...phraseOf(error),
    };
  } catch {
    return { ok: false, status: 0, error: t('error.unreachable') };
  }
}
