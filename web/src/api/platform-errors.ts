/**
 * A music platform's failure in plain words. The API sends it as a 502 or 503 phrase whose detail is
 * "<platform>: <sentence>" (api/music: the platform's value, then what its adapter said), e.g.
 * "<value>: <the service's name> could not be reached (fetch failed)": a refusal of a common kind with
 * that kind's phrase (`platformLoginNeeded`, …, worded from the shared catalog), any other failure as
 * `badGateway` or `serviceUnavailable`. A person is told which service, by the name they know, and
 * what it means for them; the detail itself stays for admins (ErrorNotice's disclosure).
 */
import type { Platform } from '@shared/domain/platforms';
import { splitPlatformDetail } from '@shared/sources/http/platform-detail';
import { REFUSAL_CODES } from '@shared/sources/http/refusals';
import { saysUnreachable } from '@shared/sources/http/unreachable';
import { t, tPhrase } from '../i18n';
import { platformLabel } from '../music/platforms';

const KIND_PHRASES = new Set<string>(Object.values(REFUSAL_CODES));
const PLATFORM_PHRASES = new Set(['badGateway', 'serviceUnavailable', ...KIND_PHRASES]);

export interface PlatformFailure {
  platform: Platform;
  /** The platform never answered (network, deadline), as opposed to answering with a refusal. */
  unreachable: boolean;
  /** What the platform's adapter said, without the platform's value in front. */
  reason: string;
  /** The detail as the API sent it, for admins. */
  detail: string;
  /** The phrase of a refusal of a common kind (a login needed, VIP only, …), worded in any language. */
  kind?: { code: string; params: Record<string, string> };
}

/** The platform failure an error phrase (`code`, `params`) carries, if it is one. */
export function platformFailure(code: unknown, params: unknown): PlatformFailure | undefined {
  if (typeof code !== 'string' || !PLATFORM_PHRASES.has(code)) return undefined;
  const detail = (params as { detail?: unknown } | undefined)?.detail;
  if (typeof detail !== 'string') return undefined;
  const split = splitPlatformDetail(detail);
  if (!split) return undefined;
  const { platform, reason } = split;
  const kind = KIND_PHRASES.has(code) ? { code, params: { platform, detail } } : undefined;
  return { platform, unreachable: saysUnreachable(reason), reason, detail, ...(kind ? { kind } : {}) };
}

/** The reason as a sentence of its own: capital first letter, full stop. */
const asSentence = (text: string) =>
  `${text[0]!.toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`;

/**
 * The failure as a person reads it: "This server cannot reach NetEase Cloud Music right now." A refusal
 * of a common kind says its kind's sentence; any other says which platform and, where the catalog
 * words reasons (English), the adapter's reason.
 */
export function platformFailureText(failure: PlatformFailure): string {
  const platform = platformLabel(failure.platform);
  if (failure.unreachable) return t('platformError.unreachable', { platform });
  if (failure.kind) return tPhrase(failure.kind, asSentence(failure.reason));
  return t('platformError.refused', { platform, reason: asSentence(failure.reason) });
}
