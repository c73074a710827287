/**
 * Which platform a request uses (SPEC.md "Platform values"): the one asked for if it is enabled;
 * otherwise the configured default if enabled; otherwise the first enabled one in the fixed priority
 * order. `local` is enabled by `localAudioEnabled` rather than by the provider list (its registry row).
 */
import { DEFAULT_PLATFORM_PRIORITY, type Platform, platformFacts } from '../domain/platforms';
import { err, ok, type Result } from '../result';
import type { StoredSettings } from '../settings/settings';

export type PlatformChoiceError = { kind: 'not-enabled'; platform: Platform } | { kind: 'none-enabled' };

export function isPlatformEnabled(
  settings: Pick<StoredSettings, 'enabledProviders' | 'localAudioEnabled'>,
  platform: Platform,
): boolean {
  return platformFacts(platform).switchedBy === 'localAudioEnabled'
    ? settings.localAudioEnabled
    : settings.enabledProviders.includes(platform);
}

export function choosePlatform(
  settings: Pick<StoredSettings, 'enabledProviders' | 'localAudioEnabled' | 'defaultPlatform'>,
  requested: Platform | undefined,
): Result<Platform, PlatformChoiceError> {
  if (requested)
    return isPlatformEnabled(settings, requested)
      ? ok(requested)
      : err({ kind: 'not-enabled', platform: requested });
  if (settings.defaultPlatform && isPlatformEnabled(settings, settings.defaultPlatform))
    return ok(settings.defaultPlatform);
  const fallback = DEFAULT_PLATFORM_PRIORITY.find((p) => settings.enabledProviders.includes(p));
  return fallback ? ok(fallback) : err({ kind: 'none-enabled' });
}
