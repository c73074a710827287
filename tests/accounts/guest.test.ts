import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { GuestModeEvent } from '../../shared/bus/messages';
import { GUEST_MODE_EVENTS } from '../../shared/bus/subjects';
import { sessions, users } from '../../shared/db/schema';
import { GUEST_PRINCIPAL_ID } from '../../shared/domain/constants';
import { insertBot, type Session, setupAdmin } from '../../testkit/accounts';
import { startTestApp, type TestApp } from '../../testkit/test-app';

let t: TestApp;
afterEach(() => t?.close());

async function setGuestMode(admin: Session, guestMode: { enabled?: boolean; bots?: 'all' | string[] }) {
  const res = await admin.api.POST('/api/bot/settings', { body: { guestMode } });
  expect(res.response.status).toBe(200);
  return res.data!;
}

describe('guest mode', () => {
  it('refuses guest sessions while disabled', async () => {
    t = await startTestApp();
    await setupAdmin(t);
    const res = await t.browser().api.POST('/api/session/guest');
    expect(res.response.status).toBe(403);
    expect(res.error).toMatchObject({ error: 'guest mode is disabled' });
  });

  it('gives guests a 1-day session scoped to the guest bots with the default permissions', async () => {
    t = await startTestApp();
    const admin = await setupAdmin(t);
    const open = await insertBot(t, 'Open');
    await insertBot(t, 'Closed');
    const settings = await setGuestMode(admin, { enabled: true, bots: [open] });
    expect(settings.guestMode.permissions).toMatchObject({ addToQueue: true, playCollection: false });
    const guest = t.browser();
    const started = await guest.api.POST('/api/session/guest');
    expect(started.data).toEqual({ user: { id: GUEST_PRINCIPAL_ID, username: 'guest', role: 'guest' } });
    const cookie = started.response.headers.getSetCookie().find((c) => c.startsWith('tsmb_guest='))!;
    const expires = Date.parse(/Expires=([^;]+)/i.exec(cookie)![1]!);
    expect(expires - Date.now()).toBeGreaterThan(23 * 3600_000);
    expect(expires - Date.now()).toBeLessThan(25 * 3600_000);
    const me = await guest.api.GET('/api/session/me');
    expect(me.data).toMatchObject({
      user: { role: 'guest' },
      capabilities: [],
      bots: [open],
      guestPermissions: { addToQueue: true },
    });
    expect((await guest.api.GET('/api/bot')).data?.bots.map((b) => b.name)).toEqual(['Open']);
    expect((await guest.api.GET('/api/bot/settings')).response.status).toBe(403);
    expect((await guest.api.GET('/api/keys')).response.status).toBe(403);
    expect(
      (
        await guest.api.POST('/api/session/change-password', {
          body: { currentPassword: 'x', newPassword: 'yyyyyyyy' },
        })
      ).response.status,
    ).toBe(403);
  });

  it('ends guest sessions at once when disabled and tells the gateway; narrowing the bots is announced too', async () => {
    t = await startTestApp();
    const admin = await setupAdmin(t);
    const a = await insertBot(t);
    const b = await insertBot(t);
    const events: GuestModeEvent[] = [];
    t.bus.subscribe(GUEST_MODE_EVENTS, (data) => events.push(data as GuestModeEvent));
    await setGuestMode(admin, { enabled: true, bots: [a, b] });
    const guest = t.browser();
    await guest.api.POST('/api/session/guest');
    expect((await guest.api.GET('/api/session/me')).response.status).toBe(200);

    await setGuestMode(admin, { bots: [a] });
    await setGuestMode(admin, { enabled: false });
    await new Promise((r) => setTimeout(r, 20));
    expect(events).toEqual([
      { enabled: true, bots: [a, b] },
      { enabled: true, bots: [a] },
      { enabled: false, bots: [a] },
    ]);
    expect((await guest.api.GET('/api/session/me')).response.status).toBe(401);
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, GUEST_PRINCIPAL_ID))).toEqual([]);
  });

  it('answers 503 when the guest principal is missing', async () => {
    t = await startTestApp();
    const admin = await setupAdmin(t);
    await setGuestMode(admin, { enabled: true });
    await t.db.delete(users).where(eq(users.id, GUEST_PRINCIPAL_ID));
    const res = await t.browser().api.POST('/api/session/guest');
    expect(res.response.status).toBe(503);
  });
});
