/** The few DER shapes libtomcrypt's ECC key export uses: a SEQUENCE of BIT STRINGs and INTEGERs. */
import { err, ok, type Result } from '../../shared/result';

export const DerTag = { Integer: 0x02, BitString: 0x03, Sequence: 0x30 } as const;

export interface DerElement {
  tag: number;
  value: Buffer;
}

function encodeLength(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  if (n < 0x100) return Buffer.from([0x81, n]);
  return Buffer.from([0x82, n >> 8, n & 0xff]);
}

export function derElement(tag: number, value: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from([tag]), encodeLength(value.length), value]);
}

/** A minimal positive INTEGER from unsigned big-endian bytes. */
export function derUnsignedInteger(bytes: Uint8Array): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const body = Buffer.from(bytes.subarray(start));
  return derElement(DerTag.Integer, body[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), body]) : body);
}

export function derSequence(children: Buffer[]): Buffer {
  return derElement(DerTag.Sequence, Buffer.concat(children));
}

function readElement(data: Buffer, pos: number): Result<{ element: DerElement; end: number }> {
  const tag = data[pos];
  const first = data[pos + 1];
  if (tag === undefined || first === undefined) return err('DER truncated');
  let length = first;
  let start = pos + 2;
  if (first & 0x80) {
    const count = first & 0x7f;
    if (count === 0 || count > 2 || start + count > data.length) return err('DER length unsupported');
    length = 0;
    for (let i = 0; i < count; i++) length = (length << 8) | data[start + i]!;
    start += count;
  }
  if (start + length > data.length) return err('DER value truncated');
  return ok({ element: { tag, value: data.subarray(start, start + length) }, end: start + length });
}

/** The children of a top-level SEQUENCE. */
export function parseDerSequence(data: Buffer): Result<DerElement[]> {
  const outer = readElement(data, 0);
  if (!outer.ok) return outer;
  if (outer.value.element.tag !== DerTag.Sequence) return err('DER is not a SEQUENCE');
  const body = outer.value.element.value;
  const children: DerElement[] = [];
  let pos = 0;
  while (pos < body.length) {
    const child = readElement(body, pos);
    if (!child.ok) return child;
    children.push(child.value.element);
    pos = child.value.end;
  }
  return ok(children);
}

/** An unsigned INTEGER as exactly `size` big-endian bytes (left-padded, a sign byte dropped). */
export function integerBytes(element: DerElement, size: number): Result<Buffer> {
  if (element.tag !== DerTag.Integer) return err('expected a DER INTEGER');
  let v = element.value;
  while (v.length > size && v[0] === 0) v = v.subarray(1);
  if (v.length > size) return err('DER INTEGER too large');
  return ok(Buffer.concat([Buffer.alloc(size - v.length), v]));
}
