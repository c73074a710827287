/**
 * A cap on request bodies, so no caller can make the api hold an arbitrarily large body in memory
 * before validation refuses it (Hono reads a JSON body whole). The largest legitimate JSON body is a
 * bot avatar (200 KB of image as a base64 data URL, about 270 KB); 1 MiB leaves room and stops the
 * rest with 413 `{error}`. The upload route streams its raw body to disk under its own 500 MB limit,
 * so it is left out.
 *
 * A refused body is read to its end and thrown away before the 413 is sent, and the connection is
 * closed after it. Answering while the client is still sending made it lose the answer: the server
 * closed the socket under an unfinished upload, and the client saw EPIPE or a reset instead of the
 * 413. Discarding is bounded in bytes and time, so a client sending without end is cut off all the same.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';

export const MAX_BODY_BYTES = 1024 * 1024;
/** How much of a refused body is read and discarded before answering, at most. */
export const DISCARD_MAX_BYTES = 64 * 1024 * 1024;
const DISCARD_MAX_MS = 10_000;
const BODYLESS_METHODS = new Set(['GET', 'HEAD']);

export function bodySizeLimit(exemptPaths: readonly string[]): MiddlewareHandler<AppEnv> {
  return async function bodySize(c, next) {
    // A GET or HEAD has no body; asking for it would make @hono/node-server build a whole Request.
    if (BODYLESS_METHODS.has(c.req.method) || exemptPaths.includes(c.req.path)) return next();
    const body = c.req.raw.body;
    if (!body) return next();
    const declared = c.req.header('content-length');
    if (declared !== undefined && !c.req.header('transfer-encoding')) {
      if (Number(declared) > MAX_BODY_BYTES) await refuse(c, body.getReader());
      return next();
    }
    // No length announced (chunked): read up to the limit, then hand the handler what was read.
    const reader = body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      size += read.value.byteLength;
      if (size > MAX_BODY_BYTES) await refuse(c, reader);
      chunks.push(read.value);
    }
    c.req.raw = new Request(c.req.raw, { body: Buffer.concat(chunks, size) });
    return next();
  };
}

/** Reads the rest of a refused body (bounded), then throws the 413 on a connection that will close. */
async function refuse(c: Context<AppEnv>, reader: ReadableStreamDefaultReader<Uint8Array>): Promise<never> {
  const deadline = setTimeout(() => void reader.cancel().catch(() => {}), DISCARD_MAX_MS);
  try {
    let discarded = 0;
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      discarded += read.value.byteLength;
      if (discarded > DISCARD_MAX_BYTES) break;
    }
  } catch {
    // The client went away or the deadline cancelled the read: answer all the same.
  } finally {
    clearTimeout(deadline);
  }
  c.header('Connection', 'close');
  throw new ApiError(413, 'the request body is larger than 1 MiB');
}
