/**
 * `ts3bot_platform_request_errors_total{platform,kind}`: music platform calls that failed, counted
 * where a failure becomes an answer (the api's 502, a daemon's unplayable song), by the kind its
 * sentence says (shared/sources/http: never answered, or a refusal of a common kind), so the label's
 * values are a short fixed list.
 */
import { Counter } from 'prom-client';
import type { Platform } from '../domain/platforms';
import { refusalKind } from '../sources/http/refusals';
import { saysUnreachable } from '../sources/http/unreachable';
import { threadRegistry } from './exposition';

const platformErrors = new Counter({
  name: 'ts3bot_platform_request_errors_total',
  help: 'Music platform calls that failed, by platform and kind (unreachable, a refusal kind, or other)',
  labelNames: ['platform', 'kind'] as const,
  registers: [threadRegistry],
});

export function countPlatformError(platform: Platform, sentence: string): void {
  const kind = saysUnreachable(sentence) ? 'unreachable' : (refusalKind(sentence) ?? 'other');
  platformErrors.inc({ platform, kind });
}
