/**
 * The single-machine default (`make run`), one command and no NATS: the api (REST, docs, WebSocket
 * gateway) on the main thread and the daemon (every bot, its voice session and its 20 ms frame clock)
 * on a thread of its own, on one database; the bus lives here and reaches the daemon's thread over a
 * port. Chat commands come back to the api over a port too: no socket. Nothing the api does (parsing,
 * auth, JSON, WebSocket fan-out) runs on the thread that owns the clock, and under a flood of requests
 * this thread yields the CPU to it (a lower priority: it still gets every core the bots leave idle).
 * Scaled out, api/main.ts and daemon/main.ts run the two as processes of their own.
 */
import { startApi } from './api/process';
import { startDaemonThread } from './daemon/thread/daemon-thread-host';
import { loadConfig } from './shared/config';
import { configureThread } from './shared/configure-thread';
import { collectProcessMetrics } from './shared/metrics/exposition';
import { openBackends } from './shared/process';
import { onShutdown } from './shared/shutdown';
import { API_NICENESS, lowerThreadPriority } from './shared/thread-priority';

/** Within the shutdown's budget for the bots (5 s): past it the daemon's thread is terminated. */
const DAEMON_STOP_MS = 4500;

const config = loadConfig(process.env);
configureThread(config);
collectProcessMetrics();
// The database handle here is the api's: the daemon's thread opens one of its own.
const backends = await openBackends(config, config.daemonId, 'api');
// The daemon first: once the api answers, the bots are there too (its thread takes a few seconds to
// load). Chat commands only come from a voice session, by which time the api is up.
const daemon = await startDaemonThread(config, backends.bus, (request) => api.app.fetch(request));
// One /metrics for the one process: the api's, and the daemon's asked of its thread at each scrape.
const api = await startApi(config, backends, [() => daemon.metrics()]);
// After the daemon's thread started: a thread inherits the priority of the one that starts it.
lowerThreadPriority(API_NICENESS);
onShutdown({ http: api.close, bots: () => daemon.stop(DAEMON_STOP_MS), backends });
