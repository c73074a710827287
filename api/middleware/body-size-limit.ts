/**
 * A cap on request bodies, so no caller can make the api hold an arbitrarily large body in memory
 * before validation refuses it (Hono reads a JSON body whole). The largest legitimate JSON body is a
 * bot avatar (200 KB of image as a base64 data URL, about 270 KB); 1 MiB leaves room and stops the
 * rest with 413 `{error}`. The upload route streams its raw body to disk under its own 500 MB limit,
 * so it is left out.
 */
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';

export const MAX_BODY_BYTES = 1024 * 1024;
const BODYLESS_METHODS = new Set(['GET', 'HEAD']);

export function bodySizeLimit(exemptPaths: readonly string[]): MiddlewareHandler<AppEnv> {
  const limit = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new ApiError(413, 'the request body is larger than 1 MiB');
    },
  });
  return async function bodySize(c, next) {
    // A GET or HEAD has no body; asking for it would make @hono/node-server build a whole Request.
    if (BODYLESS_METHODS.has(c.req.method) || exemptPaths.includes(c.req.path)) return next();
    return limit(c, next);
  };
}
