/**
 * The one catalog of server sentences: every locale words every code with the same placeholders, the
 * builders fill them, words among the params are translated, and Accept-Language picks the locale.
 */
import { describe, expect, it } from 'vitest';
import { preferredLocale } from '../../api/locale';
import { LOCALES, PHRASE_CODES, renderPhrase, say } from '../../shared/i18n/phrases';

/**
 * The placeholders of a text, but `detail`: an English sentence written where an error was thrown,
 * which other languages leave out (they say what the code means instead).
 */
const placeholders = (text: string) =>
  [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].filter((name) => name !== 'detail').sort();

describe('the phrase catalog', () => {
  it('words every code in every locale with the placeholders English uses', () => {
    for (const code of PHRASE_CODES) {
      // Rendering with no params leaves the placeholders in place, so they can be compared.
      const english = placeholders(renderPhrase({ code, params: {} }, 'en'));
      for (const locale of LOCALES) {
        const text = renderPhrase({ code, params: {} }, locale);
        expect(text, `${locale} ${code}`).not.toBe('');
        expect(placeholders(text), `${locale} ${code}`).toEqual(english);
      }
    }
  });

  it('fills a builder phrase and translates the words among its params', () => {
    expect(renderPhrase(say.volume(54), 'en')).toBe('Volume set to 54%.');
    expect(renderPhrase(say.volume(54), 'zh')).toBe('音量已设为 54%。');
    expect(renderPhrase(say.mode('random'), 'zh')).toBe('播放模式：随机播放。');
    expect(renderPhrase(say.removed({ name: 'Song', artist: 'Band' }), 'zh')).toBe('已移除：Song - Band');
    expect(renderPhrase(say.requestedBy('Guest'), 'zh')).toBe('点歌人：访客');
    expect(renderPhrase(say.seeked(83), 'en')).toBe('Jumped to 1:23.');
  });

  it("says why a bot could not connect or a song could not play in the reader's words, not the server's or ffmpeg's", () => {
    const song = { name: 'Song', artist: 'Band' };
    expect(renderPhrase(say.startWrongServerPassword(), 'zh')).toBe(
      '无法连接：语音服务器密码错误，请在机器人的连接设置中填写正确的密码。',
    );
    expect(renderPhrase(say.playbackSourceRefused(song), 'zh')).toBe(
      '无法播放 Song - Band：音频来源的服务器拒绝了访问。',
    );
    // A sentence without a kind of its own: English readers get it, others the generic sentence.
    const failed = say.startFailed('server refused the connection in Init1 (code 5)');
    expect(renderPhrase(failed, 'en')).toBe(
      'Could not connect: server refused the connection in Init1 (code 5)',
    );
    expect(renderPhrase(failed, 'zh')).toBe('无法连接到语音服务器。');
    const unplayable = say.playbackFailed(song, 'source music_c is not available yet');
    expect(renderPhrase(unplayable, 'en')).toBe(
      'Could not play Song - Band: source music_c is not available yet',
    );
    expect(renderPhrase(unplayable, 'zh')).toBe('无法播放 Song - Band。');
    expect(renderPhrase(say.missingCapability('player.queue'), 'zh')).toBe(
      '你没有“编辑队列”的权限，管理员可以授予。',
    );
  });

  it('leaves no free text in the Chinese catalog but a sentence kept for English readers', () => {
    // `detail` is English written where something failed; only the fallback of an older daemon says it.
    for (const code of PHRASE_CODES) {
      const text = renderPhrase({ code, params: { detail: 'ENGLISH' } }, 'zh');
      if (code !== 'said') expect(text, code).not.toContain('ENGLISH');
    }
  });

  it('keeps the fallback for a code it does not know', () => {
    expect(renderPhrase({ code: 'fromANewerServer', params: {} }, 'zh', 'as sent')).toBe('as sent');
  });
});

describe('Accept-Language', () => {
  it.each([
    [undefined, 'en'],
    ['zh-CN,zh;q=0.9,en;q=0.8', 'zh'],
    ['en-US,en;q=0.9,zh;q=0.8', 'en'],
    ['fr-FR, zh-TW;q=0.5', 'zh'],
    ['zh;q=0.3, en;q=0.7', 'en'],
    ['zh;q=0, en;q=0.1', 'en'],
    ['de, fr', 'en'],
    ['*', 'en'],
    ['', 'en'],
  ] as const)('%s → %s', (header, expected) => {
    expect(preferredLocale(header, 'en')).toBe(expected);
  });

  it('falls back to the configured locale', () => {
    expect(preferredLocale('de', 'zh')).toBe('zh');
  });
});
