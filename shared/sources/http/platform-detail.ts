/**
 * The detail of a platform's failure as the API words it: `<platform>: <sentence>` (the platform's
 * value, then what its adapter said; api/music/platform-failure.ts, `refused` in shared/i18n/phrases.ts).
 * Clients that speak to people (the web page, the chat) split it to name the service by the name people
 * know instead of the value. Pure: the web bundle imports it.
 */
import { PLATFORMS, type Platform } from '../../domain/platforms';

const isPlatform = (value: string): value is Platform => (PLATFORMS as readonly string[]).includes(value);

/** The platform and its adapter's sentence, or undefined when `detail` is not a platform's failure. */
export function splitPlatformDetail(detail: string): { platform: Platform; reason: string } | undefined {
  const match = /^(\w+): (.+)$/s.exec(detail);
  const platform = match?.[1];
  const reason = match?.[2];
  return platform && reason && isPlatform(platform) ? { platform, reason } : undefined;
}
