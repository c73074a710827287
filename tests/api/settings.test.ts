import { describe, expect, it } from 'vitest';
import { settings } from '../../shared/db/schema';
import { createMember, type Session, withAdminApp } from '../../testkit/accounts';
import type { TestApp } from '../../testkit/test-app';

let t: TestApp;
let admin: Session;
withAdminApp((app, session) => {
  t = app;
  admin = session;
});

/** SPEC Settings rule 4, as SPEC writes it: not the code's own constant. */
const SPEC_DEFAULT_PROVIDERS = ['music_a', 'music_b', 'video_a', 'video_b', 'music_c'];

const save = (body: Record<string, unknown>) => admin.api.POST('/api/bot/settings', { body: body as never });

describe('global settings', () => {
  it('starts from the documented defaults', async () => {
    const { data } = await admin.api.GET('/api/bot/settings');
    expect(data).toMatchObject({
      idleTimeoutMinutes: 0,
      savedQueuesEnabled: false,
      playKeepsQueue: false,
      keepUploads: false,
      voteSkipRatio: 0.5,
      enabledProviders: SPEC_DEFAULT_PROVIDERS,
      defaultPlatform: null,
      guestMode: { enabled: false, bots: 'all', permissions: { addToQueue: true, playCollection: false } },
      spotify: { hasClientSecret: false },
      jellyfin: { hasPassword: false },
    });
  });

  it('merges partially: keys not sent stay, nested objects merge', async () => {
    await save({ autoPauseOnEmpty: false, voiceDucking: { enabled: true, volumePercent: 20 } });
    await save({ voiceDucking: { volumePercent: 35 }, guestMode: { permissions: { skip: true } } });
    const { data } = await admin.api.GET('/api/bot/settings');
    expect(data).toMatchObject({
      autoPauseOnEmpty: false,
      voiceDucking: { enabled: true, volumePercent: 35 },
      guestMode: { permissions: { skip: true, addToQueue: true } },
    });
  });

  it('never returns secrets, only whether they are set', async () => {
    const res = await save({
      spotify: { clientId: 'id-1', clientSecret: 'SUPER-SECRET' },
      jellyfin: { password: 'JF-PASS' },
    });
    const text = JSON.stringify(res.data) + JSON.stringify((await admin.api.GET('/api/bot/settings')).data);
    expect(text).not.toContain('SUPER-SECRET');
    expect(text).not.toContain('JF-PASS');
    expect(res.data).toMatchObject({
      spotify: { clientId: 'id-1', hasClientSecret: true },
      jellyfin: { hasPassword: true },
    });
    const cleared = await save({ spotify: { clientSecret: '' } });
    expect(cleared.data?.spotify.hasClientSecret).toBe(false);
  });

  it('edits every field of the spotify block; the secret is kept when left out, and never shown', async () => {
    const saved = await save({
      spotify: {
        enabled: true,
        clientId: ' 0123456789abcdef0123456789abcdef ',
        clientSecret: 'spotify-app-secret',
        backend: 'librespot',
        bitrate: 160,
        deviceName: ' Deck Radio ',
      },
    });
    const stored = {
      enabled: true,
      clientId: '0123456789abcdef0123456789abcdef',
      hasClientSecret: true,
      backend: 'librespot',
      bitrate: 160,
      deviceName: 'Deck Radio',
    };
    expect(saved.data?.spotify).toEqual(stored);
    const renamed = await save({ spotify: { deviceName: 'Attic', bitrate: 96 } });
    expect(renamed.data?.spotify).toEqual({ ...stored, deviceName: 'Attic', bitrate: 96 });
    expect(JSON.stringify((await admin.api.GET('/api/bot/settings')).data)).not.toContain(
      'spotify-app-secret',
    );
  });

  it.each([
    [{ deviceName: '   ' }, /deviceName/],
    [{ bitrate: 128 }, /bitrate/],
    [{ backend: 'spotifyd' }, /backend/],
    [{ clientSecret: 'x'.repeat(257) }, /clientSecret/],
    [{ clientId: 'id', surprise: true }, /surprise|unrecognized/i],
  ])('refuses the spotify block %j with 400, changing nothing', async (spotify, why) => {
    const before = (await admin.api.GET('/api/bot/settings')).data?.spotify;
    const refused = await save({ spotify });
    expect(refused.response.status).toBe(400);
    expect(refused.error?.error).toMatch(why);
    expect((await admin.api.GET('/api/bot/settings')).data?.spotify).toEqual(before);
  });

  it('validates defaultPlatform against the resulting providers; null or "" clears it', async () => {
    const bad = await save({ defaultPlatform: 'library_a' });
    expect(bad.response.status).toBe(400);
    expect(bad.error?.error).toMatch(/^defaultPlatform: /);
    const okTogether = await save({
      enabledProviders: ['music_a', 'library_a'],
      defaultPlatform: 'library_a',
    });
    expect(okTogether.data?.defaultPlatform).toBe('library_a');
    const cleared = await save({ defaultPlatform: '' });
    expect(cleared.error).toBeUndefined();
    expect(cleared.data?.defaultPlatform).toBeNull();
    await save({ defaultPlatform: 'music_a' });
    expect((await save({ defaultPlatform: null })).data?.defaultPlatform).toBeNull();
  });

  it('clears a stored default that a new provider list no longer contains', async () => {
    await save({ enabledProviders: ['music_a', 'music_b'], defaultPlatform: 'music_b' });
    const res = await save({ enabledProviders: ['music_a'] });
    expect(res.data).toMatchObject({ enabledProviders: ['music_a'], defaultPlatform: null });
  });

  it('keeps voteSkipRatio between 0 and 1, refusing others with 400 and no change', async () => {
    expect((await save({ voteSkipRatio: 0.25 })).data?.voteSkipRatio).toBe(0.25);
    for (const bad of [1.5, -0.1, '0.5', null]) {
      const refused = await save({ voteSkipRatio: bad });
      expect(refused.response.status).toBe(400);
      expect(refused.error?.error).toMatch(/voteSkipRatio/);
    }
    expect((await admin.api.GET('/api/bot/settings')).data?.voteSkipRatio).toBe(0.25);
    expect((await save({ voteSkipRatio: 0 })).data?.voteSkipRatio).toBe(0);
  });

  it('keeps uploads as a library only when an admin turns keepUploads on', async () => {
    const member = await createMember(t, admin);
    const refused = await member.api.POST('/api/bot/settings', { body: { keepUploads: true } });
    expect(refused.response.status).toBe(403);
    const notBoolean = await save({ keepUploads: 'yes' });
    expect(notBoolean.response.status).toBe(400);
    expect(notBoolean.error?.error).toMatch(/keepUploads/);
    expect((await admin.api.GET('/api/bot/settings')).data?.keepUploads).toBe(false);

    expect((await save({ keepUploads: true })).data?.keepUploads).toBe(true);
    expect((await member.api.GET('/api/bot/settings')).data?.keepUploads).toBe(true);
    // Another key saved later leaves it as it is.
    expect((await save({ idleTimeoutMinutes: 3 })).data?.keepUploads).toBe(true);
    expect((await save({ keepUploads: false })).data?.keepUploads).toBe(false);
  });

  it('reads stored flags strictly and a legacy configuration without providers as the default list', async () => {
    await t.db.delete(settings);
    const now = new Date();
    await t.db.insert(settings).values([
      { key: 'savedQueuesEnabled', value: '"true"', updatedAt: now },
      { key: 'playKeepsQueue', value: '1', updatedAt: now },
      { key: 'keepUploads', value: '"true"', updatedAt: now },
      { key: 'autoPauseOnEmpty', value: 'not json at all', updatedAt: now },
    ]);
    const { data } = await admin.api.GET('/api/bot/settings');
    expect(data).toMatchObject({
      savedQueuesEnabled: false,
      playKeepsQueue: false,
      keepUploads: false,
      autoPauseOnEmpty: true,
      enabledProviders: SPEC_DEFAULT_PROVIDERS,
    });
    await save({ savedQueuesEnabled: true });
    expect((await admin.api.GET('/api/bot/settings')).data?.savedQueuesEnabled).toBe(true);
  });

  it('keeps an opt-in source a stored configuration enabled (internet radio, the library)', async () => {
    await t.db.delete(settings);
    await t.db.insert(settings).values({
      key: 'enabledProviders',
      value: JSON.stringify([...SPEC_DEFAULT_PROVIDERS, 'stream', 'library_a']),
      updatedAt: new Date(),
    });
    expect((await admin.api.GET('/api/bot/settings')).data?.enabledProviders).toEqual([
      ...SPEC_DEFAULT_PROVIDERS,
      'stream',
      'library_a',
    ]);
    await t.db.delete(settings);
  });

  it('needs bot.manage to change and refuses guests reading', async () => {
    const viewer = await createMember(t, admin);
    expect((await viewer.api.GET('/api/bot/settings')).response.status).toBe(200);
    expect(
      (await viewer.api.POST('/api/bot/settings', { body: { idleTimeoutMinutes: 5 } })).response.status,
    ).toBe(403);
    const manager = await createMember(t, admin, { capabilities: ['bot.manage'] });
    expect(
      (await manager.api.POST('/api/bot/settings', { body: { idleTimeoutMinutes: 5 } })).data
        ?.idleTimeoutMinutes,
    ).toBe(5);
    await save({ guestMode: { enabled: true } });
    const guest = t.browser();
    await guest.api.POST('/api/session/guest');
    expect((await guest.api.GET('/api/bot/settings')).response.status).toBe(403);
  });
});
