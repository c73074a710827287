/**
 * GET /metrics (issue 41 §2) on the real app with a bot playing an upload to the TS3 test server:
 * read with the scraper's token or as an admin (401 and 403 otherwise), parsed by a strict reader of
 * the text format, and the series move as the bot plays: frames sent, the request and bus histograms,
 * bots by state, decoder starts and failures, platform errors, WebSocket clients and listeners.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Song } from '../../shared/domain/schemas';
import { createKey, createMember, type Session } from '../../testkit/accounts';
import { TEST_ORIGIN } from '../../testkit/test-app';
import { addToneUpload } from '../../testkit/tone-uploads';
import { type Family, parsePrometheusText, sampleValue } from '../helpers/prometheus-text';
import { startVoiceApp, type VoiceApp } from '../helpers/voice-app';
import { connect } from '../helpers/ws-client';

const METRICS_TOKEN = randomBytes(24).toString('hex');

let app: VoiceApp;
let admin: Session;
let botId: string;
let song: Song;
const bot = () => ({ params: { path: { botId } } });

async function scrapeAnswer(headers: Record<string, string>, jar = undefined as Session['jar'] | undefined) {
  return app.t.fetch(new Request(`${TEST_ORIGIN}/metrics`, { headers }), jar);
}

/** The metrics, read with the token and parsed strictly (a malformed text throws). */
async function scrape(): Promise<Map<string, Family>> {
  const response = await scrapeAnswer({ authorization: `Bearer ${METRICS_TOKEN}` });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  return parsePrometheusText(await response.text());
}

const value = async (name: string, labels: Record<string, string> = {}) =>
  sampleValue(await scrape(), name, labels);

beforeAll(async () => {
  app = await startVoiceApp({ name: 'Meter', nickname: 'Meter Bot' }, { METRICS_TOKEN });
  ({ admin, botId } = app);
  song = await addToneUpload(app.t.db, app.t.dataDir, 'Metric Tone', [{ frequencyHz: 440, seconds: 60 }]);
  expect(
    (await admin.api.POST('/api/bot/{id}/start', { params: { path: { id: botId } } })).response.status,
  ).toBe(200);
}, 60_000);

afterAll(async () => {
  await app?.close();
});

describe('GET /metrics', () => {
  it('answers the token and admins, and refuses everyone else', async () => {
    expect((await scrapeAnswer({})).status).toBe(401);
    expect((await scrapeAnswer({ authorization: 'Bearer not-the-metrics-token' })).status).toBe(401);
    const member = await createMember(app.t, admin);
    const refused = await scrapeAnswer({}, member.jar);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: expect.any(String) });
    expect((await scrapeAnswer({}, admin.jar)).status).toBe(200);
    const key = await createKey(admin, 'scraper');
    const byKey = await scrapeAnswer({ authorization: `Bearer ${key}` });
    expect(byKey.status).toBe(200);
    expect(parsePrometheusText(await byKey.text()).has('ts3bot_frames_sent_total')).toBe(true);
  });

  it('has every series, typed', async () => {
    const families = await scrape();
    const types = Object.fromEntries([...families.values()].map((f) => [f.name, f.type]));
    expect(types).toMatchObject({
      ts3bot_bots: 'gauge',
      ts3bot_frames_sent_total: 'counter',
      ts3bot_frames_late_total: 'counter',
      ts3bot_frames_missed_total: 'counter',
      ts3bot_decoder_starts_total: 'counter',
      ts3bot_decoder_failures_total: 'counter',
      ts3bot_platform_request_errors_total: 'counter',
      ts3bot_http_request_duration_seconds: 'histogram',
      ts3bot_bus_request_duration_seconds: 'histogram',
      ts3bot_websocket_clients: 'gauge',
      ts3bot_listen_along_listeners: 'gauge',
      ts3bot_lease_takeovers_total: 'counter',
    });
    expect(sampleValue(families, 'ts3bot_bots', { daemon: 'test-daemon', state: 'idle' })).toBe(1);
    expect(sampleValue(families, 'ts3bot_lease_takeovers_total', { daemon: 'test-daemon' })).toBe(0);
  });

  it('moves under a playing bot: frames, requests by route pattern, bus requests, decoder starts', async () => {
    const before = await scrape();
    const statusRoute = { method: 'GET', route: '/api/bot/:id', status: '200' };
    expect(
      (await admin.api.POST('/api/player/{botId}/play-song', { ...bot(), body: { song } })).response.status,
    ).toBe(200);
    await expect.poll(() => value('ts3bot_bots', { state: 'playing' }), { timeout: 5000 }).toBe(1);
    await expect
      .poll(() => value('ts3bot_decoder_starts_total', { platform: 'local' }), { timeout: 5000 })
      .toBe(sampleValue(before, 'ts3bot_decoder_starts_total', { platform: 'local' }) + 1);
    const playing = await scrape();
    await new Promise((r) => setTimeout(r, 2000));
    for (let i = 0; i < 3; i++)
      expect(
        (await admin.api.GET('/api/bot/{id}', { params: { path: { id: botId } } })).response.status,
      ).toBe(200);
    const after = await scrape();
    // 50 frames a second: two seconds send about 100 (allowing for a loaded machine).
    const sent = (f: Map<string, Family>) =>
      sampleValue(f, 'ts3bot_frames_sent_total', { daemon: 'test-daemon' });
    expect(sent(after) - sent(playing)).toBeGreaterThan(60);
    const requests = (f: Map<string, Family>) =>
      sampleValue(f, 'ts3bot_http_request_duration_seconds_count', statusRoute);
    expect(requests(after) - requests(before)).toBe(3);
    // Labelled by the pattern, never by the bot's id.
    const routes = after.get('ts3bot_http_request_duration_seconds')!.samples.map((s) => s.labels.route);
    expect(routes).toContain('/api/player/:botId/play-song');
    expect(routes.some((route) => route?.includes(botId))).toBe(false);
    const play = (f: Map<string, Family>) =>
      sampleValue(f, 'ts3bot_bus_request_duration_seconds_count', { op: 'playSong', outcome: 'ok' });
    expect(play(after) - play(before)).toBe(1);
    expect(sampleValue(after, 'ts3bot_bus_request_duration_seconds_count', { op: 'status' })).toBeGreaterThan(
      0,
    );
  });

  it('counts WebSocket clients and listen-along listeners while they are there', async () => {
    const base = await app.t.listen();
    const socket = await connect(`${base.replace('http', 'ws')}/ws`, { cookie: admin.jar.header()! });
    await expect.poll(() => value('ts3bot_websocket_clients'), { timeout: 3000 }).toBe(1);
    const listening = new AbortController();
    const stream = await fetch(`${base}/api/player/${botId}/listen`, {
      headers: { cookie: admin.jar.header()! },
      signal: listening.signal,
    });
    expect(stream.status).toBe(200);
    await expect.poll(() => value('ts3bot_listen_along_listeners'), { timeout: 3000 }).toBe(1);
    listening.abort();
    socket.ws.close();
    await expect.poll(() => value('ts3bot_listen_along_listeners'), { timeout: 5000 }).toBe(0);
    await expect.poll(() => value('ts3bot_websocket_clients'), { timeout: 5000 }).toBe(0);
  });

  it('counts a decoder failure and a platform error by platform', async () => {
    const broken = await addToneUpload(
      app.t.db,
      app.t.dataDir,
      'Broken',
      [{ frequencyHz: 1, seconds: 30 }],
      Buffer.from('not audio at all'.repeat(64)),
    );
    const failures = () => value('ts3bot_decoder_failures_total', { platform: 'local' });
    const errors = () => value('ts3bot_platform_request_errors_total', { platform: 'local' });
    const [failuresBefore, errorsBefore] = [await failures(), await errors()];
    await admin.api.POST('/api/player/{botId}/play-song', { ...bot(), body: { song: broken } });
    await expect.poll(failures, { timeout: 8000 }).toBe(failuresBefore + 1);
    await admin.api.POST('/api/player/{botId}/play-song', {
      ...bot(),
      body: { song: { ...song, id: 'gone-upload' } },
    });
    await expect.poll(errors, { timeout: 5000 }).toBe(errorsBefore + 1);
  });
});

describe('the Grafana dashboard of the deployment kit', () => {
  it('reads only series the service exports', async () => {
    const dashboard = JSON.parse(readFileSync('wrangler-free-deploy/grafana/ts3-music-bot.json', 'utf8')) as {
      panels: { targets?: { expr: string }[] }[];
    };
    const exprs = dashboard.panels.flatMap((panel) => panel.targets ?? []).map((target) => target.expr);
    const named = new Set(exprs.flatMap((expr) => expr.match(/\bts3bot_\w+/g) ?? []));
    expect(named.size).toBeGreaterThanOrEqual(12);
    const families = await scrape();
    const exported = new Set(
      [...families.values()].flatMap((f) => [f.name, ...f.samples.map((sample) => sample.name)]),
    );
    expect([...named].filter((name) => !exported.has(name))).toEqual([]);
  });
});

describe('the strict reader of the text format', () => {
  it('refuses what Prometheus would refuse', () => {
    expect(() => parsePrometheusText('x_total 1\n')).toThrow('no TYPE');
    expect(() => parsePrometheusText('# TYPE x counter\n# TYPE x counter\nx 1\n')).toThrow('second TYPE');
    expect(() => parsePrometheusText('# TYPE x gauge\nx{a="1"} 1\nx{a="1"} 2\n')).toThrow('twice');
    expect(() => parsePrometheusText('# TYPE x gauge\nx{a="\\t"} 1\n')).toThrow('bad escape');
    expect(() => parsePrometheusText('# TYPE x gauge\nx one\n')).toThrow('bad value');
    expect(() =>
      parsePrometheusText(
        '# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_count 1\nh_sum 1\n',
      ),
    ).toThrow('out of order');
    const ok = parsePrometheusText('# HELP g a "gauge"\n# TYPE g gauge\ng{a="x\\"y\\\\z\\n"} -1.5e3\n');
    expect(ok.get('g')?.samples).toEqual([{ name: 'g', labels: { a: 'x"y\\z\n' }, value: -1500 }]);
  });
});
