/**
 * A failed login takes as long for an unknown username as for a known one (issue #16), so timing
 * cannot tell which accounts exist. The proof that does not flake under load: every failed login,
 * whether the name is unknown, known with a wrong password, or the guest principal's (which has no
 * password), runs exactly one scrypt with the same cost parameters (counted by wrapping node:crypto),
 * and answers the same 401 body. Scrypt costs tens of milliseconds; what else differs between the
 * paths is one indexed SELECT that finds a row or not, microseconds. The wall times of 30 interleaved
 * tries of each are printed, and their medians must lie within a factor of 2 of each other: a path
 * that skipped the hash would be many times faster, while load spikes hit both sides of interleaved
 * tries alike.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PASSWORD, setupAdmin } from '../../testkit/accounts';
import { startTestApp, TEST_ORIGIN, type TestApp } from '../../testkit/test-app';
import { recordTally } from './tally';

interface HashCall {
  N: number | undefined;
  r: number | undefined;
  p: number | undefined;
}
const hashCalls = vi.hoisted((): HashCall[] => []);
vi.mock(import('node:crypto'), async (importOriginal) => {
  const real = await importOriginal();
  const scrypt = ((...args: Parameters<typeof real.scrypt>) => {
    const options = typeof args[3] === 'object' ? args[3] : {};
    hashCalls.push({ N: options.N, r: options.r, p: options.p });
    return (real.scrypt as (...a: unknown[]) => void)(...args);
  }) as typeof real.scrypt;
  return { ...real, scrypt, default: { ...real, scrypt } };
});

const TRIES = 30;
let t: TestApp;
let knownName: string;
let sent = 0;

/** One failed login from its own client address (the limit is 5 a minute per address). */
async function failedLogin(
  username: string,
): Promise<{ ms: number; hashes: HashCall[]; status: number; body: string }> {
  sent++;
  const calledBefore = hashCalls.length;
  const request = new Request(`${TEST_ORIGIN}/api/session/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.${sent >> 8}.${sent & 255}` },
    body: JSON.stringify({ username, password: 'not the password at all' }),
  });
  const started = performance.now();
  const response = await t.app.fetch(request);
  const body = await response.text();
  return {
    ms: performance.now() - started,
    hashes: hashCalls.slice(calledBefore),
    status: response.status,
    body,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

beforeAll(async () => {
  t = await startTestApp({ withDaemon: false });
  const admin = await setupAdmin(t);
  knownName = `known_${randomUUID().slice(0, 8)}`;
  const created = await admin.api.POST('/api/users', { body: { username: knownName, password: PASSWORD } });
  expect(created.response.status).toBe(201);
});
afterAll(() => t.close());

describe('a failed login', () => {
  it('does the same password-hash work and answers the same, whether or not the name exists', {
    timeout: 180_000,
  }, async () => {
    // The decoy hash of unknown names is made once per process; make it before measuring.
    await failedLogin('warm_up_unknown');
    await failedLogin(knownName);
    const kinds = {
      unknown: [] as Awaited<ReturnType<typeof failedLogin>>[],
      known: [] as Awaited<ReturnType<typeof failedLogin>>[],
      guest: [] as Awaited<ReturnType<typeof failedLogin>>[],
    };
    for (let i = 0; i < TRIES; i++) {
      kinds.unknown.push(await failedLogin(`nobody_${randomUUID().slice(0, 8)}`));
      kinds.known.push(await failedLogin(knownName));
      if (i % 3 === 0) kinds.guest.push(await failedLogin('guest'));
    }
    const costOf = (h: HashCall) => `N=${h.N} r=${h.r} p=${h.p}`;
    const reference = costOf(kinds.known[0]!.hashes[0]!);
    for (const [kind, tries] of Object.entries(kinds))
      for (const attempt of tries) {
        expect({ kind, status: attempt.status, body: attempt.body }).toEqual({
          kind,
          status: 401,
          body: JSON.stringify({ error: 'wrong username or password', code: 'wrongCredentials', params: {} }),
        });
        expect({ kind, hashes: attempt.hashes.map(costOf) }).toEqual({ kind, hashes: [reference] });
      }

    const unknownMs = median(kinds.unknown.map((a) => a.ms));
    const knownMs = median(kinds.known.map((a) => a.ms));
    const unknownSlower = kinds.unknown.filter((a, i) => a.ms > kinds.known[i]!.ms).length;
    console.log(
      `login timing over ${TRIES} interleaved tries: median unknown name ${unknownMs.toFixed(1)} ms, ` +
        `known name ${knownMs.toFixed(1)} ms, guest ${median(kinds.guest.map((a) => a.ms)).toFixed(1)} ms; ` +
        `the unknown name was slower in ${unknownSlower} of ${TRIES} pairs (${reference})`,
    );
    expect(unknownMs / knownMs).toBeGreaterThan(0.5);
    expect(unknownMs / knownMs).toBeLessThan(2);
    recordTally('login timing', { requests: sent, principals: 3, badInputs: sent });
  });
});
