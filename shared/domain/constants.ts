/**
 * Enumerations of the interface contract (SPEC.md), defined once: each `as const` array gives both
 * the TypeScript union and the zod enum used at every edge.
 */

/** The platform lists, derived from the platform registry (platforms.ts) where every row is defined. */
export {
  DEFAULT_ENABLED_PROVIDERS,
  DEFAULT_PLATFORM_PRIORITY,
  PLATFORMS,
  type Platform,
  QUALITY_PLATFORMS,
} from './platforms';

/** Default for `voteSkipRatio`: half of the people in the bot's channel skip a song with `!skip`. */
export const DEFAULT_VOTE_SKIP_RATIO = 0.5;

export const PLAY_MODES = ['seq', 'loop', 'random', 'rloop'] as const;
export type PlayMode = (typeof PLAY_MODES)[number];

export const ROLES = ['admin', 'member'] as const;
export type Role = (typeof ROLES)[number];
/** The synthetic guest principal's role; it is never a stored account role. */
export type PrincipalRole = Role | 'guest';

export const CAPABILITIES = [
  'player.control',
  'player.queue',
  'bot.manage',
  'platform.auth',
  'quality',
] as const;
export type Capability = (typeof CAPABILITIES)[number];

/** What a new member may do before an admin grants more (DECISIONS.md "Accounts"). */
export const BASIC_MEMBER_CAPABILITIES: readonly Capability[] = ['player.control', 'player.queue'];

export const AUDIT_ACTIONS = [
  'admin.first_created',
  'user.created',
  'user.deleted',
  'user.password_reset',
  'user.password_changed',
  'user.role_changed',
  'user.permissions_changed',
  'api_key.created',
  'api_key.deleted',
  'spotify.librespot_login',
  'spotify.librespot_logout',
  'daemon.drained',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Guest permission flags with their defaults (DECISIONS.md "Guest permissions"). */
export const GUEST_PERMISSION_DEFAULTS = {
  addToQueue: true,
  playNext: false,
  playNow: false,
  skip: false,
  transport: false,
  removeClear: false,
  playMode: false,
  playCollection: false,
} as const;
export type GuestPermission = keyof typeof GUEST_PERMISSION_DEFAULTS;
export const GUEST_PERMISSIONS = Object.keys(GUEST_PERMISSION_DEFAULTS) as GuestPermission[];

/** The synthetic guest principal: created by migration, never managed through /api/users. */
export const GUEST_PRINCIPAL_ID = 'guest';
export const GUEST_LABEL = 'Guest';
/** `requestedBy` of the songs autoplay adds when a queue runs out (clients word it in their language). */
export const AUTOPLAY_LABEL = 'Autoplay';
/** What a bot does when its queue runs out in order: stop, or go on with songs like the last one. */
export const AUTOPLAY_MODES = ['off', 'related'] as const;
export type AutoplayMode = (typeof AUTOPLAY_MODES)[number];
/** A bot's crossfade between songs, in whole seconds: 0 joins them gapless, 12 is as long as it may be. */
export const CROSSFADE_SECONDS_RANGE = { min: 0, max: 12 } as const;

/** Owner id of saved queues in the shared bucket. */
export const SHARED_QUEUE_OWNER = 'shared';

export const DEFAULT_SERVER_PORT = 9987;

/**
 * What a new bot updates in its voice profile while playing: the quiet, useful parts on (away while
 * paused, a description with the song); the ones that change what others see of the channel off.
 */
export const DEFAULT_PROFILE_CONFIG = {
  avatarEnabled: false,
  descriptionEnabled: true,
  nicknameEnabled: false,
  awayStatusEnabled: true,
  channelDescEnabled: false,
  nowPlayingMsgEnabled: false,
} as const;

export { QUALITIES, type Quality } from './qualities';

/** SPEC limit: a bot start whose handshake takes longer is torn down and answers 500. */
export const BOT_START_DEADLINE_MS = 15_000;
