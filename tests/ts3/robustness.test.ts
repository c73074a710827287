import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ts3ConnectError } from '../../daemon/ts3';
import type { TextMessage } from '../../daemon/ts3/notifications';
import { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';
import { makeClient, nextEvent } from './helpers';
import { LossyProxy } from './lossy-proxy';

/** s2c header: MAC 8 | packet id 2 | type byte. */
function s2cPacket(mac: Buffer, id: number, typeByte: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(3);
  head.writeUInt16BE(id, 0);
  head[2] = typeByte;
  return Buffer.concat([mac, head, payload]);
}

describe('robustness', () => {
  let server: Ts3TestServer;

  beforeAll(async () => {
    server = await Ts3TestServer.start();
  });

  afterAll(async () => {
    await server.close();
  });

  it('drops garbage, truncated, wrong-MAC and oversized datagrams without a crash', async () => {
    const bot = makeClient(server.port, server.rootPublicKey, { nickname: 'Sturdy' });
    await bot.connect();
    const hostile: Buffer[] = [
      Buffer.alloc(0),
      randomBytes(5),
      randomBytes(10),
      ...Array.from({ length: 50 }, (_, i) => randomBytes(11 + i * 9)),
      // Commands with ids around the ones in use, wrong MACs.
      ...Array.from({ length: 20 }, (_, i) => s2cPacket(randomBytes(8), i, 0x02, randomBytes(40))),
      // An unencrypted command must never be accepted.
      s2cPacket(
        Buffer.alloc(8),
        50,
        0x82,
        Buffer.from('notifytextmessage targetmode=2 msg=forged invokerid=9'),
      ),
      // Acks, voice and pings with wrong MACs.
      s2cPacket(randomBytes(8), 3, 0x06, Buffer.from([0, 2])),
      s2cPacket(randomBytes(8), 3, 0x80, Buffer.from([0, 3, 0, 9, 5, 1, 2, 3])),
      s2cPacket(randomBytes(8), 9, 0x84, Buffer.alloc(0)),
      // Init1 after the handshake, unknown packet types, oversized datagrams.
      s2cPacket(Buffer.from('TS3INIT1'), 101, 0x88, randomBytes(21)),
      s2cPacket(randomBytes(8), 1, 0x0f, randomBytes(20)),
      randomBytes(501),
      randomBytes(1400),
    ];
    const forged: TextMessage[] = [];
    bot.on('textMessage', (m) => forged.push(m));
    for (const datagram of hostile) server.sendRaw(bot.clientId, datagram);

    const echoed = nextEvent<TextMessage>(bot, 'textMessage', (m) => m.message === 'still alive');
    server.sendTextMessage(1, bot.clientId, 'still alive');
    await echoed;
    await bot.sendChannelText('and talking');
    expect(forged.map((m) => m.message)).toEqual(['still alive']);
    expect(bot.connected).toBe(true);
    await bot.disconnect();
  });

  it('the server survives garbage from anywhere and still accepts clients', async () => {
    const attacker = createSocket('udp4');
    for (let i = 0; i < 100; i++) attacker.send(randomBytes(i * 7), server.port, '127.0.0.1');
    // A fake Init1 start followed by junk on the same address.
    const init1 = Buffer.concat([
      Buffer.from('TS3INIT1'),
      Buffer.from([0, 101, 0, 0, 0x88]),
      randomBytes(21),
    ]);
    attacker.send(init1, server.port, '127.0.0.1');
    attacker.send(Buffer.concat([init1.subarray(0, 13), randomBytes(300)]), server.port, '127.0.0.1');
    await new Promise((r) => setTimeout(r, 200));
    attacker.close();
    const bot = makeClient(server.port, server.rootPublicKey, { nickname: 'AfterTheStorm' });
    await bot.connect();
    await bot.disconnect();
  });

  it('an address that cannot be looked up fails the attempt, not the process', async () => {
    // A host and port typed into one field: no such name, so the socket never connects.
    const bot = makeClient(9987, server.rootPublicKey, { address: '127.0.0.1:9987', connectTimeoutMs: 5000 });
    const error = await bot.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Ts3ConnectError);
    expect((error as Ts3ConnectError).kind).toBe('socket');
  });

  it('a server that never answers gives a clear error within the deadline', async () => {
    const silent = createSocket('udp4');
    await new Promise<void>((r) => silent.bind(0, '127.0.0.1', () => r()));
    const bot = makeClient(silent.address().port, server.rootPublicKey, { connectTimeoutMs: 1500 });
    const started = Date.now();
    const error = await bot.connect().catch((e: unknown) => e);
    const elapsed = Date.now() - started;
    silent.close();
    expect(error).toBeInstanceOf(Ts3ConnectError);
    expect((error as Ts3ConnectError).kind).toBe('timeout');
    expect((error as Error).message).toMatch(/within 1500 ms \(stuck at: init1\)/);
    expect(elapsed).toBeGreaterThanOrEqual(1400);
    expect(elapsed).toBeLessThan(4000);
  });

  it('a server that stops answering mid-handshake gives a clear error within the deadline', async () => {
    const proxy = await LossyProxy.start({ targetPort: server.port, serverDatagramLimit: 2 });
    const bot = makeClient(proxy.port, server.rootPublicKey, { connectTimeoutMs: 2000 });
    const error = await bot.connect().catch((e: unknown) => e);
    proxy.close();
    expect(error).toBeInstanceOf(Ts3ConnectError);
    expect((error as Error).message).toMatch(/stuck at: init1/);
  });

  it('a server whose license does not chain to our root cannot finish the handshake', async () => {
    const other = await Ts3TestServer.start();
    const bot = makeClient(server.port, other.rootPublicKey, { connectTimeoutMs: 1500 });
    const error = await bot.connect().catch((e: unknown) => e);
    await other.close();
    expect(error).toBeInstanceOf(Ts3ConnectError);
    expect((error as Error).message).toMatch(/stuck at: clientinit-sent/);
  });

  it('a server that goes silent after connect ends the session as connectionLost', async () => {
    const own = await Ts3TestServer.start();
    const bot = makeClient(own.port, own.rootPublicKey, { lossTimeoutMs: 1500 });
    await bot.connect();
    const lost = nextEvent<{ reason: string; message: string }>(bot, 'disconnected', () => true, 6000);
    own.pause();
    const event = await lost;
    expect(event.reason).toBe('connectionLost');
    expect(event.message).toMatch(/1500 ms/);
    await own.close();
  });
});
