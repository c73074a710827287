/**
 * Live streams (an internet radio station, of the platform that plays addresses): they have no length
 * (0), so where a song shows its length a live one shows LIVE, and its position counts up with nothing
 * to end at. A station has no artist either: the line under its name says it is live radio, never
 * "Unknown artist"; while it plays, the bot names the station as the artist of the title it sends
 * (daemon/bots/playable-song.ts).
 */
import { type Platform, platformFacts } from '@shared/domain/platforms';
import { t } from '../i18n';

interface Lengthed {
  platform: Platform;
  duration: number;
}

/** A song of a platform that plays addresses someone gives, with no length: a station on the air. */
export const isLiveSong = (song: Lengthed): boolean =>
  platformFacts(song.platform).playsAddresses === true && !(song.duration > 0);

/** The line under a song's name: its artist, else what stands in for one. */
export const bylineOf = (song: Lengthed & { artist: string }): string =>
  song.artist || t(isLiveSong(song) ? 'music.liveRadio' : 'player.unknownArtist');
