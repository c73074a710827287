/**
 * GET /api/auth/status for every platform without a stored login: the catalogs' own answers (logged
 * out, the missing yt-dlp named for video_b), `local` always logged in, and the platforms without a
 * catalog logged out. No platform is asked: nothing is stored to ask with.
 */
import { describe, expect, it } from 'vitest';
import { type Session, withAdminApp } from '../../testkit/accounts';
import { useMswServer } from '../helpers/msw-server';

// No handlers: any request to a platform fails the test file.
useMswServer();
let admin: Session;
withAdminApp(
  (_, session) => {
    admin = session;
  },
  { env: { YTDLP_PATH: '/nonexistent/yt-dlp' } },
);

const status = (
  platform: 'music_a' | 'music_b' | 'music_c' | 'video_a' | 'video_b' | 'local' | 'streaming_a' | 'library_a',
) => admin.api.GET('/api/auth/status', { params: { query: { platform } } });

describe('GET /api/auth/status without stored logins', () => {
  it.each(['music_a', 'music_b', 'video_a', 'music_c', 'streaming_a'] as const)(
    '%s is logged out',
    async (platform) => {
      const { data, response } = await status(platform);
      expect(response.status).toBe(200);
      expect(data).toEqual({ platform, loggedIn: false });
    },
  );

  it('reports uploads as always logged in', async () => {
    expect((await status('local')).data).toEqual({ platform: 'local', loggedIn: true, nickname: 'uploads' });
  });

  it('reports a missing yt-dlp for video_b in the nickname, with its phrase, in the asked language', async () => {
    const { data } = await status('video_b');
    expect(data).toEqual({
      platform: 'video_b',
      loggedIn: false,
      nickname: 'yt-dlp is not installed (nothing at /nonexistent/yt-dlp; fix YTDLP_PATH)',
      code: 'ytDlpMissingAt',
      params: { path: '/nonexistent/yt-dlp' },
    });
    const zh = await admin.api.GET('/api/auth/status', {
      params: { query: { platform: 'video_b' } },
      headers: { 'accept-language': 'zh-CN' },
    });
    expect(zh.data).toMatchObject({
      nickname: '未安装 yt-dlp（/nonexistent/yt-dlp 处没有它；请修正 YTDLP_PATH）',
      code: 'ytDlpMissingAt',
    });
  });

  it('reports Jellyfin without a server as not configured, with its phrase, in the asked language', async () => {
    expect((await status('library_a')).data).toEqual({
      platform: 'library_a',
      loggedIn: false,
      nickname: 'Jellyfin is not configured',
      code: 'jellyfinNotConfigured',
      params: {},
    });
    const zh = await admin.api.GET('/api/auth/status', {
      params: { query: { platform: 'library_a' } },
      headers: { 'accept-language': 'zh-CN' },
    });
    expect(zh.data).toMatchObject({ nickname: '尚未配置 Jellyfin', code: 'jellyfinNotConfigured' });
  });

  it('refuses an unknown platform with 400', async () => {
    const { response } = await status('nowhere' as 'local');
    expect(response.status).toBe(400);
  });
});
