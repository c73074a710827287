/**
 * A plain HTTP load client, run as its own process (`fork` with tsx) so it does not share the event
 * loop of the server it measures: N keep-alive connections, each sending the next GET as soon as the
 * previous answer is read (or, with `ratePerSecond`, at that total rate spread over the connections:
 * the load of people using the service rather than of a stress test), for a fixed duration. Answers with the request count, requests/s, p50/p99
 * latency and the number of answers that were not 200.
 */
import { fork, spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const LoadPlanSchema = z.object({
  url: z.string(),
  headers: z.record(z.string(), z.string()),
  connections: z.number().int().positive(),
  warmupMs: z.number().nonnegative(),
  durationMs: z.number().positive(),
  ratePerSecond: z.number().positive().optional(),
  /**
   * The client's own priority (nice). Clients on the service's machine stand for clients elsewhere:
   * at a lower priority they still send as fast as answers come, but their CPU is not taken from the
   * service's threads, as a remote client's is not.
   */
  niceness: z.number().int().min(0).max(19).optional(),
});
export type LoadPlan = z.infer<typeof LoadPlanSchema>;

const LoadResultSchema = z.object({
  requests: z.number(),
  perSecond: z.number(),
  p50Ms: z.number(),
  p99Ms: z.number(),
  /** Answers other than 200, or failed requests: a measurement with any is not a fair one. */
  failures: z.number(),
});
export type LoadResult = z.infer<typeof LoadResultSchema>;

function get(agent: Agent, url: URL, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
      res.once('error', reject);
    });
    req.once('error', reject);
    req.end();
  });
}

const percentile = (sorted: Float64Array, p: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

async function runPlan(plan: LoadPlan): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: plan.connections });
  const url = new URL(plan.url);
  const latencies: number[] = [];
  let failures = 0;
  const started = performance.now();
  const measureFrom = started + plan.warmupMs;
  const end = measureFrom + plan.durationMs;

  const gapMs = plan.ratePerSecond ? (plan.connections * 1000) / plan.ratePerSecond : 0;
  async function connection(index: number): Promise<void> {
    // Paced connections start spread over one gap, so the rate is even rather than in bursts.
    let nextMs = started + (gapMs * index) / plan.connections;
    while (performance.now() < end) {
      if (gapMs > 0) {
        const waitMs = nextMs - performance.now();
        if (waitMs > 0) await sleep(waitMs);
        nextMs += gapMs;
        if (performance.now() >= end) break;
      }
      const sent = performance.now();
      const status = await get(agent, url, plan.headers).catch(() => 0);
      if (sent < measureFrom) continue;
      latencies.push(performance.now() - sent);
      if (status !== 200) failures++;
    }
  }
  await Promise.all(Array.from({ length: plan.connections }, (_, index) => connection(index)));
  agent.destroy();
  const sorted = Float64Array.from(latencies).sort();
  return {
    requests: latencies.length,
    perSecond: latencies.length / (plan.durationMs / 1000),
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    failures,
  };
}

/** Runs one plan in a fresh client process and resolves with its figures. */
export function loadFromAnotherProcess(plan: LoadPlan): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const script = fileURLToPath(import.meta.url);
    // Niced from the start: its own start-up (loading tsx, compiling) is client work too.
    const child =
      plan.niceness === undefined
        ? fork(script, [], { execArgv: ['--import', 'tsx'] })
        : spawn('nice', ['-n', String(plan.niceness), process.execPath, '--import', 'tsx', script], {
            stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
          });
    child.once('message', (result) => resolve(LoadResultSchema.parse(result)));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the load client exited with ${code}`));
    });
    child.send(plan);
  });
}

// In the forked client: wait for the plan, run it, report, leave.
if (process.send && process.argv[1] === fileURLToPath(import.meta.url)) {
  process.once('message', async (plan) => {
    const result = await runPlan(LoadPlanSchema.parse(plan));
    process.send!(result, () => process.exit(0));
  });
}
