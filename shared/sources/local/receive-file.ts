/**
 * Writes a request body to a file as it arrives, never holding it whole: chunks go straight to disk
 * with back-pressure, and the byte count is checked on the way so an over-long body is cut off at the
 * limit rather than after it has filled the disk. A partial file is always removed.
 */
import { createWriteStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { err, ok, type Result } from '../../result';

export type ReceiveError = { kind: 'tooLarge' } | { kind: 'interrupted'; message: string };

class TooLarge extends Error {}

/** Streams `body` into a new file at `path` (which must not exist); answers the byte count. */
export async function receiveToFile(
  body: ReadableStream<Uint8Array>,
  path: string,
  maxBytes: number,
): Promise<Result<number, ReceiveError>> {
  let bytes = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(bytes > maxBytes ? new TooLarge() : null, chunk);
    },
  });
  try {
    await pipeline(
      Readable.fromWeb(body as WebReadableStream<Uint8Array>),
      limit,
      createWriteStream(path, { flags: 'wx' }),
    );
    return ok(bytes);
  } catch (error) {
    await unlink(path).catch(() => undefined);
    if (error instanceof TooLarge) return err({ kind: 'tooLarge' });
    return err({ kind: 'interrupted', message: error instanceof Error ? error.message : String(error) });
  }
}
