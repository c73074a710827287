/** The daemon alone (scaled-out layout): bots, voice sessions and playback, no HTTP. */
import { loadConfig } from '../shared/config';
import { configureThread } from '../shared/configure-thread';
import { logger } from '../shared/logger';
import { openBackends } from '../shared/process';
import { onShutdown } from '../shared/shutdown';
import { requestRealtimeClock } from '../shared/thread-priority';
import { startDaemon } from './process';

const config = loadConfig(process.env);
configureThread(config);
if (!config.natsUrl)
  throw new Error('a daemon on its own needs NATS_URL; `make run` runs everything in one process');
if (!config.apiUrl) logger('daemon').warn('API_URL is not set: bots will not answer chat commands');
const backends = await openBackends(config, config.daemonId, 'daemon');
// This thread runs the frame clock; before the daemon starts the threads and processes it will start.
await requestRealtimeClock();
const daemon = await startDaemon(config, backends);
onShutdown({ bots: () => daemon.stop(), backends });
