/**
 * Uploads cannot leave their folder and their content is judged by its bytes (issue #16):
 * - whatever path an `x-filename` spells (parent folders, absolute, Windows, encoded, reserved device
 *   names), the file lands as `<random id>.<whitelisted extension>` in DATA_DIR/uploads and nowhere
 *   else; a name with NUL or control characters is refused;
 * - a playlist sent as a song (HLS or ffconcat naming a file elsewhere on the server, or a URL) is
 *   refused, and nothing it names is read or fetched;
 * - HTML, SVG, script or an image sent with an audio name and type is refused; so is an avatar whose
 *   bytes are not PNG, JPEG or WebP whatever its data URL declares;
 * - what is served back (avatars, covers) carries `X-Content-Type-Options: nosniff`;
 * - no refused upload or avatar leaves a row or a file behind.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploads } from '../../shared/db/schema';
import { insertBot, type Session, setupAdmin } from '../../testkit/accounts';
import { startTestApp, TEST_ORIGIN, type TestApp } from '../../testkit/test-app';
import { plainWav, uploadRequest } from '../uploads/media-files';
import { type ChangeWatch, watchChanges } from './db-snapshot';
import { recordTally } from './tally';

const PNG_SIGNATURE = Buffer.from('89504e470d0a1a0a', 'hex');
const HTML = '<!doctype html><html><body><script>alert(document.cookie)</script></body></html>';
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>';

let t: TestApp;
let admin: Session;
let watch: ChangeWatch;
let outside: string;
let outsideAudio: string;
let wav: Buffer;
let hits = 0;
let bait: Server;
let baitUrl: string;
const tally = { requests: 0, badInputs: 0, dataChanged: 0 };

beforeAll(async () => {
  t = await startTestApp({ withDaemon: false });
  admin = await setupAdmin(t);
  watch = await watchChanges(t.config.databaseUrl, t.dataDir);
  outside = mkdtempSync(join(tmpdir(), 'tsmb-outside-'));
  wav = plainWav(outside, 0.5, 'outside.wav');
  outsideAudio = join(outside, 'outside.wav');
  bait = createServer((_req, res) => {
    hits++;
    res.end();
  });
  await new Promise<void>((resolve) => bait.listen(0, '127.0.0.1', resolve));
  baitUrl = `http://127.0.0.1:${(bait.address() as AddressInfo).port}/segment.wav`;
});
afterAll(async () => {
  recordTally('uploads and avatars', { ...tally, principals: 1 });
  watch.close();
  bait.close();
  rmSync(outside, { recursive: true, force: true });
  await t.close();
});

/** Sends an upload as the admin; a refused one must change nothing. */
async function upload(name: string, bytes: Uint8Array | string, contentType = 'audio/wav') {
  await watch.before();
  const request = uploadRequest({
    name,
    bytes: typeof bytes === 'string' ? Buffer.from(bytes) : bytes,
    contentType,
  });
  request.headers.set('cookie', admin.jar.header()!);
  const response = await t.app.fetch(request);
  const body = (await response.json()) as { song?: { id: string; name: string }; error?: string };
  tally.requests++;
  if (response.status >= 400) {
    tally.badInputs++;
    const changed = await watch.changes();
    tally.dataChanged += changed.length ? 1 : 0;
    expect({ name, changed }).toEqual({ name, changed: [] });
  } else if (body.song) await measured(body.song.id);
  return { status: response.status, body };
}

/**
 * An accepted upload is measured for loudness just after the answer and its row updated: waited for,
 * so the update does not land inside the next upload's "nothing changed" window.
 */
async function measured(id: string): Promise<void> {
  await expect
    .poll(async () => (await t.db.query.uploads.findFirst({ where: eq(uploads.id, id) }))?.loudnessSource, {
      timeout: 10_000,
    })
    .toBe('measured');
}

/** Every file under DATA_DIR but the database's own. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !e.name.startsWith('bot.db'))
    .map((e) => join(e.parentPath, e.name));
}

describe('an upload', () => {
  it.each([
    ['parent folders', '../../../../../tmp/escaped.wav'],
    ['encoded parent folders', '..%2F..%2F..%2Fescaped.wav'],
    ['an absolute path', '/etc/cron.d/escaped.wav'],
    ['a Windows path', 'C:%5CWindows%5CSystem32%5Cescaped.wav'],
    ['a reserved device name', 'CON.wav'],
    ['another reserved device name', 'NUL.wav'],
    ['a name with an RTL override', '%E2%80%AEvaw.exe.wav'],
  ])('with %s in its name lands in the uploads folder under a random id', async (_label, name) => {
    const before = filesUnder(t.dataDir);
    const { status, body } = await upload(name, wav);
    expect(status).toBe(200);
    const [row] = await t.db.select().from(uploads).where(eq(uploads.id, body.song!.id));
    expect(row!.storedName).toMatch(/^[0-9a-f-]{36}\.wav$/);
    expect(row!.originalName).not.toMatch(/[/\\]/);
    const added = filesUnder(t.dataDir).filter((f) => !before.includes(f));
    expect(added).toEqual([join(t.dataDir, 'uploads', row!.storedName)]);
    for (const escaped of ['/tmp/escaped.wav', '/etc/cron.d/escaped.wav', join(tmpdir(), 'escaped.wav')])
      expect(existsSync(escaped)).toBe(false);
  });

  it.each([
    ['NUL', 'song%00.wav'],
    ['a line break', 'song%0D%0A.wav'],
    ['nothing but parent folders', '%2E%2E'],
    ['no extension after the dot', 'song.wav.'],
    ['an extension that is not audio', 'song.wav.php'],
  ])('with %s in its name is refused', async (_label, name) => {
    const { status, body } = await upload(name, wav);
    expect(status).toBe(400);
    // A name that cannot be a file is a fault of the header; a file that is not audio is said in words.
    expect(body.error).toMatch(/^(x-filename: |The file must end in one of )/);
  });

  it('that is a playlist naming other files or URLs is refused, and nothing it names is read', async () => {
    const playlists: [string, string][] = [
      ['list.mp3', `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:1,\n${outsideAudio}\n#EXT-X-ENDLIST\n`],
      ['list.wav', `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:1,\nfile://${outsideAudio}\n#EXT-X-ENDLIST\n`],
      ['list.flac', `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:1,\n${baitUrl}\n#EXT-X-ENDLIST\n`],
      ['list.ogg', `ffconcat version 1.0\nfile ${outsideAudio}\n`],
      ['list.m4a', `ffconcat version 1.0\nfile ../../${outsideAudio.split('/').pop()}\n`],
    ];
    for (const [name, text] of playlists) {
      const { status, body } = await upload(name, text, 'audio/mpeg');
      expect({ name, status, error: body.error }).toEqual({
        name,
        status: 400,
        error: 'The file holds no audio that can be played.',
      });
    }
    expect(hits).toBe(0);
  });

  it('whose bytes are a page, a script or an image is refused whatever its name and type say', async () => {
    const impostors: [string, string | Uint8Array, string][] = [
      ['page.mp3', HTML, 'audio/mpeg'],
      ['drawing.ogg', SVG, 'audio/ogg'],
      ['script.m4a', 'fetch("/api/keys").then((r) => r.text()).then(alert)', 'audio/mp4'],
      [
        'image.flac',
        new Uint8Array(Buffer.concat([PNG_SIGNATURE, Buffer.from(HTML)])),
        'application/octet-stream',
      ],
    ];
    for (const [name, bytes, type] of impostors) {
      const { status } = await upload(name, bytes, type);
      expect({ name, status }).toEqual({ name, status: 400 });
    }
    for (const type of ['text/html', 'image/svg+xml', 'application/javascript', 'image/png']) {
      const { status } = await upload('song.wav', wav, type);
      expect({ type, status }).toEqual({ type, status: 415 });
    }
  });
});

describe('an avatar', () => {
  it('is judged by its bytes and served with nosniff; pages and drawings are refused', async () => {
    const botId = await insertBot(t);
    const put = async (dataUrl: string) => {
      await watch.before();
      const response = await admin.api.PUT('/api/bot/{id}/avatar', {
        params: { path: { id: botId } },
        body: { dataUrl },
      });
      tally.requests++;
      if (response.response.status >= 400) {
        tally.badInputs++;
        const changed = await watch.changes();
        tally.dataChanged += changed.length ? 1 : 0;
        expect(changed).toEqual([]);
      }
      return response.response.status;
    };
    const base64 = (text: string | Buffer) => Buffer.from(text).toString('base64');
    expect(await put(`data:image/png;base64,${base64(HTML)}`)).toBe(400);
    expect(await put(`data:image/svg+xml;base64,${base64(SVG)}`)).toBe(400);
    expect(await put(`data:text/html;base64,${base64(HTML)}`)).toBe(400);
    expect(await put(`data:image/png;base64,${base64(`GIF89a${HTML}`)}`)).toBe(400);

    // Bytes that begin as a PNG are stored as one, and served as an image only a browser will not sniff.
    expect(
      await put(`data:text/html;base64,${base64(Buffer.concat([PNG_SIGNATURE, Buffer.from(HTML)]))}`),
    ).toBe(200);
    const served = await t.fetch(new Request(`${TEST_ORIGIN}/api/bot/${botId}/avatar`), admin.jar);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('and an upload cover are not the only answers with nosniff: every answer has it', async () => {
    const id = randomUUID();
    await t.db.insert(uploads).values({
      id,
      originalName: 'x.mp3',
      storedName: `${id}.mp3`,
      sizeBytes: 1,
      coverType: 'image/png',
      coverData: PNG_SIGNATURE,
      createdAt: new Date(),
    });
    for (const path of [`/api/music/local/cover/${id}`, '/api/health', '/api/no-such-route', '/'])
      expect(
        (await t.fetch(new Request(`${TEST_ORIGIN}${path}`))).headers.get('x-content-type-options'),
      ).toBe('nosniff');
  });
});
