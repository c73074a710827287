/** The platform a request uses, by SPEC "Platform values" rules 1-4 (the HTTP side: tests/api/settings.test.ts). */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENABLED_PROVIDERS, type Platform } from '../domain/constants';
import { choosePlatform, isPlatformEnabled } from './platform-choice';

function settings(
  enabledProviders: readonly Platform[],
  defaultPlatform: Platform | null = null,
  localAudioEnabled = true,
) {
  return { enabledProviders: [...enabledProviders], defaultPlatform, localAudioEnabled };
}

describe('choosePlatform', () => {
  it('takes the requested platform when it is enabled, whatever the default says', () => {
    expect(choosePlatform(settings(['music_a', 'music_b'], 'music_a'), 'music_b')).toEqual({
      ok: true,
      value: 'music_b',
    });
  });

  it('refuses a requested platform that is disabled, without falling back', () => {
    expect(choosePlatform(settings(['music_a']), 'video_a')).toEqual({
      ok: false,
      error: { kind: 'not-enabled', platform: 'video_a' },
    });
  });

  it('uses the configured default when none is requested and the default is enabled', () => {
    expect(choosePlatform(settings(['music_a', 'video_b'], 'video_b'), undefined)).toEqual({
      ok: true,
      value: 'video_b',
    });
  });

  it('passes over a disabled default to the first enabled platform in priority order', () => {
    // The list order does not matter: music_c comes before video_a in the fixed priority order.
    expect(choosePlatform(settings(['video_a', 'music_c'], 'music_a'), undefined)).toEqual({
      ok: true,
      value: 'music_c',
    });
  });

  it('falls back in priority order when no default is set', () => {
    expect(choosePlatform(settings(DEFAULT_ENABLED_PROVIDERS), undefined)).toEqual({
      ok: true,
      value: 'music_a',
    });
    expect(choosePlatform(settings(['video_b', 'library_a', 'video_a']), undefined)).toEqual({
      ok: true,
      value: 'library_a',
    });
  });

  it('enables local through localAudioEnabled, not the provider list', () => {
    expect(choosePlatform(settings([], null, true), 'local')).toEqual({ ok: true, value: 'local' });
    expect(choosePlatform(settings(['local'], null, false), 'local')).toEqual({
      ok: false,
      error: { kind: 'not-enabled', platform: 'local' },
    });
    expect(choosePlatform(settings(['music_b'], 'local', true), undefined)).toEqual({
      ok: true,
      value: 'local',
    });
    expect(choosePlatform(settings(['music_b'], 'local', false), undefined)).toEqual({
      ok: true,
      value: 'music_b',
    });
  });

  it('reports that nothing is enabled when no platform can be chosen', () => {
    expect(choosePlatform(settings([]), undefined)).toEqual({ ok: false, error: { kind: 'none-enabled' } });
    // streaming_a and local are never a fallback: they are not in the priority order.
    expect(choosePlatform(settings(['streaming_a'], null, true), undefined)).toEqual({
      ok: false,
      error: { kind: 'none-enabled' },
    });
  });
});

describe('isPlatformEnabled', () => {
  it('reads the provider list for every platform but local', () => {
    const s = settings(['music_a', 'streaming_a'], null, false);
    expect(isPlatformEnabled(s, 'music_a')).toBe(true);
    expect(isPlatformEnabled(s, 'streaming_a')).toBe(true);
    expect(isPlatformEnabled(s, 'music_b')).toBe(false);
    expect(isPlatformEnabled(s, 'local')).toBe(false);
  });
});
