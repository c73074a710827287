/**
 * Bus subjects. The bot id sits in the subject so a daemon subscribes only to the bots it owns and
 * "no responders" means "nobody owns this bot".
 */

/** Request/reply: one command for one bot (`BotCommand` → `BotReply`). */
export const botCommandSubject = (botId: string): string => `bot.${botId}.cmd`;

/** Publish: the bot's state after every change (`BotStateEvent`). */
export const botStateSubject = (botId: string): string => `bot.${botId}.state`;
export const ALL_BOT_STATES = 'bot.*.state';

/**
 * Publish: the Opus frames one bot sends, batched (`ListenBatch`), only while an api process reports
 * listeners with the `listen` op. Core NATS: a listener that misses a batch hears a gap, never a delay.
 */
export const botListenSubject = (botId: string): string => `bot.${botId}.listen`;

/**
 * Request/reply: drain one daemon (`{}` → `DrainReply`): it moves its bots to the other daemons one at
 * a time, then stops. Only that daemon answers, so "no responders" means no daemon of that id runs.
 */
export const daemonDrainSubject = (daemonId: string): string => `daemon.${daemonId}.drain`;

/** Publish: bot lifecycle (`BotsEvent`): created, updated, removed. */
export const BOTS_EVENTS = 'bots.events';

/** Publish: guest mode switched off or its bot list changed (`GuestModeEvent`). */
export const GUEST_MODE_EVENTS = 'settings.guest-mode';

/**
 * Publish: the rights or credentials of these accounts changed (`AccountsChangedEvent`): a role,
 * capabilities or grants, a password, a revoked key, an ended session, a deleted account. Every api
 * process reads the principal of each socket of those accounts again.
 */
export const ACCOUNTS_CHANGED = 'accounts.changed';

/** Publish: global settings changed (`SettingsEvent`); daemons re-read what they use. */
export const SETTINGS_EVENTS = 'settings.changed';
