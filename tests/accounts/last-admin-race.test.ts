/**
 * The last-admin rule under concurrency (issue 36): the two last admins demote or delete each other at
 * the same moment, through HTTP, many times over. Whatever interleaving the requests get, one admin
 * always remains and first-run setup stays closed.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../shared/db/schema';
import { createMember, PASSWORD, type Session, setupAdmin } from '../../testkit/accounts';
import { startTestApp, type TestApp } from '../../testkit/test-app';

const ROUNDS = 8;

let t: TestApp;
let first: Session;
beforeAll(async () => {
  t = await startTestApp({ withDaemon: false });
  first = await setupAdmin(t);
});
afterAll(() => t.close());

const path = (id: string) => ({ params: { path: { id } } });

/** Read from the database: the caller of an HTTP listing may be the admin just deleted. */
async function admins(): Promise<string[]> {
  const rows = await t.db.select({ id: users.id }).from(users).where(eq(users.role, 'admin'));
  return rows.map((row) => row.id);
}

/** Setup is closed: it says so, and a setup attempt is refused. */
async function expectSetupClosed(): Promise<void> {
  const anonymous = t.browser().api;
  expect((await anonymous.GET('/api/session/needs-setup')).data).toEqual({ needsSetup: false });
  const setup = await anonymous.POST('/api/session/setup', {
    body: { username: 'intruder', password: PASSWORD },
  });
  expect(setup.response.status).toBe(409);
}

type Move = (actor: Session, target: Session) => Promise<number>;
const demote: Move = async (actor, target) =>
  (await actor.api.PATCH('/api/users/{id}/role', { ...path(target.id), body: { role: 'member' } })).response
    .status;
const remove: Move = async (actor, target) =>
  (await actor.api.DELETE('/api/users/{id}', path(target.id))).response.status;

describe('the last admin under concurrent requests', () => {
  for (const [name, moves] of [
    ['two admins demote each other', [demote, demote]],
    ['two admins delete each other', [remove, remove]],
    ['one demotes while the other deletes', [demote, remove]],
  ] as const) {
    it(`keeps one admin when ${name}`, async () => {
      for (let round = 0; round < ROUNDS; round++) {
        // `first` is the admin left by the previous round (the other one was demoted or deleted).
        const second = await createMember(t, first, { role: 'admin' });
        const answers = await Promise.all([moves[0](first, second), moves[1](second, first)]);
        // Each request either won, found the other the last admin (409), or lost its own admin role first.
        for (const status of answers) expect([204, 403, 409]).toContain(status);
        const left = await admins();
        expect(left).toHaveLength(1);
        if (left[0] !== first.id) first = second;
        await expectSetupClosed();
      }
    });
  }
});
