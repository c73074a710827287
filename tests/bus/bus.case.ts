/**
 * The bus contract: every implementation runs these cases (in-process, NATS and MessagePort alike).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Bus, BusError } from '../../shared/bus/bus';

const waitFor = async (check: () => boolean, timeoutMs = 2000): Promise<void> => {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
};

async function failureOf(promise: Promise<unknown>): Promise<BusError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof BusError) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

export function runBusContract(name: string, createBus: () => Promise<Bus>): void {
  describe(`bus contract: ${name}`, () => {
    let bus: Bus;
    beforeEach(async () => {
      bus = await createBus();
    });
    afterEach(async () => {
      await bus.close();
    });

    it('answers a request with the responder reply', async () => {
      bus.respond('bot.b1.cmd', (data) => ({ echoed: data, n: 42 }));
      await bus.flush();
      await expect(bus.request('bot.b1.cmd', { op: 'status' })).resolves.toEqual({
        echoed: { op: 'status' },
        n: 42,
      });
    });

    it('waits for an async responder', async () => {
      bus.respond('slow.ok', async () => {
        await new Promise((r) => setTimeout(r, 50));
        return 'late but fine';
      });
      await bus.flush();
      await expect(bus.request('slow.ok', null, { timeoutMs: 2000 })).resolves.toBe('late but fine');
    });

    it('fails fast with no-responders when nobody owns the subject', async () => {
      const started = Date.now();
      const error = await failureOf(bus.request('bot.nobody.cmd', {}, { timeoutMs: 3000 }));
      expect(error.failure).toBe('no-responders');
      expect(Date.now() - started).toBeLessThan(1000);
    });

    it('times out when the responder never answers', async () => {
      bus.respond('stuck', () => new Promise(() => {}));
      await bus.flush();
      const started = Date.now();
      const error = await failureOf(bus.request('stuck', {}, { timeoutMs: 200 }));
      expect(error.failure).toBe('timeout');
      expect(Date.now() - started).toBeGreaterThanOrEqual(150);
      expect(Date.now() - started).toBeLessThan(2000);
    });

    it('carries a responder exception back as handler-failed', async () => {
      bus.respond('boom', () => {
        throw new Error('kaput');
      });
      await bus.flush();
      const error = await failureOf(bus.request('boom', {}));
      expect(error.failure).toBe('handler-failed');
      expect(error.message).toContain('kaput');
    });

    it('delivers publishes to exact, * and > subscribers only', async () => {
      const seen: string[] = [];
      bus.subscribe('bot.b1.state', (_, subject) => seen.push(`exact:${subject}`));
      bus.subscribe('bot.*.state', (_, subject) => seen.push(`star:${subject}`));
      bus.subscribe('bot.>', (_, subject) => seen.push(`tail:${subject}`));
      bus.subscribe('bots.events', (_, subject) => seen.push(`other:${subject}`));
      await bus.flush();
      bus.publish('bot.b1.state', { playing: true });
      bus.publish('bot.b2.cmd.extra', {});
      await waitFor(() => seen.length >= 4);
      await new Promise((r) => setTimeout(r, 50));
      expect(seen.sort()).toEqual([
        'exact:bot.b1.state',
        'star:bot.b1.state',
        'tail:bot.b1.state',
        'tail:bot.b2.cmd.extra',
      ]);
    });

    it('passes payloads as JSON values', async () => {
      const received: unknown[] = [];
      bus.subscribe('data', (d) => received.push(d));
      await bus.flush();
      bus.publish('data', { nested: { list: [1, 'two', null] }, flag: false });
      await waitFor(() => received.length === 1);
      expect(received[0]).toEqual({ nested: { list: [1, 'two', null] }, flag: false });
    });

    it('stops delivering after unsubscribe', async () => {
      let count = 0;
      const sub = bus.subscribe('tick', () => count++);
      await bus.flush();
      bus.publish('tick', 1);
      await waitFor(() => count === 1);
      sub.unsubscribe();
      await bus.flush();
      bus.publish('tick', 2);
      await new Promise((r) => setTimeout(r, 100));
      expect(count).toBe(1);
    });

    it('resolves once with the first reply when two responders answer', async () => {
      bus.respond('dup', () => 'first');
      bus.respond('dup', async () => {
        await new Promise((r) => setTimeout(r, 100));
        return 'second';
      });
      await bus.flush();
      await expect(bus.request('dup', {})).resolves.toBe('first');
    });

    it('rejects requests as unavailable after close', async () => {
      await bus.close();
      const error = await failureOf(bus.request('anything', {}));
      expect(error.failure).toBe('unavailable');
    });
  });
}
