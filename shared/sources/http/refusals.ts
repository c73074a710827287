/**
 * The common ways a platform refuses (as opposed to never answering, unreachable.ts): the sentences
 * adapters end with when the platform's API says so, written here and recognised here, so the API
 * can give each kind a stable phrase code (`platformLoginNeeded`, …) that every client words in its
 * own language, while the sentence itself stays as the detail for admins.
 * Pure functions: the web bundle imports this module.
 */
import type { PhraseCode } from '../../i18n/phrases';

export const REFUSAL_KINDS = [
  'loginNeeded',
  'loginExpired',
  'paidOnly',
  'regionBlocked',
  'notFound',
  'rateLimited',
  'copyright',
  'tokenRefused',
] as const;
export type RefusalKind = (typeof REFUSAL_KINDS)[number];

/** The phrase (shared/i18n/phrases.ts) the API answers each kind with. */
export const REFUSAL_CODES = {
  loginNeeded: 'platformLoginNeeded',
  loginExpired: 'platformLoginExpired',
  paidOnly: 'platformPaidOnly',
  regionBlocked: 'platformRegionBlocked',
  notFound: 'platformNotFound',
  rateLimited: 'platformRateLimited',
  copyright: 'platformCopyright',
  tokenRefused: 'platformTokenRefused',
} as const satisfies Record<RefusalKind, PhraseCode>;

/** `note`: what the platform itself said (its code, its message), kept in brackets at the end. */
const noted = (sentence: string, note?: string) => (note ? `${sentence} (${note})` : sentence);

/** Builders: one per kind, each naming the service by its own name. */
export const refusal = {
  loginNeeded: (service: string, note?: string) =>
    noted(`${service} needs a login for this; log in first`, note),
  loginExpired: (service: string, note?: string) =>
    noted(`the ${service} login has expired; log in again`, note),
  /** `what`: the song's name, or "it". */
  paidOnly: (service: string, what: string) =>
    `${what} is a VIP song on ${service}; log in with a ${service} VIP account to play it`,
  regionBlocked: (service: string, note?: string) =>
    noted(`${service} does not offer this in our region`, note),
  /** `what`: the kind of thing looked for (`song`, `video`, …). */
  notFound: (service: string, what: string, note?: string) => noted(`${service} has no such ${what}`, note),
  rateLimited: (service: string, note?: string) =>
    noted(`${service} is limiting how often we ask; try again in a minute`, note),
  copyright: (service: string, note?: string) =>
    noted(`${service} cannot play this for copyright reasons`, note),
  /** A player given a login (librespot, a token) was turned away by the service: not our login's expiry. */
  tokenRefused: (service: string, note?: string) =>
    noted(`${service} refused the login the bot's player was given`, note),
} as const satisfies Record<RefusalKind, (...args: never[]) => string>;

/**
 * What gives each kind away: the builders' words, and the few older sentences of the same meaning
 * some adapters word themselves (YouTube's rate limit, which says for how long).
 */
const PATTERNS: Record<RefusalKind, RegExp> = {
  loginNeeded: / needs a login for this; log in first/,
  loginExpired: /^the .+ login has expired; log in again/,
  paidOnly:
    / is a VIP song on .+; log in with a .+ VIP account to play it| needs a .+ VIP account, and the stored login is not one/,
  regionBlocked: / does not offer this in our region/,
  notFound: / has no such \w/,
  rateLimited: / is limiting how often (we|this server may) ask/,
  copyright: / cannot play this for copyright reasons| has no copyright to play /,
  tokenRefused: / refused the login the bot's player was given/,
};

/** The kind of refusal a platform's sentence says, if it is one of the common kinds. */
export const refusalKind = (sentence: string): RefusalKind | undefined =>
  REFUSAL_KINDS.find((kind) => PATTERNS[kind].test(sentence));
