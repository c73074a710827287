/**
 * The single-process default (`make run`): the api (REST, docs, WebSocket gateway) and the daemon (every
 * bot) side by side on one database and the in-process bus. Chat commands reach the api through its own
 * fetch: no socket, no port. Scaled out, api/main.ts and daemon/main.ts run them apart.
 */
import { startApi } from './api/process';
import { chatApiFactory } from './daemon/chat/chat-api';
import { startDaemon } from './daemon/process';
import { loadConfig } from './shared/config';
import { configureThread } from './shared/configure-thread';
import { openBackends } from './shared/process';
import { onShutdown } from './shared/shutdown';

const config = loadConfig(process.env);
configureThread(config);
const backends = await openBackends(config, config.daemonId);
const api = await startApi(config, backends);
const chatApi = chatApiFactory({
  baseUrl: 'http://in-process',
  serviceToken: config.serviceToken,
  fetch: async (request) => api.app.fetch(request),
});
const daemon = await startDaemon(config, backends, chatApi);
onShutdown({ http: api.close, bots: () => daemon.stop(), backends });
