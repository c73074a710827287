/**
 * What an operation handler may touch of its bot: the player (queue + audio), the connection's state,
 * the global settings, and the ways to report and persist a change. The runtime implements it.
 */
import type { BotReply } from '../../shared/bus/messages';
import type { AutoplayMode, PlayMode } from '../../shared/domain/constants';
import type { LoudnessSetting } from '../../shared/domain/loudness';
import type { BotStatus, QueuedSong } from '../../shared/domain/schemas';
import type { Logger } from '../../shared/logger';
import type { StoredSettings } from '../../shared/settings/settings';
import type { SourceRegistry } from '../../shared/sources/source-registry';
import type { BotPlayer } from './bot-player';
import type { ListenFeed } from './listen/listen-feed';
import type { PlayableSong } from './playable-song';
import type { QueueUndo } from './queue-undo';
import type { SkipVotes } from './skip-votes';

export interface BotContext {
  readonly player: BotPlayer;
  readonly sources: SourceRegistry;
  readonly connected: boolean;
  readonly settings: StoredSettings;
  readonly log: Logger;
  readonly skipVotes: SkipVotes;
  readonly listenFeed: ListenFeed;
  /** The queue a play or `clear` replaced, for Undo. */
  readonly queueUndo: QueueUndo;
  /** The uids of the people in the bot's channel (not the bot, not query clients); none while disconnected. */
  channelPeople(): readonly string[];
  status(): BotStatus;
  /** The queue as clients see it: each song with its entry id. */
  queueView(): QueuedSong[];
  /** Every song the bot may still play: its queue and the one an Undo could bring back. */
  heldSongs(): readonly PlayableSong[];
  /** Publishes the bot's state; `queueChanged` also sends the queue and snapshots it. */
  changed(queueChanged: boolean): void;
  persistVolume(volume: number): Promise<void>;
  /** Stores what the bot does when its queue runs out in order. */
  setAutoplay(mode: AutoplayMode): Promise<void>;
  /** Stores the crossfade between songs (seconds, 0: gapless); the player uses it from the next change of song. */
  setCrossfade(seconds: number): Promise<void>;
  /** The bot's loudness normalization setting. */
  readonly loudness: LoudnessSetting;
  /** Stores the setting, then plays by it at once (the song playing included). */
  setLoudness(setting: LoudnessSetting): Promise<void>;
  persistMode(mode: PlayMode): Promise<void>;
  start(): Promise<BotReply<BotStatus>>;
  stop(): Promise<BotReply<BotStatus>>;
}
