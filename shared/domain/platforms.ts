/**
 * The registry of music platforms' facts: one row per platform, kept in the platform's own folder
 * (shared/sources/<service>/<service>-facts.ts) with its value (the API's name for it). The api, the
 * daemon, the chat parser, the OpenAPI enums and the web UI all derive their lists from here. The rows
 * are those of the module list (shared/sources/platform-modules.ts, the one list a person edits),
 * written out by `make openapi` so the web bundle can import them without any adapter.
 *
 * Adding a platform: docs/adding-a-platform.md.
 */
import type { LoginKind, PlatformFacts, ShelfKind } from './platform-facts';
import { PLATFORM_ROWS } from './platform-rows.generated';
import { QUALITIES, type Quality } from './qualities';

export {
  ACCOUNT_SHELVES,
  AUTH_LOGIN_KINDS,
  type AuthLoginKind,
  type LoginKind,
  type PlatformFacts,
  type SearchKind,
  type ShelfKind,
} from './platform-facts';

/** The modules' facts in the module list's order, which is the values' order in the OpenAPI enum. */
const ROWS = PLATFORM_ROWS satisfies readonly PlatformFacts[];
type Row = (typeof ROWS)[number];

export type Platform = Row['value'];
/** A platform's own row, with its literal facts (its login kinds, …). */
export type FactsOf<P extends Platform> = Extract<Row, { value: P }>;

/** The rows keyed by value. */
export const PLATFORM_REGISTRY = Object.fromEntries(ROWS.map((row) => [row.value, row])) as {
  [R in Row as R['value']]: R;
};

/** Platform values as the API speaks them (docs/platforms.md maps each to its real service), in row order. */
export const PLATFORMS = ROWS.map((row) => row.value) as [Platform, ...Platform[]];

export const platformFacts = (platform: Platform): PlatformFacts => PLATFORM_REGISTRY[platform];

/** The platforms whose row says `fact`, in row order. */
export const platformsWhere = (fact: (facts: PlatformFacts) => boolean): Platform[] =>
  PLATFORMS.filter((p) => fact(platformFacts(p)));

/** Default for `enabledProviders`, also used for a legacy configuration that has none. */
export const DEFAULT_ENABLED_PROVIDERS: readonly Platform[] = platformsWhere((f) => f.enabledByDefault);

/** When `defaultPlatform` is unset or disabled, the first enabled platform in this order is the default. */
export const DEFAULT_PLATFORM_PRIORITY: readonly Platform[] = platformsWhere(
  (f) => f.priority !== undefined,
).sort((a, b) => (platformFacts(a).priority ?? 0) - (platformFacts(b).priority ?? 0));

/** The platforms GET /api/music/quality reports. */
export const QUALITY_PLATFORMS = platformsWhere((f) => f.qualityReported) as [Platform, ...Platform[]];

/** The platforms whose shared login can be made by QR code (`POST /api/auth/qrcode`). */
export const QR_PLATFORMS = platformsWhere((f) => f.logins.includes('qr')) as [Platform, ...Platform[]];

/** Chat flags, one per platform that has one (`-n` picks NetEase's value). */
export const PLATFORM_FLAGS: Readonly<Record<string, Platform>> = Object.fromEntries(
  PLATFORMS.flatMap((p) => {
    const flag = platformFacts(p).chatFlag;
    return flag ? [[flag, p]] : [];
  }),
);

/** Whether the platform's login can be made this way. */
export const logsInBy = (platform: Platform, kind: LoginKind): boolean =>
  platformFacts(platform).logins.includes(kind);

/** The qualities a platform can serve, its default first. */
export const qualitiesOf = (platform: Platform): readonly [Quality, ...Quality[]] =>
  platformFacts(platform).qualities;

/** The qualities a platform can serve from the lowest to the highest, the order a list offers them in. */
export const qualitiesLowestFirst = (platform: Platform): Quality[] =>
  QUALITIES.filter((quality) => qualitiesOf(platform).includes(quality));

/** The OpenAPI description of the Platform enum: each value with its service's name. */
export const PLATFORM_DESCRIPTION = `Music source: ${PLATFORMS.map((p) => `${p} ${platformFacts(p).name}`).join(', ')}.`;

/** The platform a chat `!play <address>` without a flag plays the address on, if there is one. */
export const ADDRESS_PLATFORM: Platform | undefined = PLATFORMS.find((p) => platformFacts(p).playsAddresses);

/**
 * The one platform whose facts name `shelf`: a shelf with routes of its own has them under its owner's
 * value (`/api/music/<value>/popular`; SPEC fixes the paths so), and the contract and the page derive
 * those paths from here.
 */
export function shelfOwner<S extends ShelfKind>(shelf: S): ShelfOwner<S> {
  return theOne(
    platformsWhere((f) => f.shelves.includes(shelf)),
    `the ${shelf} shelf`,
  ) as ShelfOwner<S>;
}
/** The value of the row whose shelves name `S`, as a literal (the web's typed paths are built of it). */
type ShelfOwner<S extends ShelfKind, R extends Row = Row> = R extends unknown
  ? S extends R['shelves'][number]
    ? R['value']
    : never
  : never;

function theOne(platforms: Platform[], what: string): Platform {
  const [one, ...others] = platforms;
  if (!one || others.length > 0) throw new Error(`exactly one platform must have ${what}`);
  return one;
}

/** The platform of the files people upload: the one the uploads switch (`localAudioEnabled`) turns on. */
export const UPLOADS_PLATFORM: Platform | undefined = PLATFORMS.find(
  (p) => platformFacts(p).switchedBy === 'localAudioEnabled',
);

/**
 * The one platform a user may link their own account of (SPEC has one personal account, under
 * `/api/me/music/<platform>`), its value a literal like the shelves' owners.
 */
export const PERSONAL_LOGIN_PLATFORM = theOne(
  platformsWhere((f) => f.personalLogin !== undefined),
  'the personal login',
) as Extract<Row, { personalLogin: string }>['value'];
