/**
 * Where /metrics lives in each layout (issue 41 §2): `make run`'s one process serves the api's and the
 * daemon thread's series as one text, and a daemon run apart serves its own on DAEMON_METRICS_PORT,
 * behind METRICS_TOKEN. Real processes, each text parsed by the strict reader (a family written twice,
 * as two registries' plain concatenation would, fails it).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config';
import { botRow } from '../../testkit/bot-row';
import { freePort } from '../../testkit/free-port';
import { type NatsServerHandle, startNatsServer } from '../../testkit/nats-server';
import { preparedDataDir, type RunningService, runDaemon, runService } from '../../testkit/run-service';
import { type Family, parsePrometheusText, sampleValue } from '../helpers/prometheus-text';

const METRICS_TOKEN = randomBytes(24).toString('hex');
const running: RunningService[] = [];
const dataDirs: string[] = [];
let nats: NatsServerHandle | undefined;

afterAll(async () => {
  await Promise.all(running.map((service) => service.stop()));
  await nats?.stop();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

const scrape = (url: string, headers: Record<string, string>) => fetch(url, { headers });

const withToken = { authorization: `Bearer ${METRICS_TOKEN}` };
const botsOf = (families: Map<string, Family>) => sampleValue(families, 'ts3bot_bots');

describe('/metrics in each layout', () => {
  it('make run: one text with the api and the daemon thread, each family once', async () => {
    const dataDir = await preparedDataDir('metrics-run-', [botRow(randomUUID(), 'Quiet')]);
    dataDirs.push(dataDir);
    const service = await runService({ DATA_DIR: dataDir, METRICS_TOKEN, LOG_LEVEL: 'warn' }, [
      'node',
      '--import',
      'tsx',
      'main.ts',
    ]);
    running.push(service);
    expect((await scrape(`${service.baseUrl}/metrics`, {})).status).toBe(401);
    const answer = await scrape(`${service.baseUrl}/metrics`, withToken);
    expect(answer.status).toBe(200);
    const families = parsePrometheusText(await answer.text());
    // The daemon's thread: its one bot, not connected.
    expect(sampleValue(families, 'ts3bot_bots', { state: 'disconnected' })).toBe(1);
    expect(botsOf(families)).toBe(1);
    expect(families.has('ts3bot_frames_sent_total')).toBe(true);
    // Counted on both threads, written once.
    expect(families.get('ts3bot_platform_request_errors_total')?.type).toBe('counter');
    // The api's, and the process's own.
    expect(families.has('ts3bot_http_request_duration_seconds')).toBe(true);
    expect(families.get('process_cpu_user_seconds_total')?.type).toBe('counter');
  }, 90_000);

  it('a daemon apart: its own listener on DAEMON_METRICS_PORT, the token its only way in', async () => {
    nats = await startNatsServer({ jetstream: true });
    const dataDir = await preparedDataDir('metrics-daemon-', [botRow(randomUUID(), 'Owned')]);
    dataDirs.push(dataDir);
    const port = await freePort();
    const daemon = runDaemon({
      DATA_DIR: dataDir,
      NATS_URL: nats.url,
      HOST: '127.0.0.1',
      METRICS_TOKEN,
      DAEMON_METRICS_PORT: String(port),
      DAEMON_ID: 'metrics-daemon',
      LOG_LEVEL: 'warn',
    });
    running.push(daemon);
    const url = `http://127.0.0.1:${port}/metrics`;
    // Ready once it has claimed its bot's lease.
    await expect
      .poll(
        async () => {
          const answer = await scrape(url, withToken).catch(() => undefined);
          return answer?.ok ? botsOf(parsePrometheusText(await answer.text())) : -1;
        },
        { timeout: 30_000, interval: 250 },
      )
      .toBe(1);
    const refused = await scrape(url, { authorization: 'Bearer wrong-token-of-some-length' });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: expect.stringContaining('METRICS_TOKEN') });
    expect((await scrape(`http://127.0.0.1:${port}/other`, withToken)).status).toBe(404);
    const families = parsePrometheusText(await (await scrape(url, withToken)).text());
    expect(sampleValue(families, 'ts3bot_frames_sent_total', { daemon: 'metrics-daemon' })).toBe(0);
    expect(families.has('ts3bot_lease_takeovers_total')).toBe(true);
    expect(families.has('process_resident_memory_bytes')).toBe(true);
    // No api runs here.
    expect(families.has('ts3bot_http_request_duration_seconds')).toBe(false);
  }, 90_000);

  it('refuses DAEMON_METRICS_PORT without METRICS_TOKEN at start', () => {
    expect(() => loadConfig({ DAEMON_METRICS_PORT: '9464' })).toThrow(
      'DAEMON_METRICS_PORT: needs METRICS_TOKEN',
    );
    expect(loadConfig({ DAEMON_METRICS_PORT: '9464', METRICS_TOKEN }).daemonMetricsPort).toBe(9464);
  });
});
