import { describe, expect, it } from 'vitest';
import { parseChatCommand } from './parse-command';

describe('parseChatCommand', () => {
  it('reads name, platform flag and free text', () => {
    expect(parseChatCommand('!play -q  Jay Chou   晴天')).toEqual({
      name: 'play',
      platform: 'music_b',
      append: false,
      args: ['Jay', 'Chou', '晴天'],
      text: 'Jay Chou 晴天',
    });
  });

  it('accepts flags anywhere and every platform letter', () => {
    const flags = {
      '-n': 'music_a',
      '-q': 'music_b',
      '-k': 'music_c',
      '-b': 'video_a',
      '-y': 'video_b',
      '-j': 'library_a',
    };
    for (const [flag, platform] of Object.entries(flags)) {
      expect(parseChatCommand(`!add song ${flag}`)?.platform).toBe(platform);
    }
  });

  it('plays an address as it is (platform stream), also as the [URL] a TeamSpeak client sends', () => {
    expect(parseChatCommand('!play http://radio.example/live.mp3')).toMatchObject({
      platform: 'stream',
      text: 'http://radio.example/live.mp3',
    });
    expect(parseChatCommand('!add [URL]https://radio.example/a.pls[/URL]')).toMatchObject({
      platform: 'stream',
      text: 'https://radio.example/a.pls',
    });
    // A flag still wins, words are words, and other commands keep their text.
    expect(parseChatCommand('!play -y https://youtu.be/abc')?.platform).toBe('video_b');
    expect(parseChatCommand('!play some http words')?.platform).toBeUndefined();
    expect(parseChatCommand('!load https://radio.example/list')?.platform).toBeUndefined();
  });

  it('reads the append flag of load and lower-cases the name', () => {
    expect(parseChatCommand('!LOAD -a evening mix')).toMatchObject({
      name: 'load',
      append: true,
      text: 'evening mix',
    });
  });

  it('ignores lines without the prefix, and honours another prefix', () => {
    expect(parseChatCommand('play something')).toBeUndefined();
    expect(parseChatCommand('!')).toBeUndefined();
    expect(parseChatCommand('.vol 30', '.')).toMatchObject({ name: 'vol', args: ['30'] });
  });
});
