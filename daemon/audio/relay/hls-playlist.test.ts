import { describe, expect, it } from 'vitest';
import { type HlsAddressKind, regenerateHlsPlaylist, sniffManifest } from './hls-playlist';

const BASE = 'https://radio.example/live/index.m3u8';
const named: { url: string; kind: HlsAddressKind }[] = [];
const local = (url: string, name: string, kind: HlsAddressKind) => {
  named.push({ url, kind });
  return `/stream/key/${named.length - 1}/${encodeURIComponent(name)}`;
};
const regenerate = (lines: string[]) => {
  named.length = 0;
  return regenerateHlsPlaylist(lines.join('\n'), BASE, local);
};
/** Every address the written playlist names: lines that are not tags, and URI attributes. */
const addressesIn = (text: string) => [
  ...text.split('\n').filter((line) => line !== '' && !line.startsWith('#')),
  ...[...text.matchAll(/URI="([^"]*)"/g)].map((m) => m[1]),
];

describe('regenerateHlsPlaylist', () => {
  it('writes a media playlist anew, its segments by the relay’s addresses', () => {
    const written = regenerate([
      '#EXTM3U',
      '#EXT-X-VERSION:3',
      '#EXT-X-TARGETDURATION:6',
      '#EXT-X-MEDIA-SEQUENCE:42',
      '#EXTINF:6.000,Song title',
      'seg42.ts',
      '#EXTINF:6.0,',
      'https://cdn.example/seg43.aac?token=x',
      '#EXT-X-ENDLIST',
    ]);
    expect(written).toBe(
      [
        '#EXTM3U',
        '#EXT-X-VERSION:3',
        '#EXT-X-TARGETDURATION:6',
        '#EXT-X-MEDIA-SEQUENCE:42',
        '#EXTINF:6.000,',
        '/stream/key/0/seg42.ts',
        '#EXTINF:6.0,',
        '/stream/key/1/seg43.aac',
        '#EXT-X-ENDLIST',
        '',
      ].join('\n'),
    );
    expect(named).toEqual([
      { url: 'https://radio.example/live/seg42.ts', kind: 'media' },
      { url: 'https://cdn.example/seg43.aac?token=x', kind: 'media' },
    ]);
  });

  it('names a master playlist’s variants and audio renditions as playlists, keys and maps as media', () => {
    const written = regenerate([
      '#EXTM3U',
      '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",DEFAULT=YES,URI="audio/en.m3u8"',
      '#EXT-X-STREAM-INF:BANDWIDTH=128000,CODECS="mp4a.40.2",AUDIO="aac"',
      'hi/index.m3u8',
      '#EXT-X-KEY:METHOD=AES-128,URI="https://keys.example/k1",IV=0x0123456789abcdef0123456789abcdef',
      '#EXT-X-MAP:URI="init.mp4"',
    ]);
    expect(written).toContain(
      '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",DEFAULT=YES,URI="/stream/key/0/en.m3u8"',
    );
    expect(written).toContain('#EXT-X-STREAM-INF:BANDWIDTH=128000,AUDIO="aac"\n/stream/key/1/index.m3u8');
    expect(written).toContain(
      '#EXT-X-KEY:METHOD=AES-128,URI="/stream/key/2/k1",IV=0x0123456789abcdef0123456789abcdef',
    );
    expect(written).toContain('#EXT-X-MAP:URI="/stream/key/3/init.mp4"');
    expect(named.map((n) => n.kind)).toEqual(['playlist', 'playlist', 'media', 'media']);
  });

  it('names no outside address, however the original hides one', () => {
    const written = regenerate([
      '#EXTM3U',
      '#EXT-X-TARGETDURATION:2',
      // Unquoted, as ffmpeg also reads it.
      '#EXT-X-KEY:METHOD=AES-128,URI=http://169.254.169.254/key',
      // A lone CR ends a line for ffmpeg.
      '#EXTINF:2.0,\rhttp://10.0.0.1/cr.ts',
      // A NUL too.
      '#EXTINF:2.0,\0http://10.0.0.1/nul.ts',
      // Escaped quotes and a second URI.
      '#EXT-X-MAP:X=URI="a,URI="http://10.0.0.1/map.mp4"',
      // A tag kept only with a clean value; unknown tags dropped.
      '#EXT-X-MEDIA-SEQUENCE:1,http://10.0.0.1/x',
      '#EXT-X-SESSION-DATA:DATA-ID="x",URI="http://10.0.0.1/data"',
      '#EXTINF:2.0,',
      'file:///etc/passwd',
      '#EXTINF:2.0,',
      'seg.ts',
    ]);
    expect(written).toBeDefined();
    for (const address of addressesIn(written ?? ''))
      expect(address).toMatch(/^\/stream\/key\/\d+\/[\w.%-]*$/);
    expect(written).not.toMatch(/http|file:|10\.0\.0\.1|169\.254/);
  });

  it('is undefined for what is not a playlist', () => {
    expect(regenerate(['<html>', '#EXTM3U'])).toBeUndefined();
    expect(regenerate(['ID3#EXTM3U'])).toBeUndefined();
  });
});

describe('sniffManifest', () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  it('tells an HLS playlist and a DASH manifest by their first bytes', () => {
    expect(sniffManifest(bytes('#EXTM3U\n#EXT-X-VERSION:3\n'))).toBe('hls');
    expect(sniffManifest(bytes('\uFEFF  \n#EXTM3U\n'))).toBe('hls');
    expect(sniffManifest(bytes('<?xml version="1.0"?>\n<MPD xmlns="urn:mpeg:dash:schema:mpd:2011">'))).toBe(
      'dash',
    );
    expect(sniffManifest(bytes('<mpd type="static">'))).toBe('dash');
  });

  it('looks past ID3v2 tags, as ffmpeg does before it probes', () => {
    const tag = new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 5, 1, 2, 3, 4, 5]);
    expect(sniffManifest(new Uint8Array([...tag, ...bytes('#EXTM3U\n')]))).toBe('hls');
  });

  it('leaves audio alone', () => {
    expect(sniffManifest(new Uint8Array([0xff, 0xfb, 0x90, 0x64, 0, 0]))).toBeUndefined();
    expect(sniffManifest(bytes('OggS\0\x02'))).toBeUndefined();
    expect(sniffManifest(bytes('fLaC'))).toBeUndefined();
  });
});
