/**
 * POST /api/music/local/upload through the real app with the real ffmpeg and ffprobe: tags and cover,
 * non-audio refused, a video keeps its audio, names that try to leave the folder, the size limit, the
 * disk quota (a saved queue's upload kept; the quota used, read back) and the local-audio switch.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueSnapshots, savedQueues, uploads } from '../../shared/db/schema';
import type { Song } from '../../shared/domain/schemas';
import { UPLOADS_DIR } from '../../shared/sources/local/local-source';
import { createMember, insertBot, type Session, setupAdmin } from '../../testkit/accounts';
import { startTestApp, TEST_ORIGIN, type TestApp } from '../../testkit/test-app';
import {
  filesIn,
  plainWav,
  sendUpload,
  silentVideo,
  streamTypes,
  taggedMp3WithCover,
  type UploadCall,
  uploadRequest,
  videoWithPcmSound,
  videoWithSound,
} from './media-files';

let t: TestApp;
let admin: Session;
let media: string;
let uploadsDir: string;

beforeAll(async () => {
  t = await startTestApp({ withDaemon: false });
  admin = await setupAdmin(t);
  media = mkdtempSync(join(tmpdir(), 'upload-media-'));
  uploadsDir = join(t.dataDir, UPLOADS_DIR);
});
afterAll(async () => {
  await t.close();
  rmSync(media, { recursive: true, force: true });
});

const upload = (call: UploadCall, session: Session = admin) => sendUpload(t, call, session.jar);

const storedFileOf = async (id: string) => {
  const row = await t.db.query.uploads.findFirst({ where: eq(uploads.id, id) });
  return row && { row, path: join(uploadsDir, row.storedName) };
};
/** An upload without the x-filename header. */
const uploadWithoutName = (contentType: string) =>
  t.fetch(
    new Request(`${TEST_ORIGIN}/api/music/local/upload`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: new Uint8Array([1, 2, 3]),
    }),
    admin.jar,
  );

/** Nothing half-written is left: no temporary file, no extracted cover. */
const leftovers = () => filesIn(uploadsDir).filter((f) => f.startsWith('.'));

describe('a tagged MP3 with a cover', () => {
  it('is stored under a random id and answered as a local song with its tags', async () => {
    const bytes = taggedMp3WithCover(media);
    const res = await upload({ name: 'whatever%20name.mp3', bytes });
    expect(res.status).toBe(200);
    const song = res.song!;
    expect(song).toMatchObject({
      name: 'Tëst Sóng',
      artist: 'The Testers',
      album: 'Fixtures',
      platform: 'local',
      coverUrl: `/api/music/local/cover/${song.id}`,
    });
    expect(song.duration).toBe(2);
    const stored = await storedFileOf(song.id);
    expect(stored?.row.storedName).toBe(`${song.id}.mp3`);
    expect(stored?.row.originalName).toBe('whatever name.mp3');
    expect(readFileSync(stored!.path).equals(bytes)).toBe(true);
    expect(leftovers()).toEqual([]);
  });

  it('serves the embedded cover to anyone, as a JPEG', async () => {
    const res = await upload({ name: 'cover-test.mp3', bytes: taggedMp3WithCover(media) });
    const cover = await t.fetch(new Request(`${TEST_ORIGIN}${res.song!.coverUrl}`));
    expect(cover.status).toBe(200);
    expect(cover.headers.get('content-type')).toBe('image/jpeg');
    const picture = Buffer.from(await cover.arrayBuffer());
    expect([...picture.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  });

  it('is found by the local catalog with the same fields', async () => {
    const res = await upload({ name: 'catalog.mp3', bytes: taggedMp3WithCover(media) });
    const { data, response } = await admin.api.GET('/api/music/song/{id}', {
      params: { path: { id: res.song!.id }, query: { platform: 'local' } },
    });
    expect(response.status).toBe(200);
    expect(data).toEqual(res.song);
  });
});

describe('untagged files', () => {
  it('take their title from the (percent-encoded UTF-8) file name and have no cover', async () => {
    const res = await upload({
      name: encodeURIComponent('晴れの日.wav'),
      bytes: plainWav(media),
      contentType: 'audio/wav',
    });
    expect(res.status).toBe(200);
    expect(res.song).toMatchObject({ name: '晴れの日', artist: '', album: '', coverUrl: '', duration: 1 });
    const cover = await t.fetch(new Request(`${TEST_ORIGIN}/api/music/local/cover/${res.song!.id}`));
    expect(cover.status).toBe(404);
  });

  it('accept application/octet-stream and any audio/* or video/* type', async () => {
    for (const contentType of ['application/octet-stream', 'audio/x-anything', 'video/webm; codecs=opus']) {
      const res = await upload({ name: 'typed.wav', bytes: plainWav(media), contentType });
      expect({ contentType, status: res.status }).toEqual({ contentType, status: 200 });
    }
  });
});

describe('files that are not audio', () => {
  it.each([
    ['an executable renamed to .mp3', 'app.mp3', () => readFileSync(process.execPath).subarray(0, 2_000_000)],
    [
      'a text file renamed to .flac',
      'words.flac',
      () => Buffer.from('just some words, not a song\n'.repeat(500)),
    ],
    [
      'noise renamed to .ogg',
      'noise.ogg',
      () => Buffer.from(Array.from({ length: 100_000 }, (_, i) => (i * 7919) % 251)),
    ],
    ['a video without a sound track', 'silent.mp4', () => silentVideo(media)],
  ])('%s is refused with 400 and leaves nothing behind', async (_label, name, make) => {
    const before = filesIn(uploadsDir);
    const res = await upload({ name, bytes: make() });
    expect(res.status).toBe(400);
    expect(res.error).toMatch(/no audio/);
    expect(filesIn(uploadsDir)).toEqual(before);
  });
});

describe('a video', () => {
  it('keeps only its audio track', async () => {
    const bytes = videoWithSound(media);
    expect(streamTypes(join(media, 'video.mp4')).sort()).toEqual(['audio', 'video']);
    const res = await upload({ name: 'clip.mp4', bytes, contentType: 'video/mp4' });
    expect(res.status).toBe(200);
    expect(res.song).toMatchObject({ name: 'clip', platform: 'local', duration: 2 });
    const stored = await storedFileOf(res.song!.id);
    expect(streamTypes(stored!.path)).toEqual(['audio']);
    expect(stored!.row.sizeBytes).toBeLessThan(bytes.length);
    expect(leftovers()).toEqual([]);
  });
});

describe('a video whose sound cannot be copied into its container', () => {
  it('has its audio re-encoded to Opus', async () => {
    const res = await upload({ name: 'clip.mp4', bytes: videoWithPcmSound(media), contentType: 'video/mp4' });
    expect(res.status).toBe(200);
    const stored = await storedFileOf(res.song!.id);
    expect(stored!.row.storedName).toBe(`${res.song!.id}.opus`);
    expect(streamTypes(stored!.path)).toEqual(['audio']);
    expect(leftovers()).toEqual([]);
    expect(filesIn(uploadsDir).filter((f) => f.startsWith(res.song!.id))).toEqual([`${res.song!.id}.opus`]);
  });
});

describe('file names', () => {
  it.each([
    ['../../escape.mp3', 'escape.mp3'],
    ['..%2F..%2Fescape.mp3', 'escape.mp3'],
    ['..\\..\\windows.mp3', 'windows.mp3'],
    ['%2Fetc%2Fpasswd.mp3', 'passwd.mp3'],
    ['C:%5Cmusic%5Csong.MP3', 'song.MP3'],
  ])('%s is stored inside the uploads folder as %s', async (header, originalName) => {
    const res = await upload({ name: header, bytes: taggedMp3WithCover(media) });
    expect(res.status).toBe(200);
    const stored = await storedFileOf(res.song!.id);
    expect(stored?.row.originalName).toBe(originalName);
    expect(stored?.row.storedName).toBe(`${res.song!.id}.mp3`);
    expect(filesIn(t.dataDir).filter((f) => !f.startsWith('bot.db'))).toEqual([UPLOADS_DIR]);
  });

  it.each([
    ['a NUL byte', 'evil%00.mp3', /control characters/],
    ['a NUL byte before the extension', 'evil.mp3%00.exe', /control characters/],
    ['a malformed percent-encoding', 'bad%E0%A4%A.mp3', /percent-encoded/],
    ['a lone percent sign', '100%.mp3', /percent-encoded/],
    ['an extension off the whitelist', 'tool.exe', /must end in one of/],
    ['no extension', 'README', /must end in one of/],
    ['only a folder', '..%2F', /empty/],
  ])('with %s is refused with 400', async (_label, header, message) => {
    const before = filesIn(uploadsDir);
    const res = await upload({ name: header, bytes: taggedMp3WithCover(media) });
    expect(res.status).toBe(400);
    expect(res.error).toMatch(message);
    expect(filesIn(uploadsDir)).toEqual(before);
  });

  it('a missing x-filename header is a 400', async () => {
    const response = await uploadWithoutName('audio/mpeg');
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/x-filename/);
  });
});

describe('content types', () => {
  it.each(['text/plain', 'application/json', 'image/png', 'multipart/form-data; boundary=x'])(
    '%s is refused with 415',
    async (contentType) => {
      const res = await upload({ name: 'song.mp3', bytes: taggedMp3WithCover(media), contentType });
      expect(res.status).toBe(415);
      expect(res.error).toMatch(/content type/);
    },
  );
});

describe('size limit', () => {
  it('a body announced larger than 500 MB is refused with 413 before it is read', async () => {
    const base = await t.listen();
    const cookie = admin.jar.header()!;
    const status = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${base}/api/music/local/upload`, {
        method: 'POST',
        headers: {
          cookie,
          origin: base,
          'content-type': 'audio/mpeg',
          'x-filename': 'huge.mp3',
          'content-length': String(500 * 1024 * 1024 + 1),
        },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body });
          req.destroy();
        });
      });
      req.on('error', reject);
      req.write(Buffer.alloc(64 * 1024));
    });
    expect(status.status).toBe(413);
    expect(JSON.parse(status.body)).toMatchObject({ error: 'The file is larger than 500 MB.' });
    expect(leftovers()).toEqual([]);
  });
});

describe('permissions and the local-audio switch', () => {
  it('a member without player.queue is refused', async () => {
    const member = await createMember(t, admin, { capabilities: ['player.control'], bots: 'all' });
    const res = await upload({ name: 'song.mp3', bytes: taggedMp3WithCover(media) }, member);
    expect(res.status).toBe(403);
  });

  it('answers 403 while localAudioEnabled is off, and works again once it is on', async () => {
    const off = await admin.api.POST('/api/bot/settings', { body: { localAudioEnabled: false } });
    expect(off.response.status).toBe(200);
    const before = filesIn(uploadsDir);
    const refused = await upload({ name: 'song.mp3', bytes: taggedMp3WithCover(media) });
    expect(refused).toMatchObject({ status: 403, error: 'local audio is disabled' });
    // The switch is checked first: a request that is wrong besides (no x-filename) is still a 403.
    const nameless = await uploadWithoutName('text/html');
    expect([nameless.status, await nameless.json()]).toEqual([
      403,
      expect.objectContaining({ error: 'local audio is disabled' }),
    ]);
    expect(filesIn(uploadsDir)).toEqual(before);
    await admin.api.POST('/api/bot/settings', { body: { localAudioEnabled: true } });
    expect((await upload({ name: 'song.mp3', bytes: taggedMp3WithCover(media) })).status).toBe(200);
  });
});

describe('disk quota (UPLOAD_QUOTA_MB=1)', () => {
  let q: TestApp;
  let qAdmin: Session;
  let botId: string;
  const KB = 1024;

  beforeAll(async () => {
    q = await startTestApp({ withDaemon: false, env: { UPLOAD_QUOTA_MB: '1' } });
    qAdmin = await setupAdmin(q);
    botId = await insertBot(q);
  });
  afterAll(() => q.close());

  /** An upload row with a file of `sizeBytes` on disk, `ageMinutes` old. */
  async function existingUpload(sizeBytes: number, ageMinutes: number): Promise<string> {
    const id = randomUUID();
    const dir = join(q.dataDir, UPLOADS_DIR);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${id}.mp3`), Buffer.alloc(sizeBytes));
    await q.db.insert(uploads).values({
      id,
      originalName: `${id}.mp3`,
      storedName: `${id}.mp3`,
      sizeBytes,
      createdAt: new Date(Date.now() - ageMinutes * 60_000),
    });
    return id;
  }
  const exists = async (id: string) =>
    (await q.db.query.uploads.findFirst({ where: eq(uploads.id, id) })) !== undefined &&
    filesIn(join(q.dataDir, UPLOADS_DIR)).some((f) => f.startsWith(id));
  const send = async (bytes: Buffer) => {
    const response = await q.fetch(
      uploadRequest({ name: 'new.wav', bytes, contentType: 'audio/wav' }),
      qAdmin.jar,
    );
    return (await response.json()) as { song: Song };
  };

  let queued: string;

  it('evicts the oldest upload no queue holds, and only as many as needed', async () => {
    queued = await existingUpload(400 * KB, 30);
    const oldest = await existingUpload(400 * KB, 20);
    const newer = await existingUpload(400 * KB, 10);
    await q.db.insert(queueSnapshots).values({
      botId,
      songs: JSON.stringify([
        { id: queued, name: 'q', artist: '', album: '', duration: 1, coverUrl: '', platform: 'local' },
      ]),
      currentIndex: 0,
      updatedAt: new Date(),
    });
    const { song } = await send(plainWav(media, 1));
    expect(await exists(queued)).toBe(true);
    expect(await exists(oldest)).toBe(false);
    expect(await exists(newer)).toBe(true);
    expect(await exists(song.id)).toBe(true);
  });

  it('never evicts the file just uploaded, even when it alone is over the quota', async () => {
    const { song } = await send(plainWav(media, 14, 'long.wav'));
    const rows = await q.db.select({ id: uploads.id, sizeBytes: uploads.sizeBytes }).from(uploads);
    expect(rows.find((r) => r.id === song.id)?.sizeBytes).toBeGreaterThan(1024 * KB);
    // Everything else that no queue holds made room; the queued one stays.
    expect(rows.map((r) => r.id).sort()).toEqual([song.id, queued].sort());
    expect(await exists(song.id)).toBe(true);
  });

  it('keeps an upload a saved queue lists when the quota makes room', async () => {
    await q.db.delete(uploads);
    const saved = await existingUpload(700 * KB, 30);
    const free = await existingUpload(300 * KB, 20);
    const now = new Date();
    await q.db.insert(savedQueues).values({
      id: randomUUID(),
      ownerId: 'someone',
      name: 'Later',
      songs: JSON.stringify([
        { id: saved, name: 's', artist: '', album: '', duration: 1, coverUrl: '', platform: 'local' },
      ]),
      songCount: 1,
      createdAt: now,
      updatedAt: now,
    });
    const { song } = await send(plainWav(media, 1));
    expect(await exists(saved)).toBe(true);
    expect(await exists(free)).toBe(false);
    expect(await exists(song.id)).toBe(true);
  });

  it('answers the bytes used against the quota and whether played files are kept', async () => {
    const usage = async (session = qAdmin) => {
      const res = await session.api.GET('/api/music/local/usage');
      expect(res.response.status).toBe(200);
      return res.data!;
    };
    const rows = await q.db.select({ sizeBytes: uploads.sizeBytes }).from(uploads);
    const used = rows.reduce((total, row) => total + row.sizeBytes, 0);
    expect(used).toBeGreaterThan(700 * KB);
    expect(await usage()).toEqual({ usedBytes: used, quotaBytes: 1024 * KB, keepUploads: false });

    await qAdmin.api.POST('/api/bot/settings', { body: { keepUploads: true } });
    // Anyone signed in may read it: the upload page says it to whoever sees the list.
    const member = await createMember(q, qAdmin);
    expect(await usage(member)).toMatchObject({ usedBytes: used, keepUploads: true });
    expect((await q.anonymous().GET('/api/music/local/usage')).response.status).toBe(401);
  });
});
