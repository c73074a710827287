/**
 * Every rate limit holds across api replicas (issue #16): two api processes (their own `node` entries)
 * share one libSQL file and a nats-server, as a scaled-out deployment runs them, and one client sends
 * its attempts to both at once. Login allows 5 attempts a minute per client and setup 3 (SPEC): of
 * concurrent attempts spread over the two processes exactly that many get an answer and the rest 429,
 * never a 5xx, whatever X-Forwarded-For claims (the processes do not trust a proxy here).
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '../../testkit/accounts';
import { checkedFetch } from '../../testkit/checked-answers';
import { type NatsServerHandle, startNatsServer } from '../../testkit/nats-server';
import { preparedDataDir, type RunningService, runService } from '../../testkit/run-service';
import { recordTally } from './tally';

let nats: NatsServerHandle;
let replicas: RunningService[];
let dataDir: string;
const tally = { requests: 0, badInputs: 0, serverErrors: 0 };

beforeAll(async () => {
  dataDir = await preparedDataDir('tsmb-limits-');
  nats = await startNatsServer();
  const env = { DATA_DIR: dataDir, NATS_URL: nats.url, TRUST_PROXY: '0', LOG_LEVEL: 'warn' };
  replicas = await Promise.all([
    runService(env, ['npx', 'tsx', 'api/main.ts']),
    runService(env, ['npx', 'tsx', 'api/main.ts']),
  ]);
}, 120_000);
afterAll(async () => {
  recordTally('rate limits across replicas', { ...tally, principals: 1 });
  await Promise.all((replicas ?? []).map((r) => r.stop()));
  await nats?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Sends `count` attempts at once, alternating between the replicas; answers their statuses, sorted. */
async function burst(path: string, count: number, body: (i: number) => object): Promise<number[]> {
  const statuses = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const response = await checkedFetch(
        new Request(`${replicas[i % 2]!.baseUrl}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${i}` },
          body: JSON.stringify(body(i)),
        }),
      );
      const answer = (await response.json()) as { error?: unknown };
      tally.requests++;
      if (response.status >= 500) tally.serverErrors++;
      if (response.status >= 400) expect(typeof answer.error).toBe('string');
      return response.status;
    }),
  );
  return statuses.sort((a, b) => a - b);
}

describe('rate limits shared by two api processes', () => {
  it('allow 3 setup attempts a minute per client in all, then 429', async () => {
    const statuses = await burst('/api/session/setup', 6, () => ({ username: 'admin', password: PASSWORD }));
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses).toEqual([201, 409, 409, 429, 429, 429]);
  });

  it('allow 5 login attempts a minute per client in all, then 429, even for the right password', async () => {
    const statuses = await burst('/api/session/login', 12, (i) => ({
      username: i % 3 ? 'admin' : 'nobody',
      password: 'wrong password',
    }));
    tally.badInputs += 12;
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(7).fill(429)]);
    expect(await burst('/api/session/login', 2, () => ({ username: 'admin', password: PASSWORD }))).toEqual([
      429, 429,
    ]);
  });
});
