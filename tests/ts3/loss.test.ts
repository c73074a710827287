import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';
import { makeClient, nextEvent } from './helpers';
import { LossyProxy } from './lossy-proxy';

describe('TS3 client with 10% of datagrams dropped each way', () => {
  let server: Ts3TestServer;
  let proxy: LossyProxy;

  beforeAll(async () => {
    server = await Ts3TestServer.start();
    proxy = await LossyProxy.start({ targetPort: server.port, dropRate: 0.1, seed: 4 });
  });

  afterAll(async () => {
    proxy.close();
    await server.close();
  });

  it('completes the handshake and every command (resend works)', async () => {
    const bot = makeClient(proxy.port, server.rootPublicKey, {
      nickname: 'LossyBot',
      defaultChannel: 'Music',
      channelPassword: 'letmein',
      connectTimeoutMs: 30_000,
    });
    const info = await bot.connect();
    expect(server.channels.get(info.channelId)?.name).toBe('Music');

    const texts: string[] = [];
    server.on('textMessage', (e) => texts.push(e.message));
    for (let i = 0; i < 10; i++) await bot.sendChannelText(`message ${i} ${'x'.repeat(i * 100)}`);
    expect(texts).toEqual(Array.from({ length: 10 }, (_, i) => `message ${i} ${'x'.repeat(i * 100)}`));

    await bot.setNickname('Lossy DJ');
    await bot.setDescription('d'.repeat(180));
    await bot.setAway('brb');
    await bot.editChannelDescription(info.channelId, 'long description '.repeat(60));
    await bot.moveTo('Lobby');
    const me = server.clients.find((c) => c.id === bot.clientId)!;
    expect(me).toMatchObject({
      nickname: 'Lossy DJ',
      description: 'd'.repeat(180),
      away: true,
      awayMessage: 'brb',
    });
    expect(server.channels.get(info.channelId)?.description).toBe('long description '.repeat(60));
    expect(server.channels.get(me.channelId)?.name).toBe('Lobby');

    const gone = nextEvent(server, 'clientDisconnected', () => true, 10_000);
    await bot.disconnect();
    await gone;
    console.log(`loss: dropped ${proxy.dropped.toServer} to server, ${proxy.dropped.toClient} to client`);
    expect(proxy.dropped.toServer).toBeGreaterThan(0);
    expect(proxy.dropped.toClient).toBeGreaterThan(0);
  }, 60_000);
});
