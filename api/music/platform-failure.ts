/**
 * A music platform's failure as the API answers it: 502, its detail `<platform>: <sentence>`. A
 * refusal of a common kind (shared/sources/http/refusals.ts: a login needed, VIP only, …) gets that
 * kind's own phrase, so every client words it in its language; any other failure keeps the generic
 * `badGateway` phrase with the sentence.
 */
import type { Platform } from '../../shared/domain/platforms';
import { say } from '../../shared/i18n/phrases';
import { countPlatformError } from '../../shared/metrics/platform-errors';
import { REFUSAL_CODES, refusalKind } from '../../shared/sources/http/refusals';
import { ApiError } from '../errors';

/** Counted here: every platform failure the api answers comes through (shared/metrics/platform-errors.ts). */
export function platformFailure(platform: Platform, sentence: string): ApiError {
  countPlatformError(platform, sentence);
  const kind = refusalKind(sentence);
  return new ApiError(502, kind ? say[REFUSAL_CODES[kind]](platform, sentence) : `${platform}: ${sentence}`);
}
