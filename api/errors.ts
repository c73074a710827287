/**
 * One error path: code anywhere throws `ApiError(status, message)` (or lets a validator fail), and the
 * app's `onError` renders `{error}`. Anything unexpected is logged with its request id and becomes
 * 500; a client mistake never reaches that branch.
 */
import type { Hook } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';
import { logger } from '../shared/logger';
import type { AppEnv } from './env';

const log = logger('api');

export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    /** Extra fields some answers carry beside `error` (e.g. `{message, ok: false}` for a disconnected bot). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Renders a ZodError as one readable sentence naming the offending field. */
export function describeZodError(error: ZodError, target: string): string {
  const issue = error.issues[0];
  if (!issue) return `invalid ${target}`;
  const field = issue.path.length ? issue.path.join('.') : target === 'json' ? 'body' : target;
  if (issue.code === 'unrecognized_keys')
    return `${field === 'body' ? 'body' : field}: unknown field(s) ${issue.keys.join(', ')}`;
  return `${field}: ${issue.message}`;
}

/** The `defaultHook` of every OpenAPIHono: a validation failure is a 400 naming the field. */
export const validationHook: Hook<unknown, AppEnv, string, undefined> = (result) => {
  if (!result.success) throw new ApiError(400, describeZodError(result.error, result.target));
  return undefined;
};

/** Hono's own HTTP exceptions (malformed JSON, media type) mapped onto SPEC.md's statuses. */
function fromHttpException(error: HTTPException): ApiError {
  if (error.status === 415)
    return new ApiError(400, 'request body must be JSON (Content-Type: application/json)');
  if (error.status === 400 && /json/i.test(error.message))
    return new ApiError(400, 'request body is not valid JSON');
  return new ApiError(error.status as ContentfulStatusCode, error.message || 'request failed');
}

export function errorHandler(error: Error, c: Context<AppEnv>): Response {
  const apiError =
    error instanceof ApiError ? error : error instanceof HTTPException ? fromHttpException(error) : undefined;
  if (apiError) return c.json({ error: apiError.message, ...apiError.extra }, apiError.status);
  log.error({ err: error, requestId: c.get('requestId'), path: c.req.path }, 'unhandled error');
  return c.json({ error: `internal error (request id ${c.get('requestId')})` }, 500);
}

export function notFoundHandler(c: Context<AppEnv>): Response {
  return c.json({ error: `no route for ${c.req.method} ${c.req.path}` }, 404);
}
