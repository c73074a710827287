/**
 * Metrics in the Prometheus text format, written by prom-client. Every part of the service keeps its
 * own registry (the api app's, each daemon's, and this thread's shared one: platform errors and the
 * process's own figures); `/metrics` gathers them as JSON snapshots, which also cross a thread (the
 * daemon's thread in `make run`), and has prom-client write them as one text.
 */
import { AggregatorRegistry, collectDefaultMetrics, Registry } from 'prom-client';

export type MetricsSnapshot = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;
/** One registry's metrics, wherever it is (this thread, or another one over a port). */
export type MetricsSource = () => Promise<MetricsSnapshot>;

export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

/**
 * This thread's registry of what shared code counts (platform errors) and of the process's own
 * figures. A module instance per thread: the daemon's thread in `make run` has one of its own.
 */
export const threadRegistry = new Registry();

export const registrySource =
  (registry: Registry): MetricsSource =>
  () =>
    registry.getMetricsAsJSON();

let processMetricsOn = false;

/** The process's CPU, memory, event loop and GC figures; called by the entries, once per process. */
export function collectProcessMetrics(): void {
  if (processMetricsOn) return;
  processMetricsOn = true;
  collectDefaultMetrics({ register: threadRegistry });
}

/**
 * The sources as one text. A family only one source has is written as it is; one that several have
 * (platform errors counted on the api's thread and on the daemon's) is added up, which is what the
 * process as a whole counted. So every family is summed, whatever aggregation prom-client's cluster
 * mode would give it (its defaults omit or average some process figures across worker processes).
 */
export async function exposition(sources: readonly MetricsSource[]): Promise<string> {
  const snapshots = await Promise.all(sources.map((source) => source()));
  const summed = snapshots.map((metrics) =>
    metrics.map((metric) => ({ ...metric, aggregator: 'sum' as const })),
  );
  return AggregatorRegistry.aggregate(summed).metrics();
}
