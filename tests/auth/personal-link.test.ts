/**
 * /api/me/music/music_a: each account links its own NetEase account by QR code, sees and removes only
 * its own link, never touches the shared login, and loses the link with the account.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { personalLinks, platformAccounts } from '../../shared/db/schema';
import { createMember, type Session, withAdminApp } from '../../testkit/accounts';
import type { TestApp } from '../../testkit/test-app';
import { LISTENER, useNeteaseLoginApi } from '../helpers/netease-login-api';

const SECRET = vi.hoisted(() => 'PinnedPersonal16');
vi.mock(import('../../shared/sources/netease/weapi'), async (importOriginal) =>
  (await import('../helpers/weapi-pin')).weapiPinnedTo(SECRET, await importOriginal()),
);

const netease = useNeteaseLoginApi(SECRET);
let t: TestApp;
let admin: Session;
withAdminApp((app, session) => {
  t = app;
  admin = session;
});

const poll = (session: Session, key: string) =>
  session.api.GET('/api/me/music/music_a/qrcode/status', { params: { query: { key } } });
const linkOf = (userId: string) =>
  t.db.query.personalLinks.findFirst({ where: eq(personalLinks.userId, userId) });

/** Walks a personal QR code to confirmation as `musicU`'s account. */
async function link(session: Session, musicU: string, nickname: string) {
  const started = await session.api.POST('/api/me/music/music_a/qrcode');
  expect(started.response.status).toBe(200);
  const unikey = netease.lastUnikey();
  expect(started.data).toMatchObject({ qrUrl: `https://music.163.com/login?codekey=${unikey}` });
  expect(started.data?.qrImg).toMatch(/^data:image\/png;base64,/);
  expect((await poll(session, started.data!.key)).data).toEqual({ status: 'waiting' });
  netease.scan(unikey);
  expect((await poll(session, started.data!.key)).data).toEqual({ status: 'scanned' });
  netease.addAccount(musicU, { ...LISTENER, nickname });
  netease.confirm(unikey, musicU);
  expect((await poll(session, started.data!.key)).data).toEqual({ status: 'confirmed' });
  return started.data!.key;
}

describe('personal music_a link', () => {
  it('links the caller only; another account and the shared poll cannot see the attempt', async () => {
    const alice = await createMember(t, admin);
    const bob = await createMember(t, admin);
    const started = await alice.api.POST('/api/me/music/music_a/qrcode');
    const key = started.data!.key;
    expect((await poll(bob, key)).response.status).toBe(404);
    const shared = await admin.api.GET('/api/auth/qrcode/status', {
      params: { query: { key, platform: 'music_a' } },
    });
    expect(shared.response.status).toBe(404);
    expect((await poll(alice, 'unknown-key')).response.status).toBe(404);

    const unikey = netease.lastUnikey();
    netease.addAccount('alice_music_u', { ...LISTENER, nickname: 'Alice Listens' });
    netease.confirm(unikey, 'alice_music_u');
    // Bob polling Alice's confirmed code still learns nothing, and links nothing.
    expect((await poll(bob, key)).response.status).toBe(404);
    expect((await poll(alice, key)).data).toEqual({ status: 'confirmed' });

    expect(await linkOf(alice.id)).toMatchObject({ platform: 'music_a', nickname: 'Alice Listens' });
    expect((await linkOf(alice.id))?.credential).toContain('MUSIC_U=alice_music_u');
    expect(await linkOf(bob.id)).toBeUndefined();
    expect(
      await t.db.query.platformAccounts.findFirst({ where: eq(platformAccounts.platform, 'music_a') }),
    ).toBeUndefined();

    expect((await alice.api.GET('/api/me/music/music_a/status')).data).toEqual({
      linked: true,
      loggedIn: true,
      nickname: 'Alice Listens',
      avatarUrl: LISTENER.avatarUrl,
    });
    expect((await bob.api.GET('/api/me/music/music_a/status')).data).toEqual({
      linked: false,
      loggedIn: false,
    });
  });

  it('shows a link NetEase no longer accepts as linked but logged out; unlinks only the caller', async () => {
    const carol = await createMember(t, admin);
    const dave = await createMember(t, admin);
    await link(carol, 'carol_music_u', 'Carol');
    await link(dave, 'dave_music_u', 'Dave');
    netease.forget('carol_music_u');
    expect((await carol.api.GET('/api/me/music/music_a/status')).data).toEqual({
      linked: true,
      loggedIn: false,
    });

    expect((await carol.api.DELETE('/api/me/music/music_a')).data).toEqual({ ok: true });
    expect(await linkOf(carol.id)).toBeUndefined();
    expect(await linkOf(dave.id)).toMatchObject({ nickname: 'Dave' });
    expect((await carol.api.DELETE('/api/me/music/music_a')).data).toEqual({ ok: true });
  });

  it('removes the link with the account', async () => {
    const erin = await createMember(t, admin);
    await link(erin, 'erin_music_u', 'Erin');
    expect(await linkOf(erin.id)).toBeDefined();
    const deleted = await admin.api.DELETE('/api/users/{id}', { params: { path: { id: erin.id } } });
    expect(deleted.response.status).toBe(204);
    expect(await linkOf(erin.id)).toBeUndefined();
  });

  it('refuses guests', async () => {
    await admin.api.POST('/api/bot/settings', { body: { guestMode: { enabled: true } } });
    const guest = t.browser();
    await guest.api.POST('/api/session/guest');
    expect((await guest.api.GET('/api/me/music/music_a/status')).response.status).toBe(403);
    expect((await guest.api.POST('/api/me/music/music_a/qrcode')).response.status).toBe(403);
    expect((await guest.api.DELETE('/api/me/music/music_a')).response.status).toBe(403);
    const polled = await guest.api.GET('/api/me/music/music_a/qrcode/status', {
      params: { query: { key: 'k' } },
    });
    expect(polled.response.status).toBe(403);
  });
});
