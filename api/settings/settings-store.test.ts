/**
 * The merge rules of POST /api/bot/settings and the secret-free public form, without the HTTP layer
 * (tests/api/settings.test.ts covers the same through the app).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENABLED_PROVIDERS } from '../../shared/domain/constants';
import { normalizeGuestMode } from '../../shared/settings/guest-mode';
import { PLATFORM_SETTINGS, type StoredSettings } from '../../shared/settings/settings';
import { ApiError } from '../errors';
import { mergeSettings, publicSettings } from './settings-store';

/** The platforms' settings as their slices read an empty store: every platform's defaults. */
const platformDefaults = Object.fromEntries(
  PLATFORM_SETTINGS.map((slice) => [slice.key, slice.reader.parse(undefined)]),
) as Pick<StoredSettings, (typeof PLATFORM_SETTINGS)[number]['key']>;

/** Stored settings with made-up values; `overrides` replaces whole keys. */
function stored(overrides: Partial<StoredSettings> = {}): StoredSettings {
  return {
    idleTimeoutMinutes: 0,
    autoPauseOnEmpty: true,
    localAudioEnabled: true,
    keepUploads: false,
    voiceDucking: { enabled: false, volumePercent: 30 },
    savedQueuesEnabled: false,
    playKeepsQueue: false,
    adminGroups: [],
    voteSkipRatio: 0.5,
    enabledProviders: [...DEFAULT_ENABLED_PROVIDERS],
    defaultPlatform: null,
    guestMode: normalizeGuestMode(undefined),
    ...platformDefaults,
    spotify: { ...platformDefaults.spotify, enabled: true, bitrate: 160, deviceName: 'Lounge' },
    ...overrides,
  };
}

describe('mergeSettings', () => {
  it('keeps every key the update leaves out', () => {
    const current = stored({ idleTimeoutMinutes: 15, adminGroups: [6], defaultPlatform: 'music_b' });
    expect(mergeSettings(current, {})).toEqual(current);
    expect(mergeSettings(current, { autoPauseOnEmpty: false })).toEqual({
      ...current,
      autoPauseOnEmpty: false,
    });
  });

  it('does not change the settings it was given', () => {
    const current = stored();
    const before = structuredClone(current);
    mergeSettings(current, { voiceDucking: { enabled: true }, enabledProviders: ['music_a'] });
    expect(current).toEqual(before);
  });

  it('merges nested objects one level, and guest permissions two', () => {
    const current = stored({
      voiceDucking: { enabled: true, volumePercent: 20 },
      spotify: { ...stored().spotify, clientId: 'id-1', clientSecret: 'kept-secret' },
    });
    const next = mergeSettings(current, {
      voiceDucking: { volumePercent: 35 },
      spotify: { bitrate: 96 },
      jellyfin: { username: 'listener' },
      guestMode: { enabled: true, permissions: { skip: true } },
    });
    expect(next.voiceDucking).toEqual({ enabled: true, volumePercent: 35 });
    expect(next.spotify).toMatchObject({ clientId: 'id-1', clientSecret: 'kept-secret', bitrate: 96 });
    expect(next.jellyfin).toEqual({
      serverUrl: '',
      authMode: 'password',
      username: 'listener',
      password: '',
    });
    expect(next.guestMode).toEqual({
      enabled: true,
      bots: 'all',
      permissions: { ...current.guestMode.permissions, skip: true },
    });
  });

  it('replaces lists whole and drops repeated providers', () => {
    const next = mergeSettings(stored({ adminGroups: [6, 7] }), {
      adminGroups: [9],
      enabledProviders: ['music_b', 'music_a', 'music_b'],
    });
    expect(next.adminGroups).toEqual([9]);
    expect(next.enabledProviders).toEqual(['music_b', 'music_a']);
  });

  it('validates defaultPlatform against the providers the update leaves', () => {
    expect(() => mergeSettings(stored(), { defaultPlatform: 'library_a' })).toThrow(
      new ApiError(400, 'defaultPlatform: library_a is not one of the enabled providers'),
    );
    const together = mergeSettings(stored(), {
      enabledProviders: ['music_a', 'library_a'],
      defaultPlatform: 'library_a',
    });
    expect(together.defaultPlatform).toBe('library_a');
    expect(() =>
      mergeSettings(stored(), { enabledProviders: ['music_a'], defaultPlatform: 'music_b' }),
    ).toThrow(/^defaultPlatform: music_b/);
  });

  it('validates a local default against localAudioEnabled', () => {
    expect(mergeSettings(stored(), { defaultPlatform: 'local' }).defaultPlatform).toBe('local');
    expect(() => mergeSettings(stored(), { localAudioEnabled: false, defaultPlatform: 'local' })).toThrow(
      ApiError,
    );
  });

  it('clears defaultPlatform on null or ""', () => {
    const current = stored({ defaultPlatform: 'music_b' });
    expect(mergeSettings(current, { defaultPlatform: null }).defaultPlatform).toBeNull();
    expect(mergeSettings(current, { defaultPlatform: '' }).defaultPlatform).toBeNull();
  });

  it('clears a stored default that the new provider list drops, and keeps one it still holds', () => {
    const current = stored({ enabledProviders: ['music_a', 'music_b'], defaultPlatform: 'music_b' });
    expect(mergeSettings(current, { enabledProviders: ['music_a'] })).toMatchObject({
      enabledProviders: ['music_a'],
      defaultPlatform: null,
    });
    expect(mergeSettings(current, { enabledProviders: ['music_b'] }).defaultPlatform).toBe('music_b');
    const local = stored({ defaultPlatform: 'local' });
    expect(mergeSettings(local, { localAudioEnabled: false }).defaultPlatform).toBeNull();
  });
});

describe('publicSettings', () => {
  it('hides the secrets and says only whether they are set', () => {
    const withSecrets = stored({
      spotify: { ...stored().spotify, clientId: 'id-1', clientSecret: 'SUPER-SECRET' },
      jellyfin: {
        serverUrl: 'https://media.example',
        authMode: 'password',
        username: 'u',
        password: 'JF-PASS',
      },
    });
    const shown = publicSettings(withSecrets);
    expect(JSON.stringify(shown)).not.toMatch(/SUPER-SECRET|JF-PASS/);
    expect(shown.spotify).not.toHaveProperty('clientSecret');
    expect(shown.jellyfin).not.toHaveProperty('password');
    expect(shown.spotify).toMatchObject({ clientId: 'id-1', hasClientSecret: true });
    expect(shown.jellyfin).toMatchObject({
      serverUrl: 'https://media.example',
      username: 'u',
      hasPassword: true,
    });
  });

  it('says a secret is unset when it is empty, and passes the other settings through', () => {
    const shown = publicSettings(stored({ idleTimeoutMinutes: 5 }));
    expect(shown.spotify.hasClientSecret).toBe(false);
    expect(shown.jellyfin.hasPassword).toBe(false);
    expect(shown.idleTimeoutMinutes).toBe(5);
    expect(shown.enabledProviders).toEqual([...DEFAULT_ENABLED_PROVIDERS]);
  });
});
