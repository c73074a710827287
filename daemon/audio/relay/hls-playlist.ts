/**
 * What the relay hands the decoder of a user's HLS stream: a playlist it has written itself.
 *
 * The decoder's HLS demuxer opens every address a playlist names, and the protocol whitelist cannot
 * stop that (it is by protocol, not by host: a playlist needs http). So the playlist is not edited
 * but written anew from what was understood of it: only the tags below, each with values checked
 * against a strict pattern, and every address replaced by a loopback one of the relay, which fetches
 * the outside address through the request-forgery guard. Whatever the original held (an unquoted
 * `URI=`, a line ended by a lone CR or a NUL, an escaped quote, a tag unknown here), no byte of it
 * reaches the decoder except through those patterns, so the playlist the decoder reads names the relay
 * and nothing else, however differently from ours its parser reads the original.
 *
 * The relay also knows each address's kind: a `playlist` (a master playlist's variant or rendition)
 * is written anew in turn; `media` (a segment, a key, an init section) is passed as it is, unless its
 * first bytes are a manifest (`sniffManifest`), which is refused.
 */

/** What an address named in a playlist is to the relay. */
export type HlsAddressKind = 'playlist' | 'media';

/** The loopback address of an outside one; `name` is its last path segment (a segment's extension). */
export type LocalAddress = (absoluteUrl: string, name: string, kind: HlsAddressKind) => string;

/** The bytes `sniffManifest` looks at past any ID3 tags. */
export const SNIFF_BYTES = 1024;

/** Values a tag may carry, by what they are; anything else is left out. */
const INTEGER = /^\d{1,19}$/;
const DURATION = /^\d{1,9}(\.\d{1,9})?$/;
const BYTE_RANGE = /^\d{1,19}(@\d{1,19})?$/;
const IV = /^0[xX][0-9a-fA-F]{1,32}$/;
/** A name (a rendition group, its language): plain characters, never a quote or a line end. */
const NAME = /^[\w .-]{1,64}$/;

/** The tags kept that carry no address, with the pattern of their value (`null`: none). */
const PLAIN_TAGS: Record<string, RegExp | null> = {
  '#EXT-X-VERSION': INTEGER,
  '#EXT-X-TARGETDURATION': INTEGER,
  '#EXT-X-MEDIA-SEQUENCE': INTEGER,
  '#EXT-X-DISCONTINUITY-SEQUENCE': INTEGER,
  '#EXT-X-PLAYLIST-TYPE': /^(VOD|EVENT)$/,
  '#EXT-X-BYTERANGE': BYTE_RANGE,
  '#EXT-X-ENDLIST': null,
  '#EXT-X-DISCONTINUITY': null,
};

/**
 * The playlist `text` (fetched from `baseUrl`) written anew, its addresses given by `local`; undefined
 * when it is not an HLS playlist.
 */
export function regenerateHlsPlaylist(
  text: string,
  baseUrl: string,
  local: LocalAddress,
): string | undefined {
  // Every line end a parser may know: CR LF, LF, a lone CR, and NUL (ffmpeg ends a line at each).
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r\n|[\r\n\0]/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (lines[0] !== '#EXTM3U') return undefined;
  const address = (reference: string, kind: HlsAddressKind): string | undefined => {
    try {
      const absolute = new URL(reference, baseUrl);
      if (absolute.protocol !== 'http:' && absolute.protocol !== 'https:') return undefined;
      return local(absolute.href, absolute.pathname.split('/').at(-1) || 'segment', kind);
    } catch {
      return undefined;
    }
  };
  const out = ['#EXTM3U'];
  // The kind of the next address line: a variant after #EXT-X-STREAM-INF, else a segment.
  let next: HlsAddressKind = 'media';
  for (const line of lines.slice(1)) {
    if (!line.startsWith('#')) {
      const local = address(line, next);
      if (local !== undefined) out.push(local);
      next = 'media';
      continue;
    }
    const colon = line.indexOf(':');
    const tag = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1);
    const written = writeTag(tag, value, address);
    if (written === undefined) continue;
    out.push(written);
    if (tag === '#EXT-X-STREAM-INF') next = 'playlist';
  }
  return `${out.join('\n')}\n`;
}

type Address = (reference: string, kind: HlsAddressKind) => string | undefined;

/** One tag as the decoder gets it, or undefined to leave it out. */
function writeTag(tag: string, value: string, address: Address): string | undefined {
  const plain = PLAIN_TAGS[tag];
  if (plain === null) return tag;
  if (plain !== undefined) return plain.test(value) ? `${tag}:${value}` : undefined;
  const attributes = attributeList(value);
  const attribute = (name: string, pattern: RegExp) => {
    const found = attributes.get(name);
    return found !== undefined && pattern.test(found) ? found : undefined;
  };
  const uri = (kind: HlsAddressKind) => {
    const found = attributes.get('URI');
    return found === undefined ? undefined : address(found, kind);
  };
  switch (tag) {
    case '#EXTINF': {
      const duration = value.split(',')[0] ?? '';
      return DURATION.test(duration) ? `#EXTINF:${duration},` : undefined;
    }
    case '#EXT-X-STREAM-INF': {
      // Always kept: it makes the next address a playlist (one without a bandwidth is still a variant).
      const bandwidth = attribute('BANDWIDTH', INTEGER) ?? '0';
      const audio = attribute('AUDIO', NAME);
      return `${tag}:BANDWIDTH=${bandwidth}${audio === undefined ? '' : `,AUDIO="${audio}"`}`;
    }
    case '#EXT-X-MEDIA': {
      // Audio renditions only: a bot plays nothing else.
      const group = attribute('GROUP-ID', NAME);
      const name = attribute('NAME', NAME) ?? 'audio';
      const local = uri('playlist');
      if (attributes.get('TYPE') !== 'AUDIO' || group === undefined) return undefined;
      const isDefault = attributes.get('DEFAULT') === 'YES' ? ',DEFAULT=YES' : '';
      return `${tag}:TYPE=AUDIO,GROUP-ID="${group}",NAME="${name}"${isDefault}${local ? `,URI="${local}"` : ''}`;
    }
    case '#EXT-X-KEY': {
      const method = attribute('METHOD', /^(NONE|AES-128|SAMPLE-AES)$/);
      if (method === 'NONE') return `${tag}:METHOD=NONE`;
      const local = uri('media');
      if (method === undefined || local === undefined) return undefined;
      const iv = attribute('IV', IV);
      return `${tag}:METHOD=${method},URI="${local}"${iv === undefined ? '' : `,IV=${iv}`}`;
    }
    case '#EXT-X-MAP': {
      const local = uri('media');
      if (local === undefined) return undefined;
      const range = attribute('BYTERANGE', BYTE_RANGE);
      return `${tag}:URI="${local}"${range === undefined ? '' : `,BYTERANGE="${range}"`}`;
    }
    default:
      return undefined;
  }
}

/** An attribute list (`NAME=value,NAME="quoted value"`) as read here; only what is kept matters. */
function attributeList(text: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const [, name, quoted, bare] of text.matchAll(/([A-Z0-9-]+)=(?:"([^"]*)"|([^,]*))/g))
    if (name !== undefined && !attributes.has(name)) attributes.set(name, quoted ?? bare ?? '');
  return attributes;
}

/**
 * Whether the first bytes of an answer are a manifest a demuxer would follow: an HLS playlist or a
 * DASH MPD, whatever the answer's declared type. Skips what a demuxer skips before it looks (a byte
 * order mark, ID3v2 tags, white space). `head` should hold `bytesToSniff(head)` bytes, or the whole
 * answer if shorter.
 */
export function sniffManifest(head: Uint8Array): 'hls' | 'dash' | undefined {
  const at = id3End(head);
  const text = new TextDecoder('latin1').decode(head.subarray(at, at + SNIFF_BYTES));
  const start = text.replace(/^(\xEF\xBB\xBF|\uFEFF)?\s*/, '');
  if (start.startsWith('#EXTM3U')) return 'hls';
  if (start.startsWith('<') && /<mpd/i.test(start)) return 'dash';
  return undefined;
}

/** How many bytes `sniffManifest` wants, as far as `head` tells (its ID3 tags, then SNIFF_BYTES). */
export function bytesToSniff(head: Uint8Array): number {
  return id3End(head) + SNIFF_BYTES;
}

/** Where the ID3v2 tags at the start end (ffmpeg reads past them before it probes the format). */
function id3End(head: Uint8Array): number {
  let at = 0;
  while (at + 10 <= head.length && head[at] === 0x49 && head[at + 1] === 0x44 && head[at + 2] === 0x33) {
    // A syncsafe size: four bytes of seven bits; a footer adds ten bytes more.
    const size = [6, 7, 8, 9].reduce((sum, i) => sum * 128 + ((head[at + i] ?? 0) & 0x7f), 0);
    at += 10 + size + (((head[at + 5] ?? 0) & 0x10) !== 0 ? 10 : 0);
  }
  return at;
}
