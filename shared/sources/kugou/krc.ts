/**
 * Kugou's KRC lyrics as plain LRC. A KRC file is the text `krc1` followed by the zlib-deflated lyrics,
 * XOR-ed with a fixed 16-byte key; the lyric service sends it base64-encoded. The lyrics are
 * word-timed: `[start,duration]<offset,duration,0>word<offset,duration,0>word…` (milliseconds), with
 * `[ti:…]`-style tags and a `[language:…]` tag holding the translations as base64 JSON
 * (`content[]` of `{type, lyricContent}`, type 1 = translation, one array of words per timed line).
 * Each timed line becomes `[mm:ss.xx]words`, followed by its translation (lrc.ts `mergeLyrics`).
 *
 * The key and the steps (skip the 4-byte header, XOR, inflate) are the ones the public clients publish:
 * MakcRe/KuGouMusicApi (util/util.js `decodeLyrics`); the `[language:]` layout from
 * MoeKoeMusic/MoeKoeMusic (src/components/player/LyricsHandler.js).
 */
import { inflateSync } from 'node:zlib';
import { z } from 'zod';
import { mergeLyrics, timeTag } from '../lrc';

export const KRC_KEY = Buffer.from([64, 71, 97, 119, 94, 50, 116, 71, 81, 54, 49, 45, 206, 210, 110, 105]);
export const KRC_HEADER = 'krc1';
/** The `[language:]` section holding translations. */
const TRANSLATION = 1;
/** Tags worth keeping in the LRC: title, artist, album, author. */
const KEPT_TAG = /^\[(?:ti|ar|al|by):.*\]$/;
const TIMED_LINE = /^\[(\d+),\d+\](.*)$/;
const WORD_TIMING = /<\d+,\d+,\d+>/g;
const LANGUAGE_TAG = /^\[language:([^\]]*)\]$/;

const LanguageSchema = z.object({
  content: z
    .array(z.object({ type: z.number(), lyricContent: z.array(z.array(z.string())).default([]) }))
    .default([]),
});

/** XOR-ing is its own inverse: the same step encrypts and decrypts. */
export function xorKrc(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.map((byte, i) => byte ^ KRC_KEY[i % KRC_KEY.length]!));
}

/** The KRC text inside a base64 KRC file; undefined when it is not one (wrong header, bad data). */
export function decryptKrc(base64: string): string | undefined {
  const file = Buffer.from(base64, 'base64');
  if (file.subarray(0, KRC_HEADER.length).toString('latin1') !== KRC_HEADER) return undefined;
  try {
    return inflateSync(xorKrc(file.subarray(KRC_HEADER.length))).toString('utf8');
  } catch {
    return undefined;
  }
}

/** KRC text as LRC; undefined when it has no timed lines. */
export function krcToLrc(krc: string): string | undefined {
  const lines = krc.split(/\r?\n/).map((line) => line.trim());
  const tags = lines.filter((line) => KEPT_TAG.test(line));
  const timed = lines.flatMap((line) => {
    const match = TIMED_LINE.exec(line);
    return match ? [{ tag: timeTag(Number(match[1])), text: match[2]!.replace(WORD_TIMING, '') }] : [];
  });
  if (timed.length === 0) return undefined;
  const translations = translationsOf(lines);
  const original = [...tags, ...timed.map((line) => `${line.tag}${line.text}`)].join('\n');
  const translation = timed
    .flatMap((line, i) => (translations[i] ? [`${line.tag}${translations[i]}`] : []))
    .join('\n');
  return mergeLyrics(original, translation);
}

/** The translation of each timed line, in order, from the `[language:]` tag; empty without one. */
function translationsOf(lines: string[]): string[] {
  const encoded = lines.map((line) => LANGUAGE_TAG.exec(line)?.[1]).find(Boolean);
  if (!encoded) return [];
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8'));
  } catch {
    return [];
  }
  const language = LanguageSchema.safeParse(json);
  const section = language.success
    ? language.data.content.find((part) => part.type === TRANSLATION)
    : undefined;
  return section ? section.lyricContent.map((words) => words.join('').trim()) : [];
}
