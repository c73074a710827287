/**
 * SPEC: a start whose handshake exceeds 15 s tears the instance down and answers 500; a start where
 * nothing listens at the address says so, in the asked language, rather than the socket's error.
 */
import { createSocket, type Socket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';
import { DaemonHarness } from './harness';

describe('starting a bot against a server that never answers', () => {
  let silent: Socket;
  let server: Ts3TestServer;
  let h: DaemonHarness;

  beforeAll(async () => {
    silent = createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', () => resolve()));
    server = await Ts3TestServer.start();
    h = await DaemonHarness.create(server);
    await h.startDaemon();
  });

  afterAll(async () => {
    await h?.close();
    await server?.close();
    silent?.close();
  });

  it('answers 500 after 15 s and stays disconnected; status never waits behind the start', async () => {
    const bot = await h.addBot(silent.address().port, { name: 'Hanging' });
    const startedAt = Date.now();
    const pending = h.command(bot, 'start');
    // Read-only operations answer at once instead of queueing behind the 15 s start.
    await new Promise((r) => setTimeout(r, 1000));
    const quick = Date.now();
    expect(await h.status(bot)).toMatchObject({ connected: false });
    expect(Date.now() - quick).toBeLessThan(500);
    const reply = await pending;
    const tookMs = Date.now() - startedAt;
    expect(reply).toMatchObject({
      ok: false,
      status: 500,
      message: 'Could not connect: the voice server did not complete the handshake within 15 s.',
    });
    expect(tookMs).toBeGreaterThanOrEqual(14_900);
    expect(tookMs).toBeLessThan(18_000);
    expect(await h.status(bot)).toMatchObject({ connected: false, playing: false });
  }, 30_000);

  it('says nothing answers at the address when the port is closed, at once', async () => {
    // A port just freed: the kernel answers the bot's first packet with "port unreachable".
    const closed = createSocket('udp4');
    await new Promise<void>((resolve) => closed.bind(0, '127.0.0.1', () => resolve()));
    const port = closed.address().port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const bot = await h.addBot(port, { name: 'Nowhere' });
    const startedAt = Date.now();
    const reply = await h.command(bot, 'start');
    expect(reply).toMatchObject({
      ok: false,
      status: 500,
      message: `Could not connect: nothing answers at 127.0.0.1:${port}; check the voice server's address and port.`,
      phrases: [{ code: 'startUnreachable', params: { address: `127.0.0.1:${port}` } }],
    });
    expect(Date.now() - startedAt).toBeLessThan(10_000);
    expect(await h.status(bot)).toMatchObject({ connected: false });
  }, 30_000);
});
