/**
 * The messages between the main thread and the daemon's thread (`make run`). Bus traffic and the chat
 * commands' HTTP requests have ports of their own (shared/bus/port-bus.ts, shared/port-fetch.ts);
 * these are the thread's own lifecycle, its frame report and its metrics.
 */
import type { MessagePort } from 'node:worker_threads';
import type { AppConfig } from '../../shared/config';
import type { MetricsSnapshot } from '../../shared/metrics/exposition';
import type { FrameReport } from '../daemon';

/** What the thread starts with: the entry's configuration, handed down, and its two ports. */
export interface DaemonThreadData {
  config: AppConfig;
  /** The bus: served on the main thread, a PortBus here. */
  busPort: MessagePort;
  /** Chat commands' requests to the api, answered on the main thread. */
  apiPort: MessagePort;
}

export type ToDaemonThread =
  | { type: 'stop' }
  | { type: 'report'; call: number }
  | { type: 'metrics'; call: number };

export type FromDaemonThread =
  | { type: 'started' }
  | { type: 'failed'; message: string }
  | { type: 'stopped' }
  | { type: 'report'; call: number; report: FrameReport }
  | { type: 'metrics'; call: number; metrics: MetricsSnapshot };
