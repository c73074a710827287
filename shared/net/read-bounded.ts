/**
 * A response's body read up to a bound: reading stops, and the rest is cancelled, as soon as the bound
 * is passed, so a body that never ends (or is larger than its Content-Length says, or names none) is
 * never held in memory whole. A network failure while reading throws, as reading a body does.
 */
export const TOO_LARGE = 'too large';

export async function readBounded(response: Response, maxBytes: number): Promise<Buffer | typeof TOO_LARGE> {
  if (Number(response.headers.get('content-length')) > maxBytes) {
    void response.body?.cancel().catch(() => undefined);
    return TOO_LARGE;
  }
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > maxBytes) {
      void reader.cancel().catch(() => undefined);
      return TOO_LARGE;
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks, size);
}
