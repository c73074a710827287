/**
 * `make backup` under load and `make restore` (issue 41): the real service (main.ts) with a bot playing
 * an upload to the TS3 test server, while a client adds favorites, uploads, saved queues and queue
 * entries as fast as the service answers. The backup runs in the middle of it. Restoring into the live
 * DATA_DIR is refused while the service runs, and once it is stopped moves the data it replaces aside;
 * restored into a fresh DATA_DIR and started there, the
 * service has every record acknowledged before the backup began, none sent after it ended, every
 * upload's file byte for byte as it was uploaded, the bot's avatar, and the bot plays a restored upload.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createClient } from '@libsql/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../../openapi/client';
import type { Song } from '../../shared/domain/schemas';
import { PASSWORD } from '../../testkit/accounts';
import { renderAudio } from '../../testkit/audio-signals';
import { CookieJar, sendingCookies } from '../../testkit/cookie-jar';
import { type RunningService, runService, serviceClient } from '../../testkit/run-service';
import { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';
import { PNG_1X1 } from '../helpers/png';

const ROOT = join(import.meta.dirname, '..', '..');
const MAIN = ['node', '--import', 'tsx', 'main.ts'];
const NICKNAME = 'Backed Up';

/** `make <target>` with these variables, as an operator types it; its exit code and output. */
function make(target: string, env: Record<string, string>, variables: string[]) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn('make', ['-s', target, ...variables], { cwd: ROOT, env: { ...process.env, ...env } });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

/** A signed-in client of a running service: the typed one, and raw fetch with the same cookie. */
async function signedIn(service: RunningService, setup: boolean) {
  const jar = new CookieJar();
  const api = serviceClient(service, { jar });
  const body = { username: 'admin', password: PASSWORD };
  const signed = setup
    ? await api.POST('/api/session/setup', { body })
    : await api.POST('/api/session/login', { body });
  expect(signed.response.ok).toBe(true);
  return { api, fetch: sendingCookies(jar, fetch) };
}

async function upload(service: RunningService, send: Send, name: string, bytes: Buffer): Promise<Song> {
  const answer = await send(
    new Request(`${service.baseUrl}/api/music/local/upload`, {
      method: 'POST',
      headers: { 'content-type': 'audio/wav', 'x-filename': name },
      body: new Uint8Array(bytes),
    }),
  );
  if (!answer.ok) throw new Error(`upload ${name}: ${answer.status} ${await answer.text()}`);
  return ((await answer.json()) as { song: Song }).song;
}

/** A request sent with the client's session cookie. */
type Send = (request: Request) => Promise<Response>;

/** What the load wrote, each with when it was sent and when the service acknowledged it. */
interface Written {
  kind: 'favorite' | 'upload' | 'savedQueue';
  key: string;
  sentAt: number;
  ackedAt: number;
}

/**
 * Writes until stopped, one request at a time: a favorite each round, an upload every third, a saved
 * queue every fifth, a queue entry every seventh (live state, not a record: load on the daemon).
 */
function writeLoad(
  api: ApiClient,
  service: RunningService,
  send: Send,
  { botId, song, wavs }: { botId: string; song: Song; wavs: Buffer[] },
) {
  const written: Written[] = [];
  const uploaded = new Map<string, Buffer>();
  const failures: string[] = [];
  let running = true;
  const loop = (async () => {
    for (let n = 0; running; n++) {
      const sentAt = performance.now();
      try {
        let key: string | undefined;
        let kind: Written['kind'] = 'favorite';
        if (n % 3 === 1) {
          const bytes = wavs[n % wavs.length]!;
          const song = await upload(service, send, `load-${n}.wav`, bytes);
          uploaded.set(song.id, bytes);
          [kind, key] = ['upload', song.id];
        } else if (n % 5 === 2) {
          const saved = await api.POST('/api/saved-queues', { body: { botId, name: `Saved ${n}` } });
          if (!saved.response.ok) throw new Error(`saved queue: ${saved.response.status}`);
          [kind, key] = ['savedQueue', `Saved ${n}`];
        } else if (n % 7 === 3) {
          const queued = await api.POST('/api/player/{botId}/add-song', {
            params: { path: { botId } },
            body: { song },
          });
          if (!queued.response.ok) throw new Error(`queue entry: ${queued.response.status}`);
        } else {
          const added = await api.POST('/api/favorites', {
            body: { platform: 'music_a', playlistId: `${1000 + n}`, name: `Favorite ${n}` },
          });
          if (!added.response.ok) throw new Error(`favorite: ${added.response.status}`);
          key = `${1000 + n}`;
        }
        if (key) written.push({ kind, key, sentAt, ackedAt: performance.now() });
      } catch (error) {
        failures.push((error as Error).message);
      }
    }
  })();
  return {
    written,
    uploaded,
    failures,
    async stop() {
      running = false;
      await loop;
    },
  };
}

describe('make backup while the service plays and writes, make restore into a fresh DATA_DIR', () => {
  let voice: Ts3TestServer;
  let service: RunningService | undefined;
  const folders: string[] = [];
  const sessions: { clientId: number; nickname: string }[] = [];
  const folder = (prefix: string) => {
    const made = mkdtempSync(join(tmpdir(), prefix));
    folders.push(made);
    return made;
  };
  /** Whether `nickname` was heard within the last `ms`. */
  const heardWithin = (nickname: string, ms: number) =>
    sessions
      .filter((s) => s.nickname === nickname)
      .some((s) => (voice.voiceArrivals(s.clientId).at(-1) ?? 0) > performance.now() - ms);

  beforeAll(async () => {
    voice = await Ts3TestServer.start();
    voice.on('clientConnected', ({ clientId, nickname }) => sessions.push({ clientId, nickname }));
  });
  afterAll(async () => {
    await service?.stop();
    await voice?.close();
    for (const made of folders) rmSync(made, { recursive: true, force: true });
  });

  it('restores every record and file that existed when the backup began', async () => {
    // Rendered first: the service's idle keep-alive connections are not left waiting on ffmpeg.
    // Four WAV files told apart by their tone: what each upload must come back as, byte for byte.
    const audio = folder('tsmb-backup-audio-');
    const wavs = [330, 440, 550, 660].map((hz) => {
      const path = join(audio, `${hz}.wav`);
      renderAudio(path, `0.4*sin(2*PI*${hz}*t)`, 1);
      return readFileSync(path);
    });
    const music = folder('tsmb-backup-music-');
    renderAudio(join(music, 'long.wav'), '0.4*sin(2*PI*523*t)', 60);
    const long = readFileSync(join(music, 'long.wav'));

    const liveDir = folder('tsmb-backup-live-');
    const backups = folder('tsmb-backups-');
    const env = { DATA_DIR: liveDir, TS3_LICENSE_ROOT: voice.rootPublicKey };
    service = await runService(env, MAIN);
    const { api, fetch: send } = await signedIn(service, true);
    expect((await api.POST('/api/bot/settings', { body: { savedQueuesEnabled: true } })).response.ok).toBe(
      true,
    );

    const created = await api.POST('/api/bot', {
      body: { name: 'Backup', nickname: NICKNAME, serverAddress: '127.0.0.1', serverPort: voice.port },
    });
    const botId = created.data!.id;
    const avatar = `data:image/png;base64,${PNG_1X1.toString('base64')}`;
    expect(
      (await api.PUT('/api/bot/{id}/avatar', { params: { path: { id: botId } }, body: { dataUrl: avatar } }))
        .response.ok,
    ).toBe(true);
    expect((await api.POST('/api/bot/{id}/start', { params: { path: { id: botId } } })).response.ok).toBe(
      true,
    );
    const song = await upload(service, send, 'long.wav', long);
    const played = await api.POST('/api/player/{botId}/play-song', {
      params: { path: { botId } },
      body: { song },
    });
    expect(played.response.ok).toBe(true);
    await vi.waitFor(() => expect(heardWithin(NICKNAME, 300)).toBe(true), { timeout: 20_000, interval: 100 });

    const load = writeLoad(api, service, send, { botId, song, wavs });
    // Records of each kind before the backup, and some sent after it.
    await vi.waitFor(() => expect(load.written.length).toBeGreaterThanOrEqual(12), { timeout: 60_000 });
    const backupStartedAt = performance.now();
    const backup = await make('backup', env, [`TO=${backups}`]);
    const backupEndedAt = performance.now();
    await vi.waitFor(() => expect(load.written.at(-1)!.sentAt).toBeGreaterThan(backupEndedAt), {
      timeout: 30_000,
    });
    await load.stop();
    expect(backup.output).toMatch(
      /^Snapshot written to .*snapshot-[^:]+: the database \(schema \d{4}_\w+\) and \d+ upload\(s\)\.\n$/,
    );
    expect(backup.code).toBe(0);
    expect(load.failures).toEqual([]);
    // The bot played through it all.
    expect(heardWithin(NICKNAME, 300)).toBe(true);
    const before = load.written.filter((w) => w.ackedAt < backupStartedAt);
    const after = load.written.filter((w) => w.sentAt > backupEndedAt);
    expect(new Set(before.map((w) => w.kind)).size).toBe(3);
    expect(after.length).toBeGreaterThan(0);

    const [snapshot] = readdirSync(backups);
    expect(snapshot).toMatch(/^snapshot-/);
    const from = join(backups, snapshot!);
    // Not while the service runs on that DATA_DIR: nothing is touched.
    const refused = await make('restore', env, [`FROM=${from}`]);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain(
      `The service is running on ${join(liveDir, 'bot.db')} (the database is open): stop it, then run make restore again.`,
    );
    expect(
      readdirSync(liveDir).filter((name) => name.startsWith('replaced-') || name.startsWith('.restoring')),
    ).toEqual([]);
    await service.stop();
    // Stopped, the live DATA_DIR takes the snapshot too; what it held is moved aside, not deleted.
    const liveUploads = readdirSync(join(liveDir, 'uploads')).sort();
    const over = await make('restore', env, [`FROM=${from}`]);
    expect(over.code).toBe(0);
    const replaced = over.output.match(/The data it replaced is in (\S+)\.\n$/)?.[1];
    expect(replaced).toBe(join(liveDir, readdirSync(liveDir).find((name) => name.startsWith('replaced-'))!));
    expect(readdirSync(join(replaced!, 'uploads')).sort()).toEqual(liveUploads);
    expect(readdirSync(replaced!)).toContain('bot.db');
    expect(readdirSync(join(liveDir, 'uploads')).sort()).toEqual(readdirSync(join(from, 'uploads')).sort());
    expect(liveUploads.length).toBeGreaterThan(readdirSync(join(from, 'uploads')).length);

    const freshDir = folder('tsmb-backup-restored-');
    const restored = await make('restore', { ...env, DATA_DIR: freshDir }, [`FROM=${from}`]);
    expect(restored.output).toMatch(
      /^Restored the snapshot of .* \(schema \d{4}_\w+, \d+ upload\(s\)\) into /,
    );
    expect(restored.code).toBe(0);

    service = await runService({ ...env, DATA_DIR: freshDir }, MAIN);
    const again = await signedIn(service, false);
    const favorites = new Set(
      (await again.api.GET('/api/favorites')).data!.favorites.map((f) => f.playlistId),
    );
    const savedQueues = new Set((await again.api.GET('/api/saved-queues')).data!.queues.map((q) => q.name));
    const uploads = new Set<string>();
    for (let offset = 0; ; offset += 100) {
      const page = (
        await again.api.GET('/api/music/local/uploads', { params: { query: { limit: 100, offset } } })
      ).data!.songs;
      for (const listed of page) uploads.add(listed.id);
      if (page.length < 100) break;
    }
    const found = { favorite: favorites, savedQueue: savedQueues, upload: uploads };
    expect(before.filter((w) => !found[w.kind].has(w.key))).toEqual([]);
    expect(after.filter((w) => found[w.kind].has(w.key))).toEqual([]);
    expect(uploads.has(song.id)).toBe(true);

    // Every upload's file, byte for byte as it was sent.
    const database = createClient({ url: `file:${join(freshDir, 'bot.db')}` });
    const stored = new Map(
      (await database.execute('SELECT id, stored_name FROM uploads')).rows.map((r) => [
        String(r.id),
        String(r.stored_name),
      ]),
    );
    database.close();
    const expected = new Map([...load.uploaded, [song.id, long]]);
    for (const id of uploads) {
      const file = readFileSync(join(freshDir, 'uploads', stored.get(id)!));
      expect(file.equals(expected.get(id)!), `upload ${id}`).toBe(true);
    }
    const avatarAnswer = await again.fetch(new Request(`${service.baseUrl}/api/bot/${botId}/avatar`));
    expect(Buffer.from(await avatarAnswer.arrayBuffer()).equals(PNG_1X1)).toBe(true);

    // And the restored bot plays a restored upload to the voice server.
    sessions.length = 0;
    expect(
      (await again.api.POST('/api/bot/{id}/start', { params: { path: { id: botId } } })).response.ok,
    ).toBe(true);
    const replay = await again.api.POST('/api/player/{botId}/play-song', {
      params: { path: { botId } },
      body: { song },
    });
    expect(replay.response.ok).toBe(true);
    await vi.waitFor(() => expect(heardWithin(NICKNAME, 300)).toBe(true), { timeout: 20_000, interval: 100 });
  }, 300_000);
});
