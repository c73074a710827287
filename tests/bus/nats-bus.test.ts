import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BusError } from '../../shared/bus/bus';
import { NatsBus } from '../../shared/bus/nats-bus';
import { type NatsServerHandle, startNatsServer } from '../../testkit/nats-server';
import { runBusContract } from './bus.case';

let server: NatsServerHandle;
beforeAll(async () => {
  server = await startNatsServer();
});
afterAll(async () => {
  await server?.stop();
});

runBusContract('nats', () => NatsBus.connect({ url: server.url }));

/**
 * Leaves a request waiting on a responder that never answers (deadline 10 s), then runs `cut`: the
 * request must end as `unavailable` well before its deadline.
 */
async function expectWaitingRequestFailsFast(bus: NatsBus, cut: () => Promise<void>): Promise<void> {
  bus.respond('never', () => new Promise(() => {}));
  await bus.flush();
  const started = Date.now();
  const pending = bus.request('never', {}, { timeoutMs: 10_000 }).catch((e: unknown) => e);
  await new Promise((r) => setTimeout(r, 100));
  await cut();
  const error = await pending;
  expect(error).toBeInstanceOf(BusError);
  expect((error as BusError).failure).toBe('unavailable');
  expect(Date.now() - started).toBeLessThan(5000);
}

describe('nats bus when the server dies', () => {
  it('rejects a pending request as unavailable at once, and later ones too', async () => {
    const own = await startNatsServer();
    const bus = await NatsBus.connect({ url: own.url });
    try {
      await expectWaitingRequestFailsFast(bus, () => own.stop());
      const next = await bus.request('never', {}).catch((e: unknown) => e);
      expect((next as BusError).failure).toBe('unavailable');
    } finally {
      await bus.close();
    }
  });
});

describe('nats bus when it is closed', () => {
  it('rejects a request still waiting as unavailable at once, not at its deadline', async () => {
    const bus = await NatsBus.connect({ url: server.url });
    await expectWaitingRequestFailsFast(bus, () => bus.close());
  });
});
