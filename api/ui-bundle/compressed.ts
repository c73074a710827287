/**
 * Compressed copies of the bundle's text files (JavaScript, CSS, SVG, JSON): a browser downloads the
 * first load in about a third of the bytes. Each copy is made once per file version and kept in memory
 * (the bundle is a few hundred kB, and its hashed assets never change), so serving costs no CPU after
 * the first request.
 */
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

export type Encoding = 'br' | 'gzip';

const COMPRESSIBLE = /^(text\/|application\/json|image\/svg\+xml)/;
/** Below this a compressed body saves less than its headers and a round of CPU cost. */
const MIN_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** The encoding to answer with: brotli where the browser takes it, else gzip, else none. */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  const offered = (acceptEncoding ?? '')
    .split(',')
    .map((part) => part.trim().split(';'))
    .filter(([, q]) => !q || !/^\s*q=0(\.0*)?\s*$/.test(q))
    .map(([name]) => name?.trim().toLowerCase());
  if (offered.includes('br')) return 'br';
  if (offered.includes('gzip')) return 'gzip';
  return undefined;
}

export const isCompressible = (contentType: string, bytes: number) =>
  bytes >= MIN_BYTES && COMPRESSIBLE.test(contentType);

export class CompressedCopies {
  private readonly copies = new Map<string, Promise<Buffer>>();

  /** `version` tells a rebuilt file from the one cached (its modification time). */
  get(path: string, version: number, encoding: Encoding, body: Buffer): Promise<Buffer> {
    const key = `${encoding}:${path}`;
    const versioned = `${key}@${version}`;
    const cached = this.copies.get(versioned);
    if (cached) return cached;
    for (const old of this.copies.keys()) if (old.startsWith(`${key}@`)) this.copies.delete(old);
    const copy =
      encoding === 'br'
        ? brotli(body, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
            },
          })
        : gzipped(body, { level: 9 });
    this.copies.set(versioned, copy);
    return copy;
  }
}
