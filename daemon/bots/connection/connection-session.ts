/**
 * Everything that lives exactly as long as one connection of a bot: the voice sink pointed at the
 * client, the channel watch (auto-pause, ducking, idle timeout), the profile updater, the chat
 * commands, and the chat notes about songs that failed. Built when the bot connects, disposed when it disconnects.
 */
import type { ProfileConfigRow } from '../../../shared/db/schema';
import type { JoinedChannel } from '../../../shared/domain/schemas';
import { renderPhrases, say } from '../../../shared/i18n/phrases';
import type { Logger } from '../../../shared/logger';
import { locale, receipts } from '../../../shared/receipts';
import type { StoredSettings } from '../../../shared/settings/settings';
import type { ChatDispatcher } from '../../chat/chat-dispatcher';
import { listenToChat } from '../../chat/chat-listener';
import type { Ts3Client } from '../../ts3';
import type { BotPlayer, PlayFailure } from '../bot-player';
import { playFailurePhrases } from '../play-failure';
import type { PlayableSong } from '../playable-song';
import { type ProfileClient, ProfileUpdater, type ProfileUpdaterOptions } from '../profile/profile-updater';
import { ChannelWatch } from './channel-watch';
import { joinedChannel } from './joined-channel';
import type { Ts3VoiceSink } from './ts3-voice-sink';

const MS_PER_MINUTE = 60_000;
/** `client_type` of a voice client; query clients (1) are tools, not people. */
const VOICE_CLIENT = 0;

export interface ConnectionSessionOptions {
  client: Ts3Client;
  player: BotPlayer;
  sink: Ts3VoiceSink;
  settings: StoredSettings;
  profile: Omit<ProfileUpdaterOptions, 'client' | 'log'>;
  /** Runs a task in the bot's serial section (it touches the player). */
  runSerial: (task: () => Promise<void>) => Promise<void>;
  /** The channel stayed empty for `idleTimeoutMinutes`. */
  onIdleTimeout: () => void;
  /** Someone entered, left or moved: `channelPeople()` may have changed. */
  onMembersChanged: () => void;
  /** Answers chat commands on this connection when given. */
  chat?: ChatDispatcher;
  log: Logger;
}

export class ConnectionSession {
  readonly profile: ProfileUpdater;
  private readonly watch: ChannelWatch;
  private settings: StoredSettings;
  private readonly stopChat: (() => void) | undefined;
  private readonly playerListeners = {
    trackStart: (song: PlayableSong) => void this.profile.trackStarted(song),
    streamTitle: (song: PlayableSong) => void this.profile.titleChanged(song),
    pauseChange: (paused: boolean) => void (paused ? this.profile.paused() : this.profile.resumed()),
    idle: () => void this.profile.restoreDefaults(),
    trackFailed: (failure: PlayFailure, stopped: boolean) => this.reportFailure(failure, stopped),
    trackStalled: (song: PlayableSong, stallSeconds: number) =>
      this.tellChannel(receipts.streamStalled(song, stallSeconds)),
  };

  constructor(private readonly options: ConnectionSessionOptions) {
    const { client, player, sink } = options;
    this.settings = options.settings;
    sink.attach(client);
    this.profile = new ProfileUpdater({
      ...options.profile,
      client: profileClientOf(client),
      log: options.log,
    });
    this.watch = new ChannelWatch(client);
    this.watch.setIdleTimeout(this.settings.idleTimeoutMinutes * MS_PER_MINUTE);
    this.watch.on('alone', (alone) => void options.runSerial(async () => this.onAlone(alone)));
    this.watch.on('othersTalking', (talking) => player.setOthersTalking(talking));
    this.watch.on('idle', () => options.onIdleTimeout());
    this.watch.on('membersChanged', () => options.onMembersChanged());
    player.on('trackStart', this.playerListeners.trackStart);
    player.on('streamTitle', this.playerListeners.streamTitle);
    player.on('pauseChange', this.playerListeners.pauseChange);
    player.on('idle', this.playerListeners.idle);
    player.on('trackFailed', this.playerListeners.trackFailed);
    player.on('trackStalled', this.playerListeners.trackStalled);
    this.stopChat = options.chat && listenToChat(client, options.chat, options.log);
    void this.profile.showDefaultAvatar();
  }

  /** The uids of the people in the bot's channel: voice clients other than the bot itself. */
  channelPeople(): string[] {
    const { client } = this.options;
    return client
      .clientsInChannel()
      .filter((c) => c.id !== client.clientId && c.type === VOICE_CLIENT)
      .map((c) => c.uid);
  }

  /** The channel the bot is in; `missing` names `configured` when the server has no such channel. */
  joinedChannel(configured: number | string | undefined): JoinedChannel | undefined {
    const { client } = this.options;
    return joinedChannel(client.book, client.channelId, configured);
  }

  applySettings(settings: StoredSettings): void {
    this.settings = settings;
    this.watch.setIdleTimeout(settings.idleTimeoutMinutes * MS_PER_MINUTE);
  }

  reconfigure(config: ProfileConfigRow, nickname: string): void {
    this.profile.reconfigure(config, nickname);
  }

  dispose(): void {
    const { player, sink } = this.options;
    player.off('trackStart', this.playerListeners.trackStart);
    player.off('streamTitle', this.playerListeners.streamTitle);
    player.off('pauseChange', this.playerListeners.pauseChange);
    player.off('idle', this.playerListeners.idle);
    player.off('trackFailed', this.playerListeners.trackFailed);
    player.off('trackStalled', this.playerListeners.trackStalled);
    player.setOthersTalking(false);
    this.stopChat?.();
    this.watch.dispose();
    sink.detach();
  }

  /** Pauses when the last listener leaves and resumes when one is back; a user's pause is left alone. */
  private onAlone(alone: boolean): void {
    const { player } = this.options;
    if (alone && this.settings.autoPauseOnEmpty) player.pause('emptyChannel');
    else if (!alone) player.resume('emptyChannel');
  }

  private reportFailure(failure: PlayFailure, stopped: boolean): void {
    const said = playFailurePhrases(failure);
    if (stopped) said.push(say.playbackStopped());
    this.tellChannel(renderPhrases(said, locale));
  }

  /** Posts `text` in the bot's channel; a failure to post is logged, never thrown. */
  tellChannel(text: string): void {
    this.options.client.sendChannelText(text).catch((error: unknown) => {
      this.options.log.warn({ err: error }, 'could not post to the channel');
    });
  }
}

function profileClientOf(client: Ts3Client): ProfileClient {
  return {
    get channelId() {
      return client.channelId;
    },
    channelDescription: (channelId) => client.book.channels.get(channelId)?.description,
    setNickname: (nickname) => client.setNickname(nickname),
    setAway: (message) => client.setAway(message),
    setDescription: (description) => client.setDescription(description),
    editChannelDescription: (channelId, description) => client.editChannelDescription(channelId, description),
    sendChannelText: (message) => client.sendChannelText(message),
    uploadAvatar: (data) => client.uploadAvatar(data),
  };
}
