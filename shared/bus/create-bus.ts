import type { Bus } from './bus';
import { InProcessBus } from './in-process-bus';
import { NatsBus } from './nats-bus';

/** NATS when a URL is configured, the in-process bus otherwise (the single-process default). */
export async function createBus(
  natsUrl: string | undefined,
  defaultTimeoutMs: number,
  name?: string,
): Promise<Bus> {
  if (!natsUrl) return new InProcessBus(defaultTimeoutMs);
  return NatsBus.connect({ url: natsUrl, defaultTimeoutMs, ...(name ? { name } : {}) });
}
