/**
 * The settings side of /api/music through the real app: `providers` (the enabled sources and the
 * default one by SPEC's priority rule, `local` with the upload switch) and `quality` — each source's
 * default, setting one source or every enabled source that can serve a quality (naming the ones left
 * as they were), refusing a disabled source or a quality a source cannot serve, the `quality`
 * capability, and the stored value read back by a new app on the same database.
 */
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SettingsUpdate } from '../../openapi/routes/settings';
import { SETTINGS_EVENTS } from '../../shared/bus/subjects';
import { settings } from '../../shared/db/schema';
import { DEFAULT_ENABLED_PROVIDERS } from '../../shared/domain/constants';
import { receipts } from '../../shared/receipts';
import { QUALITY_SETTING } from '../../shared/settings/quality';
import { createMember, login, type Session, withAdminApp } from '../../testkit/accounts';
import { startTestApp, type TestApp } from '../../testkit/test-app';

let t: TestApp;
let admin: Session;
withAdminApp((app, session) => {
  t = app;
  admin = session;
});

const DEFAULT_QUALITY = {
  music_a: 'exhigh',
  music_b: 'exhigh',
  video_a: 'exhigh',
  local: 'direct',
  music_c: 'exhigh',
  streaming_a: 'exhigh',
  library_a: 'direct',
};

const changeSettings = async (body: SettingsUpdate) => {
  const { response } = await admin.api.POST('/api/bot/settings', { body });
  expect(response.status).toBe(200);
};

describe('GET /api/music/providers', () => {
  afterEach(() =>
    changeSettings({
      enabledProviders: [...DEFAULT_ENABLED_PROVIDERS],
      defaultPlatform: null,
      localAudioEnabled: true,
    }),
  );

  it("answers SPEC's default providers, music_a first, and local while uploads are on", async () => {
    const { data, response } = await admin.api.GET('/api/music/providers');
    expect(response.status).toBe(200);
    expect(data).toEqual({
      enabled: ['music_a', 'music_b', 'video_a', 'video_b', 'music_c', 'local'],
      default: 'music_a',
    });
  });

  it('lists internet radio (stream) only once an admin enables it, and never as the default', async () => {
    await changeSettings({ enabledProviders: [...DEFAULT_ENABLED_PROVIDERS, 'stream'] });
    expect((await admin.api.GET('/api/music/providers')).data).toEqual({
      enabled: ['music_a', 'music_b', 'video_a', 'video_b', 'music_c', 'stream', 'local'],
      default: 'music_a',
    });
  });

  it('lists local exactly when localAudioEnabled is on, so a local default is always an enabled one', async () => {
    await changeSettings({ defaultPlatform: 'local' });
    expect((await admin.api.GET('/api/music/providers')).data).toEqual({
      enabled: [...DEFAULT_ENABLED_PROVIDERS, 'local'],
      default: 'local',
    });
    await changeSettings({ defaultPlatform: null, localAudioEnabled: false });
    expect((await admin.api.GET('/api/music/providers')).data).toEqual({
      enabled: [...DEFAULT_ENABLED_PROVIDERS],
      default: 'music_a',
    });
  });

  it('answers the configured default source', async () => {
    await changeSettings({ defaultPlatform: 'video_a' });
    expect((await admin.api.GET('/api/music/providers')).data?.default).toBe('video_a');
  });

  it('without a default, picks the first enabled source in the fixed priority order', async () => {
    await changeSettings({ enabledProviders: ['video_b', 'video_a', 'library_a'] });
    expect((await admin.api.GET('/api/music/providers')).data).toEqual({
      enabled: ['video_b', 'video_a', 'library_a', 'local'],
      default: 'library_a',
    });
    // A new provider list without the stored default clears it: the priority rule decides again.
    await changeSettings({ defaultPlatform: 'video_b' });
    await changeSettings({ enabledProviders: ['video_a', 'music_c'] });
    expect((await admin.api.GET('/api/music/providers')).data?.default).toBe('music_c');
  });

  it('answers a null default when no source is enabled', async () => {
    await changeSettings({ enabledProviders: [], localAudioEnabled: false });
    expect((await admin.api.GET('/api/music/providers')).data).toEqual({ enabled: [], default: null });
  });
});

describe('/api/music/quality', () => {
  afterEach(() => t.db.delete(settings).where(eq(settings.key, QUALITY_SETTING)));

  it("answers each source's default quality", async () => {
    const { data, response } = await admin.api.GET('/api/music/quality');
    expect(response.status).toBe(200);
    expect(data).toEqual(DEFAULT_QUALITY);
  });

  it('sets one source, stores it and announces the change', async () => {
    const events: unknown[] = [];
    const listening = t.bus.subscribe(SETTINGS_EVENTS, (event) => events.push(event));
    const { data, response } = await admin.api.POST('/api/music/quality', {
      body: { quality: 'lossless', platform: 'music_b' },
    });
    expect(response.status).toBe(200);
    const expected = { ...DEFAULT_QUALITY, music_b: 'lossless' };
    expect(data).toEqual({ success: true, quality: expected, skipped: [] });
    expect((await admin.api.GET('/api/music/quality')).data).toEqual(expected);
    await vi.waitFor(() => expect(events).toContainEqual({ keys: ['quality'] }));
    listening.unsubscribe();
  });

  it('without a platform, sets every enabled source that can serve the quality and names the others', async () => {
    // The defaults: streaming_a and library_a are not enabled; local serves only `direct`.
    const standard = await admin.api.POST('/api/music/quality', { body: { quality: 'standard' } });
    expect(standard.data).toEqual({
      success: true,
      quality: {
        music_a: 'standard',
        music_b: 'standard',
        video_a: 'standard',
        local: 'direct',
        music_c: 'standard',
        streaming_a: 'exhigh',
        library_a: 'direct',
      },
      skipped: ['library_a', 'local', 'streaming_a'],
    });
    const hires = await admin.api.POST('/api/music/quality', { body: { quality: 'hires' } });
    expect(hires.data?.quality).toMatchObject({ music_a: 'hires', music_c: 'hires', music_b: 'standard' });
    expect(hires.data?.skipped).toEqual(['music_b', 'video_a', 'library_a', 'local', 'streaming_a']);
    await changeSettings({ enabledProviders: [...DEFAULT_ENABLED_PROVIDERS, 'library_a'] });
    const standardAgain = await admin.api.POST('/api/music/quality', { body: { quality: 'standard' } });
    expect(standardAgain.data?.quality.library_a).toBe('standard');
    await changeSettings({ enabledProviders: [...DEFAULT_ENABLED_PROVIDERS] });
  });

  it('refuses with 400 a named source that is not enabled, and changes nothing', async () => {
    for (const platform of ['streaming_a', 'library_a'] as const) {
      const { error, response } = await admin.api.POST('/api/music/quality', {
        body: { quality: 'standard', platform },
      });
      expect([response.status, error]).toEqual([
        400,
        expect.objectContaining({ error: receipts.sourceNotEnabled(platform) }),
      ]);
    }
    await changeSettings({ localAudioEnabled: false });
    const local = await admin.api.POST('/api/music/quality', {
      body: { quality: 'direct', platform: 'local' },
    });
    expect(local.response.status).toBe(400);
    // With the only source that serves it off, a quality for all is refused too.
    const all = await admin.api.POST('/api/music/quality', { body: { quality: 'direct' } });
    expect([all.response.status, all.error]).toEqual([
      400,
      expect.objectContaining({ error: 'quality: no enabled source serves direct' }),
    ]);
    await changeSettings({ localAudioEnabled: true });
    expect((await admin.api.GET('/api/music/quality')).data).toEqual(DEFAULT_QUALITY);
  });

  it('refuses with 400 a quality the source cannot serve, and changes nothing', async () => {
    const direct = await admin.api.POST('/api/music/quality', {
      body: { quality: 'direct', platform: 'music_a' },
    });
    expect(direct.response.status).toBe(400);
    expect(direct.error).toMatchObject({
      error: 'quality: music_a serves exhigh, standard, higher, lossless, hires, master, not direct',
    });
    const hires = await admin.api.POST('/api/music/quality', {
      body: { quality: 'hires', platform: 'music_b' },
    });
    expect(hires.response.status).toBe(400);
    expect(hires.error).toMatchObject({
      error: 'quality: music_b serves exhigh, standard, higher, lossless, not hires',
    });
    expect((await admin.api.GET('/api/music/quality')).data).toEqual(DEFAULT_QUALITY);
  });

  it('refuses with 400 a quality that is not one', async () => {
    const { response } = await admin.api.POST('/api/music/quality', { body: { quality: 'loud' as never } });
    expect(response.status).toBe(400);
  });

  it('refuses a member without the quality capability with 403; one with it may set it', async () => {
    const basic = await createMember(t, admin);
    expect((await basic.api.GET('/api/music/quality')).data).toEqual(DEFAULT_QUALITY);
    const refused = await basic.api.POST('/api/music/quality', { body: { quality: 'standard' } });
    expect(refused.response.status).toBe(403);
    expect((await admin.api.GET('/api/music/quality')).data).toEqual(DEFAULT_QUALITY);
    const trusted = await createMember(t, admin, { capabilities: ['quality'] });
    const allowed = await trusted.api.POST('/api/music/quality', {
      body: { quality: 'higher', platform: 'video_a' },
    });
    expect(allowed.response.status).toBe(200);
  });

  it('is read back by a new app on the same database (restored at startup)', async () => {
    await admin.api.POST('/api/music/quality', { body: { quality: 'master', platform: 'music_a' } });
    const restarted = await startTestApp({ env: { DATA_DIR: t.dataDir }, withDaemon: false });
    try {
      const again = await login(restarted, admin.username);
      expect((await again.api.GET('/api/music/quality')).data).toEqual({
        ...DEFAULT_QUALITY,
        music_a: 'master',
      });
    } finally {
      await restarted.close();
    }
  });
});
