/**
 * The main thread's handle on the daemon's thread (`make run`, composed in main.ts): starts it with the
 * configuration and serves it the bus and the api over ports, so the api's work and the daemon's 20 ms
 * clock never share an event loop. `stop()` lets the daemon save and disconnect its bots and waits for
 * the thread to end; a thread that does not end in time is terminated.
 */
import { MessageChannel, Worker } from 'node:worker_threads';
import type { Bus } from '../../shared/bus/bus';
import { type PortBusServer, serveBusOverPort } from '../../shared/bus/port-bus';
import type { AppConfig } from '../../shared/config';
import { logger } from '../../shared/logger';
import type { MetricsSnapshot } from '../../shared/metrics/exposition';
import { type FetchHandler, serveFetchOverPort } from '../../shared/port-fetch';
import { holdNativeOpus } from '../audio/encode/encoder';
import type { FrameReport } from '../daemon';
import type { DaemonThreadData, FromDaemonThread, ToDaemonThread } from './protocol';

const log = logger('daemon.thread');

/** What the thread answers a question with. */
type Answer = Extract<FromDaemonThread, { call: number }>;

export interface DaemonThread {
  /** The frame clock's counts and the bots' frames, from the thread itself. */
  frameReport(): Promise<FrameReport>;
  /** The daemon's metrics and its thread's, for the api's /metrics. */
  metrics(): Promise<MetricsSnapshot>;
  /** Asks the daemon to let its bots go, waits for the thread to end (terminating it past `timeoutMs`). */
  stop(timeoutMs: number): Promise<void>;
}

/** Starts the daemon's thread on `bus` (served to it over a port); chat commands reach `api`. */
export async function startDaemonThread(
  config: AppConfig,
  bus: Bus,
  api: FetchHandler,
): Promise<DaemonThread> {
  holdNativeOpus();
  const busChannel = new MessageChannel();
  const apiChannel = new MessageChannel();
  const served: PortBusServer = serveBusOverPort(bus, busChannel.port1);
  serveFetchOverPort(api, apiChannel.port1);
  const workerData: DaemonThreadData = { config, busPort: busChannel.port2, apiPort: apiChannel.port2 };
  const worker = new Worker(new URL('./daemon-thread-bootstrap.mjs', import.meta.url), {
    workerData,
    transferList: [busChannel.port2, apiChannel.port2],
  });
  const send = (message: ToDaemonThread) => worker.postMessage(message);
  // The thread's answers to `report` and `metrics`, by call number.
  const answers = new Map<number, (answer: Answer) => void>();
  let nextCall = 1;
  const ask = <K extends Answer['type']>(type: K) =>
    new Promise<Extract<Answer, { type: K }>>((resolve) => {
      const call = nextCall++;
      answers.set(call, resolve as (answer: Answer) => void);
      send({ type, call });
    });
  const ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.once('exit', (code) => {
    served.close();
    apiChannel.port1.close();
    if (code !== 0) log.error({ code }, 'the daemon thread ended');
  });
  worker.on('error', (error) => log.error({ err: error }, 'the daemon thread failed'));

  await new Promise<void>((resolve, reject) => {
    worker.on('message', (message: FromDaemonThread) => {
      if (message.type === 'started') resolve();
      else if (message.type === 'failed') reject(new Error(`the daemon did not start: ${message.message}`));
      else if ('call' in message) {
        answers.get(message.call)?.(message);
        answers.delete(message.call);
      }
    });
    worker.once('exit', (code) => reject(new Error(`the daemon thread ended before it started (${code})`)));
  });

  return {
    frameReport: async () => (await ask('report')).report,
    metrics: async () => (await ask('metrics')).metrics,
    stop: async (timeoutMs) => {
      send({ type: 'stop' });
      const timer = setTimeout(() => {
        log.warn({ timeoutMs }, 'the daemon thread did not end in time; terminating it');
        void worker.terminate();
      }, timeoutMs);
      await ended;
      clearTimeout(timer);
    },
  };
}
