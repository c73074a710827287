/** Starts a daemon on already opened backends: every bot, its voice session and playback. */
import type { AppConfig } from '../shared/config';
import type { Backends } from '../shared/process';
import { type ChatApiFactory, chatApiFactory } from './chat/chat-api';
import { Daemon } from './daemon';

/**
 * How the daemon's bots reach the REST API for chat commands: the given factory (the api's own fetch,
 * in one process), else API_URL; undefined when neither exists (bots then ignore chat commands).
 */
function chatFor(config: AppConfig, api: ChatApiFactory | undefined) {
  const factory =
    api ?? (config.apiUrl && chatApiFactory({ baseUrl: config.apiUrl, serviceToken: config.serviceToken }));
  return factory ? { api: factory, prefix: config.chatPrefix } : undefined;
}

export async function startDaemon(config: AppConfig, { db, bus }: Backends, chatApi?: ChatApiFactory) {
  const chat = chatFor(config, chatApi);
  const daemon = new Daemon({
    db,
    bus,
    daemonId: config.daemonId,
    dataDir: config.dataDir,
    ytDlpPath: config.ytDlpPath,
    librespotPath: config.librespotPath,
    ...(chat ? { chat } : {}),
  });
  await daemon.start();
  return daemon;
}
