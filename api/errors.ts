/**
 * One error path: code anywhere throws `ApiError(status, phrase)` (or lets a validator fail), and the
 * app's `onError` renders `{error, code, params}`, `error` worded in the caller's language
 * (api/locale.ts). A plain sentence instead of a phrase gets the generic code of its status. A database that is busy or full answers 503/507 (shared/db/db-faults.ts);
 * anything else unexpected is logged with its request id and becomes 500; a client mistake never
 * reaches that branch.
 */
import type { Hook } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';
import { dbFaultOf } from '../shared/db/db-faults';
import { type Phrase, renderPhrase, say, statusPhrase } from '../shared/i18n/phrases';
import { logger } from '../shared/logger';
import type { AppEnv } from './env';
import { requestLocale } from './locale';

const log = logger('api');

export class ApiError extends Error {
  readonly phrase: Phrase;

  constructor(
    readonly status: ContentfulStatusCode,
    said: Phrase | string,
    /**
     * Extra fields some answers carry beside `error`, or a function of the worded `error` giving them
     * (`{message, ok: false}` for a disconnected bot).
     */
    readonly extra?: Record<string, unknown> | ((error: string) => Record<string, unknown>),
  ) {
    const phrase = typeof said === 'string' ? statusPhrase(status, said) : said;
    super(renderPhrase(phrase, 'en'));
    this.phrase = phrase;
    this.name = 'ApiError';
  }
}

/** A ZodError as one phrase naming the offending field (`volume: Too big…`, its code saying what kind). */
export function describeZodError(error: ZodError, target: string): Phrase {
  const issue = error.issues[0];
  if (!issue) return say.badRequest(`invalid ${target}`);
  const field = issue.path.length ? issue.path.join('.') : target === 'json' ? 'body' : target;
  switch (issue.code) {
    case 'unrecognized_keys':
      return say.fieldsUnknown(field, issue.keys);
    case 'too_small':
      return say.fieldTooSmall(field, issue.message);
    case 'too_big':
      return say.fieldTooBig(field, issue.message);
    case 'invalid_type':
      // Zod reports no input by default; its sentence is what tells a missing field apart.
      return /received undefined$/.test(issue.message)
        ? say.fieldMissing(field, issue.message)
        : say.fieldInvalid(field, issue.message);
    default:
      return say.fieldInvalid(field, issue.message);
  }
}

/**
 * Text no field may hold: NUL (it cuts strings short wherever they reach C: the voice protocol, ffmpeg
 * arguments, file names) and unpaired UTF-16 surrogates (not Unicode at all: the database would
 * silently store U+FFFD in their place).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what is refused.
const ILL_FORMED_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The path of the first string in `value` holding ill-formed text, '' for `value` itself. */
function illFormedTextAt(value: unknown): string | undefined {
  // A stack, not recursion: a validated value may still nest deeply where a schema takes anything.
  const pending: [unknown, string][] = [[value, '']];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, path] = next;
    if (typeof item === 'string') {
      if (ILL_FORMED_TEXT.test(item)) return path;
    } else if (item !== null && typeof item === 'object') {
      for (const [key, inner] of Object.entries(item)) pending.push([inner, path ? `${path}.${key}` : key]);
    }
  }
  return undefined;
}

/**
 * The `defaultHook` of every OpenAPIHono: a validation failure is a 400 naming the field, and so is
 * ill-formed text in any parameter, header or body field that passed its schema.
 */
export const validationHook: Hook<unknown, AppEnv, string, undefined> = (result) => {
  if (!result.success) throw new ApiError(400, describeZodError(result.error, result.target));
  const at = illFormedTextAt(result.data);
  if (at !== undefined) {
    const field = at || (result.target === 'json' ? 'body' : result.target);
    throw new ApiError(400, say.fieldIllFormed(field));
  }
  return undefined;
};

/** Hono's own HTTP exceptions (malformed JSON, media type) mapped onto SPEC.md's statuses. */
function fromHttpException(error: HTTPException): ApiError {
  if (error.status === 415) return new ApiError(400, say.bodyNotJsonType());
  if (error.status === 400 && /json/i.test(error.message)) return new ApiError(400, say.bodyNotJson());
  return new ApiError(error.status as ContentfulStatusCode, error.message || 'request failed');
}

export function errorHandler(error: Error, c: Context<AppEnv>): Response {
  const apiError =
    error instanceof ApiError ? error : error instanceof HTTPException ? fromHttpException(error) : undefined;
  if (apiError) {
    const body = errorBody(c, apiError.phrase);
    const { extra } = apiError;
    return c.json({ ...body, ...(typeof extra === 'function' ? extra(body.error) : extra) }, apiError.status);
  }
  const dbFault = dbFaultOf(error);
  if (dbFault) {
    log.warn({ err: error, requestId: c.get('requestId'), path: c.req.path }, 'database unavailable');
    return c.json(errorBody(c, statusPhrase(dbFault.status, dbFault.message)), dbFault.status);
  }
  log.error({ err: error, requestId: c.get('requestId'), path: c.req.path }, 'unhandled error');
  return c.json(errorBody(c, say.internalError(`internal error (request id ${c.get('requestId')})`)), 500);
}

/** The error answer: the sentence in the caller's language, and the phrase it was worded from. */
export const errorBody = (c: Pick<Context, 'req'>, phrase: Phrase) => ({
  error: renderPhrase(phrase, requestLocale(c)),
  code: phrase.code,
  params: phrase.params,
});

export function notFoundHandler(c: Context<AppEnv>): Response {
  return c.json(errorBody(c, say.noRoute(c.req.method, c.req.path)), 404);
}
