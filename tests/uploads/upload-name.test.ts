/** The `x-filename` header: decoding, the extension whitelist and names that try to leave the folder. */
import { describe, expect, it } from 'vitest';
import { renderPhrase } from '../../shared/i18n/phrases';
import { parseUploadName, storedUploadName, UPLOAD_EXTENSIONS } from '../../shared/sources/local/upload-name';

describe('parseUploadName', () => {
  it.each([
    ['song.mp3', 'song.mp3', 'mp3'],
    ['Song.FLAC', 'Song.FLAC', 'flac'],
    ['%E6%AD%8C%20one.opus', '歌 one.opus', 'opus'],
    ['a.b.c.m4a', 'a.b.c.m4a', 'm4a'],
    ['../../x.mp3', 'x.mp3', 'mp3'],
    ['..\\..\\x.wav', 'x.wav', 'wav'],
    ['%2E%2E%2F%2E%2E%2Fx.mkv', 'x.mkv', 'mkv'],
    ['  spaced.ogg  ', 'spaced.ogg', 'ogg'],
    // Lyrics for an upload of the same name (lyrics-upload.ts).
    ['Song.LRC', 'Song.LRC', 'lrc'],
  ])('%s → %s', (header, originalName, extension) => {
    expect(parseUploadName(header)).toEqual({ ok: true, value: { originalName, extension } });
  });

  it.each([
    ['x%00.mp3', /control characters/],
    ['x%0A.mp3', /control characters/],
    ['x%7F.mp3', /control characters/],
    ['%E0%A4%A.mp3', /percent-encoded/],
    ['%FF.mp3', /percent-encoded/],
    ['.mp3', /must end in one of/],
    ['song.mp3.exe', /must end in one of/],
    ['song', /must end in one of/],
    ['dir/', /empty/],
    ['..', /empty/],
    [`${'a'.repeat(300)}.mp3`, /at most 255/],
  ])('%s is refused', (header, message) => {
    const parsed = parseUploadName(header);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(renderPhrase(parsed.error, 'en')).toMatch(message);
  });
});

describe('storedUploadName', () => {
  it('is a fresh random id plus the whitelisted extension, nothing from the client', () => {
    const first = storedUploadName('mp3');
    const second = storedUploadName('mp3');
    expect(first.storedName).toMatch(/^[0-9a-f-]{36}\.mp3$/);
    expect(first.storedName).toBe(`${first.id}.mp3`);
    expect(second.id).not.toBe(first.id);
    for (const extension of UPLOAD_EXTENSIONS)
      expect(storedUploadName(extension).storedName).toMatch(/^[\w-]+\.\w+$/);
  });
});
