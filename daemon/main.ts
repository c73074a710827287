/**
 * The daemon alone (scaled-out layout): bots, voice sessions and playback; no HTTP but its own
 * /metrics on DAEMON_METRICS_PORT when set.
 */
import { loadConfig } from '../shared/config';
import { configureThread } from '../shared/configure-thread';
import { logger } from '../shared/logger';
import { collectProcessMetrics, registrySource, threadRegistry } from '../shared/metrics/exposition';
import { openBackends } from '../shared/process';
import { onShutdown } from '../shared/shutdown';
import { requestRealtimeClock } from '../shared/thread-priority';
import { serveDaemonMetrics } from './metrics/metrics-listener';
import { startDaemon } from './process';

const config = loadConfig(process.env);
configureThread(config);
collectProcessMetrics();
if (!config.natsUrl)
  throw new Error('a daemon on its own needs NATS_URL; `make run` runs everything in one process');
if (!config.apiUrl) logger('daemon').warn('API_URL is not set: bots will not answer chat commands');
const backends = await openBackends(config, config.daemonId, 'daemon');
// This thread runs the frame clock; before the daemon starts the threads and processes it will start.
await requestRealtimeClock();
// A drained daemon has no bots left: it stops as a SIGTERM stops it, through the same shutdown.
const daemon = await startDaemon(config, backends, undefined, () => process.kill(process.pid, 'SIGTERM'));
// loadConfig refuses DAEMON_METRICS_PORT without METRICS_TOKEN.
const metrics =
  config.daemonMetricsPort === undefined || config.metricsToken === undefined
    ? undefined
    : await serveDaemonMetrics({
        host: config.host,
        port: config.daemonMetricsPort,
        token: config.metricsToken,
        sources: [registrySource(daemon.metrics.registry), registrySource(threadRegistry)],
      });
if (metrics) logger('daemon').info({ port: metrics.port }, 'serving /metrics');
onShutdown({ ...(metrics ? { http: metrics.close } : {}), bots: () => daemon.stop(), backends });
