/**
 * Lyrics of uploads through the real app, ffmpeg and ffprobe: `GET /api/music/lyrics/{id}?platform=local`
 * answers the lyrics embedded in the file's tags — ffmpeg's own `lyrics` tag in every container it
 * writes (ID3 TXXX, Vorbis/FLAC comments, MP4 `©lyr`, Matroska), Vorbis `UNSYNCEDLYRICS`, and the ID3
 * USLT and SYLT frames real taggers write — or a `.lrc` uploaded for the song afterwards, else "".
 * A `.lrc` with no upload of its name, or one that is not text, changes nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploads } from '../../shared/db/schema';
import { LYRICS_FILE_MAX_BYTES } from '../../shared/sources/local/lyrics-upload';
import { type Session, setupAdmin } from '../../testkit/accounts';
import { startTestApp, type TestApp } from '../../testkit/test-app';
import {
  mp3WithId3Frames,
  plainWav,
  sendUpload,
  syltFrame,
  taggedAudio,
  type UploadCall,
  usltFrame,
} from './media-files';

let t: TestApp;
let admin: Session;
let media: string;

beforeAll(async () => {
  t = await startTestApp({ withDaemon: false });
  admin = await setupAdmin(t);
  media = mkdtempSync(join(tmpdir(), 'lyrics-media-'));
});
afterAll(async () => {
  await t.close();
  rmSync(media, { recursive: true, force: true });
});

const LRC = '[00:00.50]Harbour lights\n[00:01.25]海港的灯光';

const upload = (call: UploadCall) => sendUpload(t, call, admin.jar);
async function lyricsOf(id: string) {
  const { data, error, response } = await admin.api.GET('/api/music/lyrics/{id}', {
    params: { path: { id }, query: { platform: 'local' } },
  });
  return { status: response.status, ...(data ?? error) };
}
/** Uploads the file and answers its lyrics as the lyrics route gives them. */
async function uploadedLyrics(name: string, bytes: Buffer) {
  const res = await upload({ name, bytes });
  expect(res.status, res.error).toBe(200);
  return lyricsOf(res.song!.id);
}

describe('lyrics embedded in the tags', () => {
  it.each(['mp3', 'flac', 'ogg', 'opus', 'm4a', 'mka'])(
    'are read from ffmpeg’s lyrics tag in .%s',
    async (extension) => {
      const bytes = taggedAudio(media, extension, { lyrics: LRC });
      expect(await uploadedLyrics(`song.${extension}`, bytes)).toEqual({ status: 200, lyrics: LRC });
    },
  );

  it('are read from a Vorbis UNSYNCEDLYRICS comment', async () => {
    const bytes = taggedAudio(media, 'flac', { UNSYNCEDLYRICS: 'first line\nsecond line' });
    expect(await uploadedLyrics('plain.flac', bytes)).toEqual({
      status: 200,
      lyrics: 'first line\nsecond line',
    });
  });

  it('are read from an ID3 USLT frame', async () => {
    const bytes = mp3WithId3Frames(media, [usltFrame(LRC, 'zho')]);
    expect(await uploadedLyrics('uslt.mp3', bytes)).toEqual({ status: 200, lyrics: LRC });
  });

  it('are read from an ID3 SYLT frame as LRC, before a USLT frame beside it', async () => {
    const frames = [
      usltFrame('words without times'),
      syltFrame([
        ['Harbour lights', 500],
        ['海港的灯光', 1250],
        ['We sail home', 61_050],
      ]),
    ];
    expect(await uploadedLyrics('sylt.mp3', mp3WithId3Frames(media, frames))).toEqual({
      status: 200,
      lyrics: '[00:00.50]Harbour lights\n[00:01.25]海港的灯光\n[01:01.05]We sail home',
    });
  });

  it('join the syllables of a karaoke SYLT frame (ID3v2.4, UTF-16) into timed lines', async () => {
    const karaoke = syltFrame(
      [
        ['\nHar', 500],
        ['bour ', 800],
        ['lights', 1000],
        ['\n海港', 2000],
        ['的灯光', 2400],
      ],
      1,
    );
    expect(await uploadedLyrics('karaoke.mp3', mp3WithId3Frames(media, [karaoke], 4))).toEqual({
      status: 200,
      lyrics: '[00:00.50]Harbour lights\n[00:02.00]海港的灯光',
    });
  });

  it('are empty for a file without any', async () => {
    const res = await upload({ name: 'quiet.wav', bytes: plainWav(media), contentType: 'audio/wav' });
    expect(await lyricsOf(res.song!.id)).toEqual({ status: 200, lyrics: '' });
  });
});

describe('a .lrc uploaded beside the song', () => {
  const sendLrc = (name: string, text: string | Buffer, contentType = 'text/plain') =>
    upload({ name, bytes: typeof text === 'string' ? Buffer.from(text) : text, contentType });
  const storedLyrics = async (id: string) =>
    (await t.db.query.uploads.findFirst({ where: eq(uploads.id, id) }))?.lyrics;

  it('becomes the lyrics of the newest upload of the same name, replacing embedded ones', async () => {
    const older = await upload({ name: 'Evening.mp3', bytes: taggedAudio(media, 'mp3', { title: 'Old' }) });
    const newer = await upload({
      name: 'evening.flac',
      bytes: taggedAudio(media, 'flac', { title: 'Evening', lyrics: 'embedded words' }),
    });
    // Newer still, but named otherwise: `evening two` and `evening.x` are not `evening`.
    const others = [
      await upload({ name: 'evening two.flac', bytes: taggedAudio(media, 'flac', {}) }),
      await upload({ name: 'evening.x.mp3', bytes: taggedAudio(media, 'mp3', {}) }),
    ];
    // Case-free, with a UTF-8 byte order mark and Windows line ends.
    const res = await sendLrc('EVENING.lrc', `\ufeff${LRC.replace('\n', '\r\n')}\r\n`);
    expect(res.status).toBe(200);
    expect(res.song).toEqual(newer.song);
    expect(await lyricsOf(newer.song!.id)).toEqual({ status: 200, lyrics: LRC });
    for (const { song } of [older, ...others])
      expect(await lyricsOf(song!.id)).toEqual({ status: 200, lyrics: '' });
  });

  it('is read as GB 18030 when it is not UTF-8, and may be sent as application/octet-stream', async () => {
    const song = await upload({
      name: encodeURIComponent('晚风.wav'),
      bytes: plainWav(media),
      contentType: 'audio/wav',
    });
    // "[00:01.00]晚风" in GB 18030, as Chinese LRC files are often written.
    const gb = Buffer.concat([Buffer.from('[00:01.00]'), Buffer.from([0xcd, 0xed, 0xb7, 0xe7])]);
    const res = await sendLrc(encodeURIComponent('晚风.lrc'), gb, 'application/octet-stream');
    expect(res.status).toBe(200);
    expect(await lyricsOf(song.song!.id)).toEqual({ status: 200, lyrics: '[00:01.00]晚风' });
  });

  it('is refused with 404 when no upload has its name, and nothing changes', async () => {
    const before = await t.db.select({ id: uploads.id, lyrics: uploads.lyrics }).from(uploads);
    const res = await sendLrc('nobody.lrc', LRC);
    expect(res).toMatchObject({
      status: 404,
      error: expect.stringMatching(/no uploaded song is named nobody/),
    });
    expect(await t.db.select({ id: uploads.id, lyrics: uploads.lyrics }).from(uploads)).toEqual(before);
  });

  it('is refused when it is not text, empty, too large or sent as audio, and nothing changes', async () => {
    const song = await upload({ name: 'kept.wav', bytes: plainWav(media), contentType: 'audio/wav' });
    await sendLrc('kept.lrc', LRC);
    expect(await sendLrc('kept.lrc', Buffer.from([0x5b, 0x00, 0x01, 0x02]))).toMatchObject({
      status: 400,
      error: 'the .lrc file is not text',
    });
    expect(await sendLrc('kept.lrc', ' \n ')).toMatchObject({ status: 400, error: 'the .lrc file is empty' });
    const huge = Buffer.alloc(LYRICS_FILE_MAX_BYTES + 1, 0x61);
    expect(await sendLrc('kept.lrc', huge)).toMatchObject({
      status: 413,
      error: 'a .lrc file is at most 512 KB',
    });
    expect(await sendLrc('kept.lrc', LRC, 'audio/mpeg')).toMatchObject({ status: 415 });
    expect(await storedLyrics(song.song!.id)).toBe(LRC);
  });

  it('is refused with 403 while local audio is off', async () => {
    await admin.api.POST('/api/bot/settings', { body: { localAudioEnabled: false } });
    expect(await sendLrc('kept.lrc', 'other words')).toMatchObject({ status: 403 });
    await admin.api.POST('/api/bot/settings', { body: { localAudioEnabled: true } });
  });
});
