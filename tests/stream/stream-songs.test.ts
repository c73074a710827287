/**
 * Platform `stream` through the real app, against a stand-in radio on 127.0.0.1: an address answers
 * one Song (named by its `icy-name`, live so `duration` 0), a search for it answers that song and words
 * answer none, playlists resolve to their first stream. The request-forgery guard: with
 * `streamAllowPrivateHosts` off (the default) a loopback address, by IP or by name, is refused with
 * 400 before anything is fetched; with it on, a redirect to a private address is still followed only
 * through the guard, a redirect chain longer than 5 and an answer that is not audio are refused; and
 * with it off, a chain of redirects that starts on a public host (a loopback address standing in for
 * one) and ends at a private address is refused at that last hop with 400, nothing private fetched.
 * A plain file (an ffmpeg-made MP3) is named by its own tags and has its length, read by ffprobe
 * through the guarded relay; without them, the name from its address and length 0.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { STREAM_USER_AGENT } from '../../shared/sources/stream/stream-probe';
import { type Session, withAdminApp } from '../../testkit/accounts';
import { type AudioCdn, renderTone, startAudioCdn } from '../helpers/audio-cdn';
import {
  enableStreamSource,
  type PublicStandIn,
  type RadioServer,
  STATION_NAME,
  startPublicStandIn,
  startRadioServer,
  stationSong,
} from '../helpers/radio-server';

// Only loopback servers can run here, so one loopback address stands in for a public host: the guard's
// address check counts it as public and judges every other address as it always does.
vi.mock('../../shared/net/public-address', async (original) =>
  (await import('../helpers/radio-server')).withPublicStandIn(await original()),
);

let admin: Session;
let radio: RadioServer;
withAdminApp((_, session) => {
  admin = session;
});
beforeAll(async () => {
  radio = await startRadioServer();
  await enableStreamSource(admin);
}, 30_000);
afterAll(() => radio?.close());

const song = (address: string) =>
  admin.api.GET('/api/music/song/{id}', { params: { path: { id: address }, query: { platform: 'stream' } } });
const allowPrivate = (on: boolean) =>
  admin.api.POST('/api/bot/settings', { body: { streamAllowPrivateHosts: on } });

describe('platform stream, private hosts refused (the default)', () => {
  it('answers 400 for a loopback address by IP and by name, and fetches nothing', async () => {
    const { data } = await admin.api.GET('/api/bot/settings');
    expect(data?.streamAllowPrivateHosts).toBe(false);
    const before = radio.requests.length;
    for (const address of [`${radio.baseUrl}live`, radio.baseUrl.replace('127.0.0.1', 'localhost')]) {
      const { error, response } = await song(address);
      expect(response.status).toBe(400);
      expect(error?.error).toMatch(/private or local address.*streamAllowPrivateHosts/);
    }
    const mapped = await song(`http://[::ffff:127.0.0.1]:${new URL(radio.baseUrl).port}/live`);
    expect(mapped.response.status).toBe(400);
    expect(radio.requests.length).toBe(before);
  });

  it('answers 400 for what is not an http(s) address', async () => {
    for (const address of ['file:///etc/passwd', 'ftp://example.com/a.mp3', 'not an address']) {
      const { response, error } = await song(address);
      expect(response.status).toBe(400);
      expect(error?.error).toBeTruthy();
    }
  });
});

describe('platform stream, private hosts allowed', () => {
  beforeAll(async () => {
    expect((await allowPrivate(true)).response.status).toBe(200);
  });
  afterAll(() => allowPrivate(false));

  it('answers a live station as one Song named by its icy-name, duration 0', async () => {
    const address = `${radio.baseUrl}live`;
    const { data, response } = await song(address);
    expect(response.status).toBe(200);
    expect(data).toEqual(stationSong(radio, 'live'));
  });

  it('searches an address as that one song, and words as none', async () => {
    const address = `${radio.baseUrl}live`;
    const found = await admin.api.GET('/api/music/search', {
      params: { query: { q: address, platform: 'stream' } },
    });
    expect(found.data?.songs.map((s) => s.id)).toEqual([address]);
    const words = await admin.api.GET('/api/music/search', {
      params: { query: { q: 'jazz', platform: 'stream' } },
    });
    expect(words.data?.songs).toEqual([]);
  });

  it('resolves .pls and .m3u playlists to their first stream', async () => {
    for (const name of ['station.pls', 'station.m3u']) {
      const { data, response } = await song(`${radio.baseUrl}${name}`);
      expect(response.status, name).toBe(200);
      expect(data?.name).toBe(STATION_NAME);
    }
  });

  it('follows up to 5 redirects, refuses a sixth, and refuses an answer that is not audio', async () => {
    expect((await song(`${radio.baseUrl}hop/4`)).response.status).toBe(200);
    const tooMany = await song(`${radio.baseUrl}hop/5`);
    expect(tooMany.response.status).toBe(400);
    expect(tooMany.error?.error).toMatch(/more than 5 redirects/);
    const page = await song(`${radio.baseUrl}page.html`);
    expect(page.response.status).toBe(400);
    expect(page.error?.error).toMatch(/text\/html.*not audio/);
  });

  it('answers 404 for an address with nothing behind it', async () => {
    expect((await song(`${radio.baseUrl}gone.mp3`)).response.status).toBe(404);
  });
});

describe('a plain audio file over http', () => {
  const cdns: AudioCdn[] = [];
  const serve = async (bytes: Buffer) => {
    const cdn = await startAudioCdn(0, { bytes, contentType: 'audio/mpeg' });
    cdns.push(cdn);
    return cdn;
  };
  beforeAll(async () => {
    expect((await allowPrivate(true)).response.status).toBe(200);
  });
  afterAll(async () => {
    for (const cdn of cdns) await cdn.close();
    await allowPrivate(false);
  });

  it('is named by its own tags, with its own length, read through the guard', async () => {
    const tagged = renderTone(5, 'tagged.mp3', [
      ...['-metadata', 'title=Harbour Lights', '-metadata', 'artist=The Test Band'],
    ]);
    const cdn = await serve(tagged);
    const address = `${cdn.baseUrl}music/harbour-lights-final.mp3`;
    const { data, response } = await song(address);
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ id: address, name: 'Harbour Lights', artist: 'The Test Band' });
    expect(Math.abs(data!.duration - 5)).toBeLessThan(0.2);
    // ffprobe never fetched the address itself: every request came through the relay, as the guard's.
    expect(cdn.requests.length).toBeGreaterThan(1);
    expect(new Set(cdn.requests.map((r) => r.headers['user-agent']))).toEqual(new Set([STREAM_USER_AGENT]));
  });

  it('without tags keeps the name from its address but has its length', async () => {
    const cdn = await serve(renderTone(3));
    const { data } = await song(`${cdn.baseUrl}sets/night%20drive.mp3`);
    expect(data).toMatchObject({ name: 'night drive', artist: '' });
    expect(Math.abs(data!.duration - 3)).toBeLessThan(0.2);
  });

  it('that ffprobe cannot read falls back to the name from its address and length 0', async () => {
    const cdn = await serve(Buffer.from('this is not audio at all\n'.repeat(200)));
    const { data, response } = await song(`${cdn.baseUrl}broken.mp3`);
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ name: 'broken', artist: '', duration: 0 });
  });
});

describe('a redirect chain from a public host to a private address', () => {
  let publicHost: PublicStandIn;
  beforeAll(async () => {
    publicHost = await startPublicStandIn();
  });
  afterAll(() => publicHost?.close());

  it('is refused with 400 at the hop that leaves the public network, and nothing private is fetched', async () => {
    const radioPort = new URL(radio.baseUrl).port;
    // A control: a chain that stays on the (stand-in) public host plays, so what is refused below is
    // the last hop, not the first.
    const staying = await song(publicHost.chain(3, `${publicHost.baseUrl}audio.mp3`));
    expect(staying.response.status).toBe(200);
    const before = radio.requests.length;
    for (const target of [`http://127.0.0.1:${radioPort}/live`, `http://localhost:${radioPort}/live`]) {
      const hops = publicHost.requests.length;
      const { response, error } = await song(publicHost.chain(4, target));
      expect(response.status, target).toBe(400);
      expect(error?.error).toMatch(/private or local address.*streamAllowPrivateHosts/);
      // All five public hops were followed before the private one was refused.
      expect(publicHost.requests.length - hops).toBe(5);
    }
    expect(radio.requests.length).toBe(before);
  });
});
