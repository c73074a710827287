/** Platform values as the API speaks them (SPEC), with the services' names as labels. */
import type { Schemas } from '@api/index';
import { PLATFORMS } from '@shared/domain/constants';
import { platformName } from '@shared/i18n/phrases';
import { locale, t } from '../i18n';

export type Platform = Schemas['Platform'];
export { PLATFORMS };

/** The name a person knows the platform by, in the page's language (the shared catalog's, as the API's). */
export const platformLabel = (platform: Platform): string => platformName(platform, locale.value);

export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = String(whole % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

/** How long songs last together, in minutes (hours and minutes from an hour on): a collection's length. */
export function formatLength(seconds: number): string {
  const minutes = Math.round(Math.max(0, seconds) / 60);
  return minutes >= 60
    ? t('collection.hours', { hours: Math.floor(minutes / 60), minutes: minutes % 60 })
    : t('collection.minutes', { minutes });
}
