/**
 * SPEC Player rule 8 end to end: a member links their own NetEase account through
 * /api/me/music/music_a (QR code), and FM they start on a connected bot through REST asks NetEase's
 * radio with that account's cookie; another member's FM, and chat `!fm`, use the shared login.
 * The radio's song URLs point at a loopback tone server so the bot really plays.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { platformAccounts } from '../../shared/db/schema';
import { cookieValues } from '../../shared/sources/http/cookies';
import { createMember, type Session } from '../../testkit/accounts';
import type { TestApp } from '../../testkit/test-app';
import { chatFor } from '../helpers/chat';
import { fmSongUrls } from '../helpers/fm-song-urls';
import { useNeteaseApi } from '../helpers/netease-api';
import { LISTENER, useNeteaseLoginApi } from '../helpers/netease-login-api';
import { useVoicePlayback } from '../helpers/voice-app';

const SECRET = vi.hoisted(() => 'PinnedFmLinking1');
vi.mock(import('../../shared/sources/netease/weapi'), async (importOriginal) =>
  (await import('../helpers/weapi-pin')).weapiPinnedTo(SECRET, await importOriginal()),
);

// The login stand-in first: the data stand-in's catch-all would otherwise take the login paths.
const login = useNeteaseLoginApi(SECRET);
const api = useNeteaseApi();
const SHARED_COOKIE = 'MUSIC_U=shared_bot_login; __csrf=sharedcsrf';
let t: TestApp;
let admin: Session;
let alice: Session;
let bob: Session;
let botId: string;
const playback = useVoicePlayback({ name: 'Linked FM', nickname: 'Linked FM Bot' });

beforeAll(async () => {
  ({ t, admin, botId } = playback.app);
  await t.db
    .insert(platformAccounts)
    .values({ platform: 'music_a', credential: SHARED_COOKIE, updatedAt: new Date() });
  alice = await createMember(t, admin, { capabilities: ['player.control'], bots: 'all' });
  bob = await createMember(t, admin, { capabilities: ['player.control'], bots: 'all' });
});

function answerSongUrls() {
  api.answer('/xeapi/song/enhance/player/url/v1', fmSongUrls(playback.cdn.baseUrl));
}

/** The MUSIC_U of each radio request, in order. */
const radioLogins = () =>
  api.requests
    .filter((r) => r.path === '/weapi/v1/radio/get')
    .map((r) => cookieValues(r.cookie ?? '').get('MUSIC_U'));
const fm = (session: Session) =>
  session.api.POST('/api/player/{botId}/fm', { params: { path: { botId } }, body: {} });

describe("FM as the caller's linked account", () => {
  it('links Alice by QR code and plays her FM with her cookie, Bob and chat with the shared one', async () => {
    const started = await admin.api.POST('/api/bot/{id}/start', { params: { path: { id: botId } } });
    expect(started.data).toMatchObject({ connected: true });

    const qr = await alice.api.POST('/api/me/music/music_a/qrcode');
    const unikey = login.lastUnikey();
    login.addAccount('alice_own_account', { ...LISTENER, nickname: 'Alice' });
    login.confirm(unikey, 'alice_own_account');
    const linked = await alice.api.GET('/api/me/music/music_a/qrcode/status', {
      params: { query: { key: qr.data!.key } },
    });
    expect(linked.data).toEqual({ status: 'confirmed' });

    answerSongUrls();
    const aliceFm = await fm(alice);
    expect(aliceFm.data).toMatchObject({ ok: true });
    expect(radioLogins()).toEqual(['alice_own_account']);
    await expect.poll(() => playback.cdn.requests.length, { timeout: 15_000 }).toBeGreaterThan(0);

    answerSongUrls();
    expect((await fm(bob)).data).toMatchObject({ ok: true });
    expect(radioLogins()).toEqual(['alice_own_account', 'shared_bot_login']);

    answerSongUrls();
    await chatFor(t, botId).handle('!fm', { nickname: 'Listener', uid: 'listener-uid', serverGroups: [8] });
    expect(radioLogins()).toEqual(['alice_own_account', 'shared_bot_login', 'shared_bot_login']);

    // Unlinked, Alice's FM is the shared account's again.
    await alice.api.DELETE('/api/me/music/music_a');
    answerSongUrls();
    await fm(alice);
    expect(radioLogins().at(-1)).toBe('shared_bot_login');
  });
});
