/**
 * POST /api/admin/daemons/{daemonId}/drain in one process: admin only, a daemon that is not running is a
 * 404, and the only daemon (the one of `make run`) refuses with 409, keeping its bots. The drain itself,
 * with daemons on NATS, is in tests/scale/rebalance.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { createMember, type Session, withAdminApp } from '../../testkit/accounts';
import type { TestApp } from '../../testkit/test-app';

let t: TestApp;
let admin: Session;
withAdminApp((app, session) => {
  t = app;
  admin = session;
});

const drain = (session: Session, daemonId: string) =>
  session.api.POST('/api/admin/daemons/{daemonId}/drain', { params: { path: { daemonId } } });

describe('draining a daemon', () => {
  it('is for admins only', async () => {
    const member = await createMember(t, admin);
    const { response, error } = await drain(member, 'test-daemon');
    expect(response.status).toBe(403);
    expect(error?.error).toBe('admin only');
  });

  it('answers 404 naming a daemon that is not running', async () => {
    const { response, error } = await drain(admin, 'nobody-here');
    expect(response.status).toBe(404);
    expect(error?.error).toBe('no daemon nobody-here is running');
  });

  it('refuses a malformed daemon id with 400', async () => {
    const { response } = await drain(admin, 'no.dots');
    expect(response.status).toBe(400);
  });

  it('refuses to drain the only daemon: nobody could take its bots, and nothing is audited', async () => {
    const { response, error } = await drain(admin, 'test-daemon');
    expect(response.status).toBe(409);
    expect(error?.error).toBe(
      'daemon test-daemon is the only one running: no other daemon could take its bots',
    );
    const audit = await admin.api.GET('/api/audit');
    expect(audit.data?.entries.some((e) => e.action === 'daemon.drained')).toBe(false);
  });
});
