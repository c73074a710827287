/**
 * The albums the uploads' tags name (issue 38: "cover grids that show something offline too"), through
 * the real app with the real ffmpeg and ffprobe: GET /api/music/local/albums (newest first, each album
 * once with the embedded cover of one of its songs, untagged uploads in none), an album's songs by file
 * name, and the albums found by search.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Song } from '../../shared/domain/schemas';
import { type Session, setupAdmin } from '../../testkit/accounts';
import { startTestApp, type TestApp } from '../../testkit/test-app';
import { plainWav, sendUpload, taggedAudio, taggedMp3WithCover } from './media-files';

let t: TestApp;
let admin: Session;
let media: string;
const uploaded: Record<string, Song> = {};

async function upload(name: string, bytes: Buffer) {
  const answer = await sendUpload(t, { name, bytes }, admin.jar);
  expect(answer.status, answer.error).toBe(200);
  uploaded[name] = answer.song!;
}

beforeAll(async () => {
  t = await startTestApp({ withDaemon: false });
  admin = await setupAdmin(t);
  media = mkdtempSync(join(tmpdir(), 'uploaded-albums-'));
  // Uploaded out of track order: the album lists them by file name.
  await upload('02 Second.mp3', taggedMp3WithCover(media));
  await upload(
    '01 First.mp3',
    taggedAudio(media, 'mp3', { title: 'First', artist: 'The Testers', album: 'Fixtures' }),
  );
  await upload('untagged.wav', plainWav(media));
  await upload('single.mp3', taggedAudio(media, 'mp3', { title: 'Alone', artist: 'Solo', album: 'Singles' }));
}, 60_000);
afterAll(async () => {
  await t.close();
  rmSync(media, { recursive: true, force: true });
});

describe('GET /api/music/local/albums', () => {
  it('lists each tagged album once, the newest first, with a cover of one of its songs', async () => {
    const { data, response } = await admin.api.GET('/api/music/local/albums');
    expect(response.status).toBe(200);
    expect(data?.albums).toEqual([
      { id: 'Singles', name: 'Singles', artist: 'Solo', coverUrl: '', songCount: 1, platform: 'local' },
      {
        id: 'Fixtures',
        name: 'Fixtures',
        artist: 'The Testers',
        coverUrl: uploaded['02 Second.mp3']!.coverUrl,
        songCount: 2,
        platform: 'local',
      },
    ]);
    expect(uploaded['02 Second.mp3']!.coverUrl).toMatch(/^\/api\/music\/local\/cover\//);
  });

  it('takes a limit, and refuses a bad one with 400', async () => {
    const one = await admin.api.GET('/api/music/local/albums', { params: { query: { limit: 1 } } });
    expect(one.data?.albums.map((album) => album.id)).toEqual(['Singles']);
    const bad = await admin.api.GET('/api/music/local/albums', { params: { query: { limit: 0 } } });
    expect(bad.response.status).toBe(400);
  });

  it('is for signed-in people only', async () => {
    const anonymous = await t.browser().api.GET('/api/music/local/albums');
    expect(anonymous.response.status).toBe(401);
  });
});

describe("an uploaded album's songs", () => {
  it('are listed by file name, and an album no upload names is a 404', async () => {
    const album = await admin.api.GET('/api/music/album/{id}', {
      params: { path: { id: 'Fixtures' }, query: { platform: 'local' } },
    });
    expect(album.data?.songs.map((song) => song.name)).toEqual(['First', 'Tëst Sóng']);
    const missing = await admin.api.GET('/api/music/album/{id}', {
      params: { path: { id: 'No Such Album' }, query: { platform: 'local' } },
    });
    expect(missing.response.status).toBe(404);
  });

  it('are found by a search for the album or its artist', async () => {
    const found = await admin.api.GET('/api/music/search', {
      params: { query: { q: 'testers', platform: 'local' } },
    });
    expect(found.data?.albums.map((album) => album.id)).toEqual(['Fixtures']);
  });
});
