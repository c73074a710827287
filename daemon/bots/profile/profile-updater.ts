/**
 * Keeps the bot's voice profile in step with what it plays (ProfileConfig): the cover art as avatar,
 * the song in the nickname and description, the away status while paused, the channel description and
 * a now-playing chat message. Defaults come back on `restoreDefaults` (stop, end of playback).
 *
 * Updates run one at a time in order. A permission error from the server switches off only the feature
 * that hit it, for the rest of this connection, so a bot without e.g. channel-edit rights still does
 * everything else.
 */
import type { ProfileConfigRow } from '../../../shared/db/schema';
import type { Logger } from '../../../shared/logger';
import { receipts } from '../../../shared/receipts';
import type { Result } from '../../../shared/result';
import { Ts3CommandError } from '../../ts3';
import type { PlayableSong } from '../playable-song';
import { SerialExecutor } from '../serial-executor';

/** TeamSpeak's hard limits on nickname and client description length, in characters. */
export const NICKNAME_MAX_LENGTH = 30;
export const DESCRIPTION_MAX_LENGTH = 200;
/** Permission errors are 0x0a00-0x0aff in tsdeclarations Errors.csv (2568 is insufficient permissions). */
const PERMISSION_ERRORS = { from: 0x0a00, to: 0x0aff };

export type ProfileFeature = keyof ProfileConfigRow;

export const PROFILE_DISABLED: ProfileConfigRow = {
  avatarEnabled: false,
  descriptionEnabled: false,
  nicknameEnabled: false,
  awayStatusEnabled: false,
  channelDescEnabled: false,
  nowPlayingMsgEnabled: false,
};

/** What the updater needs of the voice client. */
export interface ProfileClient {
  readonly channelId: number;
  channelDescription(channelId: number): string | undefined;
  setNickname(nickname: string): Promise<void>;
  setAway(message: string | false): Promise<void>;
  setDescription(description: string): Promise<void>;
  editChannelDescription(channelId: number, description: string): Promise<void>;
  sendChannelText(message: string): Promise<void>;
  uploadAvatar(data: Uint8Array): Promise<void>;
}

export interface ProfileUpdaterOptions {
  client: ProfileClient;
  config: ProfileConfigRow;
  defaultNickname: string;
  /** The stored bot avatar, restored when the cover art goes. */
  defaultAvatar: () => Promise<Uint8Array | undefined>;
  coverArt: (url: string) => Promise<Result<Uint8Array>>;
  log: Logger;
}

export class ProfileUpdater {
  private config: ProfileConfigRow;
  private defaultNickname: string;
  private readonly disabled = new Set<ProfileFeature>();
  private readonly serial = new SerialExecutor();
  /** What we changed, so defaults are only written back where we wrote something. */
  private changed = new Set<ProfileFeature>();
  private originalChannelDescription: { channelId: number; text: string } | undefined;
  private lastCoverUrl: string | undefined;

  constructor(private readonly options: ProfileUpdaterOptions) {
    this.config = options.config;
    this.defaultNickname = options.defaultNickname;
  }

  reconfigure(config: ProfileConfigRow, defaultNickname: string): void {
    this.config = config;
    this.defaultNickname = defaultNickname;
  }

  trackStarted(song: PlayableSong): Promise<void> {
    const { client } = this.options;
    const line = receipts.nowPlaying(song);
    return this.serial.run(async () => {
      await this.apply('nicknameEnabled', () =>
        client.setNickname(nicknameWith(this.defaultNickname, song.name)),
      );
      await this.apply('descriptionEnabled', () =>
        client.setDescription(truncate(line, DESCRIPTION_MAX_LENGTH)),
      );
      await this.apply('awayStatusEnabled', () => client.setAway(false));
      await this.apply('channelDescEnabled', () => this.writeChannelDescription(song, line));
      await this.apply('nowPlayingMsgEnabled', () => client.sendChannelText(line), false);
      await this.apply('avatarEnabled', () => this.showCoverArt(song.coverUrl));
    });
  }

  /** A live stream's title changed: the nickname and description follow; nothing is said in the channel. */
  titleChanged(song: PlayableSong): Promise<void> {
    const { client } = this.options;
    return this.serial.run(async () => {
      await this.apply('nicknameEnabled', () =>
        client.setNickname(nicknameWith(this.defaultNickname, song.name)),
      );
      await this.apply('descriptionEnabled', () =>
        client.setDescription(truncate(receipts.nowPlaying(song), DESCRIPTION_MAX_LENGTH)),
      );
    });
  }

  paused(): Promise<void> {
    return this.serial.run(() =>
      this.apply('awayStatusEnabled', () => this.options.client.setAway(receipts.paused())),
    );
  }

  resumed(): Promise<void> {
    return this.serial.run(() => this.apply('awayStatusEnabled', () => this.options.client.setAway(false)));
  }

  /** Uploads the stored avatar (on connect, or when an admin changed it). */
  showDefaultAvatar(): Promise<void> {
    return this.serial.run(() =>
      this.apply('avatarEnabled', async () => {
        const avatar = await this.options.defaultAvatar();
        this.lastCoverUrl = undefined;
        if (avatar) await this.options.client.uploadAvatar(avatar);
      }),
    );
  }

  /** Writes back the defaults of everything this updater changed. */
  restoreDefaults(): Promise<void> {
    const { client } = this.options;
    return this.serial.run(async () => {
      const changed = this.changed;
      this.changed = new Set();
      const restore = (feature: ProfileFeature, update: () => Promise<void>) =>
        changed.has(feature) ? this.apply(feature, update, false) : Promise.resolve();
      await restore('nicknameEnabled', () => client.setNickname(this.defaultNickname));
      await restore('descriptionEnabled', () => client.setDescription(''));
      await restore('awayStatusEnabled', () => client.setAway(false));
      const original = this.originalChannelDescription;
      this.originalChannelDescription = undefined;
      if (original)
        await restore('channelDescEnabled', () =>
          client.editChannelDescription(original.channelId, original.text),
        );
      if (this.lastCoverUrl !== undefined) {
        this.lastCoverUrl = undefined;
        await restore('avatarEnabled', async () => {
          const avatar = await this.options.defaultAvatar();
          if (avatar) await client.uploadAvatar(avatar);
        });
      }
    });
  }

  isDisabled(feature: ProfileFeature): boolean {
    return this.disabled.has(feature);
  }

  private async writeChannelDescription(song: PlayableSong, line: string): Promise<void> {
    const { client } = this.options;
    const channelId = client.channelId;
    if (this.originalChannelDescription?.channelId !== channelId)
      this.originalChannelDescription = { channelId, text: client.channelDescription(channelId) ?? '' };
    const lines = [line, song.album, song.requestedBy ? receipts.requestedBy(song.requestedBy) : ''];
    await client.editChannelDescription(channelId, lines.filter(Boolean).join('\n'));
  }

  private async showCoverArt(url: string): Promise<void> {
    if (!url || url === this.lastCoverUrl) return;
    const image = await this.options.coverArt(url);
    if (!image.ok) {
      this.options.log.info({ reason: image.error }, 'cover art not used as avatar');
      return;
    }
    await this.options.client.uploadAvatar(image.value);
    this.lastCoverUrl = url;
  }

  /** Runs one feature's update when it is on; `remember` marks it for restoring. */
  private async apply(feature: ProfileFeature, update: () => Promise<void>, remember = true): Promise<void> {
    if (!this.config[feature] || this.disabled.has(feature)) return;
    try {
      await update();
      if (remember) this.changed.add(feature);
    } catch (error) {
      if (isPermissionError(error)) {
        this.disabled.add(feature);
        this.options.log.warn(
          { feature, reason: error.message },
          'no permission; this profile feature is off',
        );
      } else {
        this.options.log.warn({ feature, err: error }, 'profile update failed');
      }
    }
  }
}

function isPermissionError(error: unknown): error is Ts3CommandError {
  return (
    error instanceof Ts3CommandError && error.id >= PERMISSION_ERRORS.from && error.id <= PERMISSION_ERRORS.to
  );
}

/** `Nick | Song`, cut to the server's nickname limit; the bot's own name is kept whole when it fits. */
export function nicknameWith(nickname: string, songName: string): string {
  return truncate(`${nickname} | ${songName}`, NICKNAME_MAX_LENGTH);
}

function truncate(text: string, maxLength: number): string {
  const chars = [...text];
  return chars.length <= maxLength ? text : `${chars.slice(0, maxLength - 1).join('')}…`;
}
