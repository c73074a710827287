import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ts3Client } from '../../daemon/ts3';
import { avatarFileName } from '../../daemon/ts3/avatar';
import { DEFAULT_CLIENT_VERSION, TS6_CLIENT_VERSION } from '../../daemon/ts3/client-version';
import type { TextMessage } from '../../daemon/ts3/notifications';
import { CLIENT_VERSIONS } from '../../shared/domain/client-versions';
import { dominantFrequencyHz, leftChannel } from '../../testkit/audio-signals';
import { LICENSE_SHAPES } from '../../testkit/ts3-server/license-signer';
import { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';
import { makeClient, nextEvent, opusSine, sendPaced } from './helpers';

/** The license chain of a TeamSpeak 3 server, and of a TeamSpeak 6 beta server (intermediate, type 8, ephemeral). */
const CHAIN_BLOCK_TYPES = { ts3: [2, 32], ts6: [0, 8, 32] };

describe.each(LICENSE_SHAPES)(
  'TS3 client against the test server over loopback (%s license chain)',
  (license) => {
    // The tone's length tells the jitter apart from noise; the second chain needs only to carry voice.
    const toneSeconds = license === 'ts3' ? 5 : 1;
    let server: Ts3TestServer;
    let bot: Ts3Client;
    let listener: Ts3Client;
    let musicId = 0;

    beforeAll(async () => {
      server = await Ts3TestServer.start({ license });
      musicId = [...server.channels.values()].find((c) => c.name === 'Music')!.id;
    });

    afterAll(async () => {
      await server.close();
    });

    it('connects and joins a password channel by name', async () => {
      bot = makeClient(server.port, server.rootPublicKey, {
        nickname: 'MusicBot',
        defaultChannel: 'Music',
        channelPassword: 'letmein',
      });
      const connected = nextEvent(server, 'clientConnected');
      const info = await bot.connect();
      expect(info.licenseBlockTypes).toEqual(CHAIN_BLOCK_TYPES[license]);
      // Left automatic, the version fits the server: the TS6 one drops a 3.x clientinit.
      expect(server.clients.find((c) => c.id === info.clientId)?.clientVersion).toBe(
        license === 'ts3' ? DEFAULT_CLIENT_VERSION.version : TS6_CLIENT_VERSION.version,
      );
      expect(info.channelId).toBe(musicId);
      expect(bot.channelId).toBe(musicId);
      expect((await connected) as { nickname: string }).toMatchObject({
        nickname: 'MusicBot',
        channelId: musicId,
      });
      expect(bot.identity!.securityLevel).toBeGreaterThanOrEqual(8);

      listener = makeClient(server.port, server.rootPublicKey, {
        nickname: 'Listener',
        defaultChannel: `/${musicId}`,
        channelPassword: 'letmein',
      });
      const entered = nextEvent(bot, 'clientEnter');
      await listener.connect();
      expect(listener.channelId).toBe(musicId);
      await entered;
      expect(
        bot
          .clientsInChannel()
          .map((c) => c.nickname)
          .sort(),
      ).toEqual(['Listener', 'MusicBot']);
      expect(bot.serverGroupsOf(listener.clientId)).toEqual([8]);
    });

    it.runIf(license === 'ts6')(
      'is dropped by the TS6 server when told to report a 3.x version',
      async () => {
        const old = makeClient(server.port, server.rootPublicKey, {
          nickname: 'OldClient',
          clientVersion: CLIENT_VERSIONS['3.6.3-windows'],
          connectTimeoutMs: 1000,
        });
        await expect(old.connect()).rejects.toThrow();
        expect(server.clientByName('OldClient')).toBeUndefined();
      },
    );

    it('lands in the default channel with a wrong channel password', async () => {
      const other = makeClient(server.port, server.rootPublicKey, {
        nickname: 'Wrong',
        defaultChannel: 'Music',
        channelPassword: 'nope',
      });
      const info = await other.connect();
      expect(server.channels.get(info.channelId)?.name).toBe('Lobby');
      await other.disconnect();
    });

    it('exchanges text both ways', async () => {
      const atServer = nextEvent(server, 'textMessage');
      const atListener = nextEvent<TextMessage>(listener, 'textMessage');
      await bot.sendChannelText('hello channel | with spaces/slashes');
      expect(await atServer).toMatchObject({
        fromId: bot.clientId,
        targetMode: 2,
        message: 'hello channel | with spaces/slashes',
      });
      expect(await atListener).toMatchObject({
        invokerName: 'MusicBot',
        mode: 2,
        message: 'hello channel | with spaces/slashes',
      });

      const privateToBot = nextEvent<TextMessage>(bot, 'textMessage');
      await listener.sendPrivateText(bot.clientId, '!play something');
      expect(await privateToBot).toMatchObject({
        mode: 1,
        invokerId: listener.clientId,
        message: '!play something',
      });

      const fromServer = nextEvent<TextMessage>(bot, 'textMessage');
      server.sendTextMessage(2, musicId, 'server says hi');
      expect(await fromServer).toMatchObject({ invokerId: 0, message: 'server says hi' });
    });

    it('changes nickname, description and away status', async () => {
      const seen = nextEvent<{ nickname: string }>(listener, 'clientUpdated', (c) => c.nickname === 'DJ Bot');
      await bot.setNickname('DJ Bot');
      await seen;
      expect(server.clientByName('DJ Bot')?.id).toBe(bot.clientId);

      await bot.setDescription('Plays music. Type !help');
      expect(server.clients.find((c) => c.id === bot.clientId)?.description).toBe('Plays music. Type !help');

      await bot.setAway('on a break');
      expect(server.clients.find((c) => c.id === bot.clientId)).toMatchObject({
        away: true,
        awayMessage: 'on a break',
      });
      await bot.setAway(false);
      expect(server.clients.find((c) => c.id === bot.clientId)?.away).toBe(false);
      expect(bot.book.clients.get(bot.clientId)?.description).toBe('Plays music. Type !help');
    });

    it('moves between channels, with and without the password', async () => {
      const moved = nextEvent<{ clientId: number; toChannelId: number }>(listener, 'clientMoved');
      await bot.moveTo('Lobby');
      expect(await moved).toMatchObject({ clientId: bot.clientId, fromChannelId: musicId });
      expect(server.channels.get(bot.channelId)?.name).toBe('Lobby');
      await expect(bot.moveTo('Music', 'wrong')).rejects.toMatchObject({ id: 781 });
      await bot.moveTo(musicId, 'letmein');
      expect(bot.channelId).toBe(musicId);
    });

    it('edits the channel description', async () => {
      const edited = nextEvent<{ description: string }>(listener, 'channelEdited');
      await bot.editChannelDescription(musicId, 'Now playing: a 440 Hz tone\nline two');
      expect(server.channels.get(musicId)?.description).toBe('Now playing: a 440 Hz tone\nline two');
      expect((await edited).description).toBe('Now playing: a 440 Hz tone\nline two');
    });

    it('uploads an avatar over file transfer and sets client_flag_avatar', async () => {
      const image = Buffer.alloc(20_000);
      for (let i = 0; i < image.length; i++) image[i] = (i * 31) & 0xff;
      const uploaded = nextEvent(server, 'avatarUploaded');
      await bot.uploadAvatar(image);
      const md5 = createHash('md5').update(image).digest('hex');
      expect(await uploaded).toMatchObject({ bytes: image.length, md5 });
      expect(server.avatars.get(avatarFileName(bot.identity!.uid))?.equals(image)).toBe(true);
      expect(server.clients.find((c) => c.id === bot.clientId)?.avatarHash).toBe(md5);
    });

    it(`sends ${toneSeconds} s of a 440 Hz tone the server decodes, with low jitter`, async () => {
      const packets = opusSine(440, toneSeconds);
      expect(packets).toHaveLength(toneSeconds * 50);
      const talking = nextEvent<{ talking: boolean }>(listener, 'talkStatus', (s) => s.talking);
      const stopped = nextEvent<{ talking: boolean }>(listener, 'talkStatus', (s) => !s.talking, 10_000);
      await sendPaced((i) => bot.sendVoice(packets[i]!), packets.length);
      bot.endVoice();
      await talking;
      await stopped;
      const stats = server.voiceStats(bot.clientId)!;
      const frequency = dominantFrequencyHz(leftChannel(server.voicePcm(bot.clientId)));
      console.log(
        `voice: ${stats.packets} packets, ${frequency} Hz, RFC 3550 jitter p99 ${stats.jitterP99Ms} ms, ` +
          `raw interval deviation p99 ${stats.intervalDeviationP99Ms} ms, mean interval ${stats.meanIntervalMs} ms`,
      );
      expect(stats.packets).toBeGreaterThanOrEqual(packets.length - 5);
      expect(stats.packets).toBeLessThanOrEqual(packets.length);
      expect(stats.endPackets).toBe(1);
      expect(stats.codec).toBe(5);
      expect(stats.decodeErrors).toBe(0);
      expect(stats.decodedSeconds).toBeGreaterThan(toneSeconds - 0.2);
      expect(Math.abs(frequency - 440)).toBeLessThan(3);
      // RFC 3550 interarrival jitter; the unsmoothed interval deviation is logged above, not asserted: on a
      // shared 2-core machine it is at the mercy of the OS scheduler.
      expect(stats.jitterP99Ms).toBeLessThan(10);
    });

    it('disconnects cleanly', async () => {
      const left = nextEvent<{ clientId: number }>(listener, 'clientLeave');
      const atServer = nextEvent(server, 'clientDisconnected');
      const disconnected = nextEvent<{ reason: string }>(bot, 'disconnected');
      await bot.disconnect('done');
      expect((await disconnected).reason).toBe('requested');
      expect((await left).clientId).toBeGreaterThan(0);
      await atServer;
      expect(bot.connected).toBe(false);
      await listener.disconnect();
    });
  },
);
