import { describe, expect, it } from 'vitest';
import type { ProfileConfigRow } from '../../../shared/db/schema';
import { logger } from '../../../shared/logger';
import { err } from '../../../shared/result';
import { Ts3CommandError } from '../../ts3';
import type { PlayableSong } from '../playable-song';
import {
  NICKNAME_MAX_LENGTH,
  nicknameWith,
  PROFILE_DISABLED,
  type ProfileClient,
  ProfileUpdater,
} from './profile-updater';

const ALL_ON = Object.fromEntries(
  Object.keys(PROFILE_DISABLED).map((k) => [k, true]),
) as unknown as ProfileConfigRow;

const song: PlayableSong = {
  id: '1',
  name: 'Song',
  artist: 'Artist',
  album: 'Album',
  duration: 100,
  coverUrl: '',
  platform: 'local',
  requestedBy: 'amy',
};

/** Records calls; channel edits fail with "insufficient client permissions" (2568). */
function fakeClient(calls: string[]): ProfileClient {
  const record =
    (name: string) =>
    async (...args: unknown[]) =>
      void calls.push(`${name}:${args.join(',')}`);
  return {
    channelId: 7,
    channelDescription: () => 'original',
    setNickname: record('nick'),
    setAway: record('away'),
    setDescription: record('desc'),
    editChannelDescription: async () => {
      calls.push('channel');
      throw new Ts3CommandError('channeledit', 2568, 'insufficient client permissions');
    },
    sendChannelText: record('text'),
    uploadAvatar: record('avatar'),
  };
}

describe('ProfileUpdater', () => {
  it('switches off only the feature the server refused, and restores what it changed', async () => {
    const calls: string[] = [];
    const updater = new ProfileUpdater({
      client: fakeClient(calls),
      config: ALL_ON,
      defaultNickname: 'Bot',
      defaultAvatar: async () => undefined,
      coverArt: async () => err('no cover'),
      log: logger('test'),
    });
    await updater.trackStarted(song);
    expect(calls).toEqual([
      'nick:Bot | Song',
      'desc:Now playing: Song - Artist',
      'away:false',
      'channel',
      'text:Now playing: Song - Artist',
    ]);
    expect(updater.isDisabled('channelDescEnabled')).toBe(true);
    calls.length = 0;
    await updater.trackStarted(song);
    expect(calls).not.toContain('channel');
    expect(calls).toContain('nick:Bot | Song');
    calls.length = 0;
    await updater.restoreDefaults();
    expect(calls).toEqual(['nick:Bot', 'desc:', 'away:false']);
  });

  it('keeps the nickname within the server limit', () => {
    const nick = nicknameWith('MusicBot', 'An extremely long song title that goes on');
    expect([...nick].length).toBe(NICKNAME_MAX_LENGTH);
    expect(nick.startsWith('MusicBot | An')).toBe(true);
  });
});
