import { MessageChannel } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { BusError } from '../../shared/bus/bus';
import { InProcessBus } from '../../shared/bus/in-process-bus';
import { PortBus, serveBusOverPort } from '../../shared/bus/port-bus';
import { runBusContract } from './bus.case';

const served: InProcessBus[] = [];
afterAll(async () => {
  for (const bus of served) await bus.close();
});

/** An in-process bus served over one end of a channel, and the PortBus on the other end. */
function portBusPair() {
  const hub = new InProcessBus();
  served.push(hub);
  const { port1, port2 } = new MessageChannel();
  serveBusOverPort(hub, port1);
  return { hub, bus: new PortBus(port2), hubPort: port1, busPort: port2 };
}

runBusContract('message port', async () => portBusPair().bus);

describe('message port bus across the boundary', () => {
  it('reaches responders and subscribers on the serving side, and they reach it', async () => {
    const { hub, bus } = portBusPair();
    hub.respond('api.side', (data) => ({ answeredBy: 'hub', data }));
    bus.respond('daemon.side', (data) => ({ answeredBy: 'port', data }));
    const heardOnHub: unknown[] = [];
    hub.subscribe('bot.*.state', (data) => heardOnHub.push(data));
    await bus.flush();
    await expect(bus.request('api.side', 1)).resolves.toEqual({ answeredBy: 'hub', data: 1 });
    await expect(hub.request('daemon.side', 2)).resolves.toEqual({ answeredBy: 'port', data: 2 });
    bus.publish('bot.b1.state', { at: new Date(0) });
    await expect.poll(() => heardOnHub).toEqual([{ at: '1970-01-01T00:00:00.000Z' }]);
    await bus.close();
  });

  it('when the far side goes away: its pending requests fail as unavailable, its responders are gone', async () => {
    const { hub, bus, busPort } = portBusPair();
    bus.respond('bot.b1.cmd', () => new Promise(() => {}));
    await bus.flush();
    const waitingOnHub = hub.request('bot.b1.cmd', {}, { timeoutMs: 10_000 }).catch((e: unknown) => e);
    const waitingOnPort = bus.request('bot.b1.cmd', {}, { timeoutMs: 10_000 }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    // What a daemon thread that ends does to its port.
    busPort.close();
    const [hubError, portError] = await Promise.all([waitingOnHub, waitingOnPort]);
    expect(Date.now() - started).toBeLessThan(2000);
    expect((portError as BusError).failure).toBe('unavailable');
    expect((hubError as BusError).failure).toBe('unavailable');
    expect(bus.available).toBe(false);
    const after = await hub.request('bot.b1.cmd', {}).catch((e: unknown) => e);
    expect(after).toBeInstanceOf(BusError);
    expect((after as BusError).failure).toBe('no-responders');
  });

  it('a request that crosses an unsubscribe on the far side finds no responder, not a failed one', async () => {
    const { hub, bus } = portBusPair();
    const responder = bus.respond('bot.b1.cmd', () => 'answered');
    await bus.flush();
    // The hub still lists the responder when it sends the request across; the far side has let it go.
    const asked = hub.request('bot.b1.cmd', {}).catch((e: unknown) => e);
    responder.unsubscribe();
    const error = await asked;
    expect(error).toBeInstanceOf(BusError);
    expect((error as BusError).failure).toBe('no-responders');
    await bus.close();
  });
});
