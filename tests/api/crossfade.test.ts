/**
 * The crossfade setting through the REST API and its daemon: `POST /api/player/{botId}/crossfade
 * {seconds}` takes a whole number of seconds 0-12, stores it with the bot and shows it in the status;
 * anything else is a 400 naming the field, and nothing is stored. Who may set it: as the volume.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bots } from '../../shared/db/schema';
import { receipts } from '../../shared/receipts';
import { insertBot, type Session, setupAdmin } from '../../testkit/accounts';
import { startTestApp, TEST_ORIGIN, type TestApp } from '../../testkit/test-app';

let t: TestApp;
let admin: Session;
let botId: string;
beforeAll(async () => {
  t = await startTestApp();
  admin = await setupAdmin(t);
  botId = await insertBot(t);
});
afterAll(() => t.close());

const bot = () => ({ params: { path: { botId } } });
const stored = async () => (await t.db.query.bots.findFirst({ where: eq(bots.id, botId) }))?.crossfadeSeconds;
const statusSeconds = async () =>
  (await admin.api.GET('/api/player/{botId}/queue', bot())).data?.status.crossfadeSeconds;

describe('the crossfade setting', () => {
  it('is 0 (gapless) for a new bot', async () => {
    expect(await stored()).toBe(0);
    expect(await statusSeconds()).toBe(0);
  });

  it('is stored with the bot, shown in the status and answered with a receipt', async () => {
    const set = await admin.api.POST('/api/player/{botId}/crossfade', { ...bot(), body: { seconds: 6 } });
    expect(set.response.status).toBe(200);
    expect(set.data).toEqual({
      message: 'Crossfade is 6 s: the next song starts under the end of the one playing.',
      code: 'crossfadeOn',
      params: { seconds: 6 },
    });
    expect(await stored()).toBe(6);
    expect(await statusSeconds()).toBe(6);

    const longest = await admin.api.POST('/api/player/{botId}/crossfade', {
      ...bot(),
      body: { seconds: 12 },
    });
    expect(longest.data?.message).toBe(receipts.crossfadeOn(12));
    const off = await admin.api.POST('/api/player/{botId}/crossfade', { ...bot(), body: { seconds: 0 } });
    expect(off.data?.message).toBe('Crossfade is off: each song follows the last without a gap.');
    expect(await stored()).toBe(0);
    expect(await statusSeconds()).toBe(0);
  });

  const send = async (body: string) => {
    const res = await t.fetch(
      new Request(`${TEST_ORIGIN}/api/player/${botId}/crossfade`, {
        method: 'POST',
        headers: { cookie: admin.jar.header()!, 'content-type': 'application/json' },
        body,
      }),
    );
    return { status: res.status, body: (await res.json()) as { error?: string } };
  };

  it.each([
    ['{"seconds":13}', 'seconds: seconds must be a whole number from 0 to 12'],
    ['{"seconds":-1}', 'seconds: seconds must be a whole number from 0 to 12'],
    ['{"seconds":2.5}', 'seconds: seconds must be a whole number from 0 to 12'],
    ['{"seconds":"3"}', /^seconds: /],
    ['{"seconds":null}', /^seconds: /],
    ['{}', /^seconds: /],
    ['{"seconds":3,"fade":"linear"}', /fade/],
  ])('refuses %s with a 400 naming the field, and stores nothing', async (body, error) => {
    await admin.api.POST('/api/player/{botId}/crossfade', { ...bot(), body: { seconds: 4 } });
    const res = await send(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(error);
    expect(await stored()).toBe(4);
  });

  it('is refused without a session, and to guests unless they may use the transport', async () => {
    const anonymous = await t.anonymous().POST('/api/player/{botId}/crossfade', {
      ...bot(),
      body: { seconds: 3 },
    });
    expect(anonymous.response.status).toBe(401);
    const guestMode = (permissions: { transport: boolean }) =>
      admin.api.POST('/api/bot/settings', {
        body: { guestMode: { enabled: true, bots: 'all', permissions } },
      });
    expect((await guestMode({ transport: false })).response.status).toBe(200);
    const guest = t.browser();
    expect((await guest.api.POST('/api/session/guest')).response.status).toBe(200);
    const refused = await guest.api.POST('/api/player/{botId}/crossfade', { ...bot(), body: { seconds: 3 } });
    expect(refused.response.status).toBe(403);
    expect(await stored()).toBe(4);
    await guestMode({ transport: true });
    const allowed = await guest.api.POST('/api/player/{botId}/crossfade', { ...bot(), body: { seconds: 3 } });
    expect(allowed.response.status).toBe(200);
    expect(await stored()).toBe(3);
  });
});
