/** The bearer token (`METRICS_TOKEN`) a scraper reads `/metrics` with, on the api and on a daemon's listener. */
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether `authorization` is `Bearer <token>`; compared in constant time, whatever its length. */
export function bearsMetricsToken(authorization: string | undefined, token: string | undefined): boolean {
  const given = authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  return token !== undefined && given !== undefined && timingSafeEqual(digest(given), digest(token));
}
