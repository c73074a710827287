/**
 * Synchronised lyrics (the ID3v2 `SYLT` frame) of an uploaded file, as LRC text. ffprobe reports the
 * unsynchronised `USLT` frame as a tag but skips `SYLT`, so this reads the ID3v2 tag at the start of
 * the file itself. Only frame headers and `SYLT` bodies are read, so a large cover costs nothing.
 *
 * Layout from the ID3v2.3.0 and ID3v2.4.0 specifications (id3.org, "id3v2.3.0" §3 and §4.10,
 * "id3v2.4.0-structure" §3–4): a 10-byte tag header (`ID3`, version, flags, syncsafe size), an optional
 * extended header, then frames of a 10-byte header (id, size — plain in 2.3, syncsafe in 2.4 — and two
 * flag bytes) and a body. A `SYLT` body: text encoding, language (3), time stamp format (2 = ms),
 * content type, a terminated descriptor, then entries of terminated text and a 32-bit time.
 *
 * Left out, as rare in music files: ID3v2.2 (three-letter frame ids), tags unsynchronised as a whole,
 * frames that are compressed, encrypted or unsynchronised, and times counted in MPEG frames.
 */
import { open } from 'node:fs/promises';
import { timeTag } from '../lrc';

const HEADER_BYTES = 10;
const UNSYNCHRONISED_TAG = 0x80;
const EXTENDED_HEADER = 0x40;
/** Time stamp format 2: absolute time in milliseconds. */
const MILLISECONDS = 2;
/** Content types 0 (other), 1 (lyrics) and 2 (text transcription) are words to show. */
const MAX_TEXT_CONTENT = 2;
/** A bound against a damaged size field: no real SYLT frame is near this. */
const MAX_FRAME_BYTES = 1024 * 1024;

const syncsafe = (b: Uint8Array, at: number) =>
  ((b[at]! & 0x7f) << 21) | ((b[at + 1]! & 0x7f) << 14) | ((b[at + 2]! & 0x7f) << 7) | (b[at + 3]! & 0x7f);
const plain = (b: Uint8Array, at: number) => new DataView(b.buffer, b.byteOffset).getUint32(at);

/** The LRC text of the file's first usable SYLT frame, or undefined when it has none. */
export async function readSyncedLyrics(path: string): Promise<string | undefined> {
  const file = await open(path, 'r');
  try {
    const read = async (position: number, length: number) => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await file.read(buffer, 0, length, position);
      return buffer.subarray(0, bytesRead);
    };
    const header = await read(0, HEADER_BYTES);
    if (header.length < HEADER_BYTES || header.toString('latin1', 0, 3) !== 'ID3') return undefined;
    const version = header[3]!;
    const flags = header[5]!;
    if ((version !== 3 && version !== 4) || flags & UNSYNCHRONISED_TAG) return undefined;
    const end = HEADER_BYTES + syncsafe(header, 6);
    let at = HEADER_BYTES;
    if (flags & EXTENDED_HEADER) {
      const size = await read(at, 4);
      if (size.length < 4) return undefined;
      // 2.3 counts the bytes after the size field; 2.4 counts the whole extended header.
      at += version === 3 ? 4 + plain(size, 0) : syncsafe(size, 0);
    }
    while (at + HEADER_BYTES <= end) {
      const frame = await read(at, HEADER_BYTES);
      if (frame.length < HEADER_BYTES || frame[0] === 0) return undefined; // padding: no more frames
      const size = version === 4 ? syncsafe(frame, 4) : plain(frame, 4);
      const id = frame.toString('latin1', 0, 4);
      // Format flags (compression, encryption, unsynchronisation…) change the body's layout: skip it.
      if (id === 'SYLT' && frame[9] === 0 && size <= MAX_FRAME_BYTES) {
        const lrc = syltToLrc(await read(at + HEADER_BYTES, size));
        if (lrc) return lrc;
      }
      at += HEADER_BYTES + size;
    }
    return undefined;
  } finally {
    await file.close();
  }
}

/** One SYLT body as LRC lines, or undefined when its times or content are not lyrics in ms. */
export function syltToLrc(body: Uint8Array): string | undefined {
  if (body.length < 6) return undefined;
  const encoding = body[0]!;
  if (encoding > 3 || body[4] !== MILLISECONDS || body[5]! > MAX_TEXT_CONTENT) return undefined;
  const descriptor = terminated(body, 6, encoding);
  const entries: { ms: number; text: string }[] = [];
  for (let at = descriptor.next; at < body.length; ) {
    const text = terminated(body, at, encoding);
    if (text.next + 4 > body.length) break;
    entries.push({ text: text.value, ms: plain(body, text.next) });
    at = text.next + 4;
  }
  return entriesToLrc(entries);
}

/**
 * The entries as LRC lines. In karaoke-style frames an entry is a syllable and a new line starts with
 * a newline character (ID3v2 §4.10): such syllables are joined into a line timed at its first one.
 * Where no entry starts with a newline, every entry is a line of its own.
 */
function entriesToLrc(entries: { ms: number; text: string }[]): string | undefined {
  const startsLine = (text: string) => /^[\r\n]/.test(text);
  const bySyllable = entries.some((e) => startsLine(e.text));
  const lines: { ms: number; text: string }[] = [];
  for (const entry of entries) {
    const last = lines.at(-1);
    if (bySyllable && last && !startsLine(entry.text)) last.text += entry.text;
    else lines.push({ ms: entry.ms, text: entry.text.replace(/^[\r\n]+/, '') });
  }
  const shown = lines.filter((line) => line.text.trim() !== '');
  return shown.length ? shown.map((line) => `${timeTag(line.ms)}${line.text.trim()}`).join('\n') : undefined;
}

/** A string in the frame's encoding, up to its terminator (one zero byte, or two for UTF-16). */
function terminated(body: Uint8Array, from: number, encoding: number): { value: string; next: number } {
  const wide = encoding === 1 || encoding === 2;
  let end = from;
  if (wide) {
    while (end + 1 < body.length && (body[end] !== 0 || body[end + 1] !== 0)) end += 2;
  } else {
    while (end < body.length && body[end] !== 0) end++;
  }
  const bytes = body.subarray(from, Math.min(end, body.length));
  const next = Math.min(end + (wide ? 2 : 1), body.length);
  return { value: decode(bytes, encoding), next };
}

function decode(bytes: Uint8Array, encoding: number): string {
  if (encoding === 0) return Buffer.from(bytes).toString('latin1');
  if (encoding === 3) return new TextDecoder('utf-8').decode(bytes);
  // UTF-16: a byte order mark when there is one; without one, encoding 2 is big-endian by definition.
  const bigEndian =
    bytes[0] === 0xfe && bytes[1] === 0xff
      ? true
      : bytes[0] === 0xff && bytes[1] === 0xfe
        ? false
        : encoding === 2;
  return new TextDecoder(bigEndian ? 'utf-16be' : 'utf-16le').decode(bytes);
}
