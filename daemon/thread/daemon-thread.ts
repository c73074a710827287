/**
 * The daemon on a worker thread of its own (`make run`): every bot, its voice session and its 20 ms
 * frame clock run here, and nothing the api does (parsing, auth, JSON, WebSocket fan-out) does. It
 * gets the configuration the entry parsed, reaches the bus the api serves through a PortBus, and
 * sends chat commands' requests to the api over a port (no socket). On `stop` it lets its bots go
 * (queues saved, voice sessions closed) and lets go of the bus and the database; then the thread ends.
 */
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { PortBus } from '../../shared/bus/port-bus';
import { configureThread } from '../../shared/configure-thread';
import { openDaemonDb } from '../../shared/db/daemon-db';
import { threadRegistry } from '../../shared/metrics/exposition';
import { portFetch } from '../../shared/port-fetch';
import { requestRealtimeClock } from '../../shared/thread-priority';
import { audioWorkerPool } from '../audio/engine/audio-worker-pool';
import { chatApiFactory } from '../chat/chat-api';
import type { Daemon } from '../daemon';
import { startDaemon } from '../process';
import type { DaemonThreadData, FromDaemonThread, ToDaemonThread } from './protocol';

if (!parentPort) throw new Error('daemon-thread.ts runs only as a worker thread');
const port: MessagePort = parentPort;
const { config, busPort, apiPort } = workerData as DaemonThreadData;
configureThread(config);
const post = (message: FromDaemonThread) => port.postMessage(message);

// The main thread opened and migrated the database before starting this thread. A local file's
// statements run on a thread of their own, not on this one, which runs the frame clock.
const db = openDaemonDb({ url: config.databaseUrl, authToken: config.databaseAuthToken });
const bus = new PortBus(busPort, config.busTimeoutMs);
const chatApi = chatApiFactory({
  baseUrl: 'http://in-process',
  serviceToken: config.serviceToken,
  fetch: portFetch(apiPort),
});

let daemon: Daemon | undefined;

async function stop(): Promise<void> {
  await daemon?.stop();
  // Its threads stop (and their ffmpeg children with them) before this one ends, not by its end.
  await audioWorkerPool().close();
  await bus.close();
  apiPort.close();
  // A local file's client ends its own thread: this one ends after it.
  await db.$client.close();
  post({ type: 'stopped' });
  port.close();
}

port.on('message', (message: ToDaemonThread) => {
  if (message.type === 'stop') void stop();
  else if (message.type === 'report' && daemon)
    post({ type: 'report', call: message.call, report: daemon.frameReport() });
  else if (message.type === 'metrics' && daemon) void postMetrics(message.call, daemon);
});

/** The daemon's metrics and this thread's (its platform errors), for the api's /metrics. */
async function postMetrics(call: number, running: Daemon): Promise<void> {
  const [own, thread] = await Promise.all([
    running.metrics.registry.getMetricsAsJSON(),
    threadRegistry.getMetricsAsJSON(),
  ]);
  post({ type: 'metrics', call, metrics: [...own, ...thread] });
}

try {
  // This thread runs the frame clock; before the daemon starts the threads and processes it will start.
  await requestRealtimeClock();
  daemon = await startDaemon(config, { db, bus }, chatApi);
  post({ type: 'started' });
} catch (error) {
  post({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
}
