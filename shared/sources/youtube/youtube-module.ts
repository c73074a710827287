/**
 * YouTube on the server (platform-module.ts): yt-dlp on this machine does the work, configured by
 * YTDLP_PATH, YTDLP_COOKIES and YTDLP_ARGS (youtube-config.ts).
 */
import type { PlatformModule } from '../platform-module';
import { YoutubeCatalog } from './youtube-catalog';
import { type YoutubeOptions, youtubeConfig } from './youtube-config';
import { YOUTUBE_FACTS } from './youtube-facts';
import { YoutubeSource } from './youtube-source';
import { YtDlp } from './yt-dlp';

/** The yt-dlp the configuration names, with the admin's options for every run. */
export const ytDlpOf = ({ ytDlpPath, ytDlpCookies, ytDlpArgs }: Partial<YoutubeOptions>): YtDlp =>
  new YtDlp(ytDlpPath, {}, { cookies: ytDlpCookies, args: ytDlpArgs });

export const youtubeModule = {
  facts: YOUTUBE_FACTS,
  config: youtubeConfig,
  catalog: (ctx) => new YoutubeCatalog(ytDlpOf(ctx)),
  source: (ctx) => new YoutubeSource(ytDlpOf(ctx)),
} satisfies PlatformModule<Partial<YoutubeOptions>>;
