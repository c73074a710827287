import { afterEach, describe, expect, it } from 'vitest';
import { logger } from '../../shared/logger';
import { SessionKeys, sealPacket } from './crypt';
import { headerBytes, PacketFlag, PacketType, writeMeta } from './packet';
import { PacketHandler } from './packet-handler';
import { field, hex, vector } from './test-vectors';

/** A client and a server handler wired back to back in memory, with a filter on each direction. */
function pair(deliver: (toServer: boolean, datagram: Buffer) => boolean = () => true) {
  const log = logger('test');
  const toClient: Buffer[] = [];
  const toServer: Buffer[] = [];
  const client = new PacketHandler({
    role: 'client',
    log,
    send: (d) => deliver(true, d) && toServer.push(d),
  });
  const server = new PacketHandler({
    role: 'server',
    log,
    send: (d) => deliver(false, d) && toClient.push(d),
  });
  /** Delivers everything queued, in `order`, until both sides are quiet. */
  const flush = (order: (batch: Buffer[]) => Buffer[] = (b) => b) => {
    while (toClient.length + toServer.length > 0) {
      for (const d of order(toServer.splice(0))) server.receive(d);
      for (const d of order(toClient.splice(0))) client.receive(d);
    }
  };
  const keys = new SessionKeys(Buffer.alloc(64, 3));
  client.setSession(keys);
  server.setSession(keys);
  return { client, server, flush };
}

describe('packet handler', () => {
  const open: PacketHandler[] = [];
  afterEach(() => {
    for (const h of open.splice(0)) h.close();
  });

  it('splits a long command at the 500-byte limit and joins it in order despite reordering', () => {
    const { client, server, flush } = pair();
    open.push(client, server);
    const sizes: number[] = [];
    const received: string[] = [];
    server.on('command', (t) => received.push(t));
    const text = `channeledit cid=1 channel_description=${'a\\sb'.repeat(700)}`;
    const realSend = client.transmit.bind(client);
    client.transmit = (d) => {
      sizes.push(d.length);
      realSend(d);
    };
    client.sendCommand(text);
    client.sendCommand('clientupdate client_nickname=after');
    flush((batch) => batch.reverse());
    expect(Math.max(...sizes)).toBeLessThanOrEqual(500);
    expect(sizes.length).toBeGreaterThan(5);
    expect(received).toEqual([text, 'clientupdate client_nickname=after']);
  });

  it('joins and decompresses a compressed, fragmented command (vector qlz_string_decompress_lvl1)', () => {
    const { client } = pair();
    open.push(client);
    const v = vector('quicklz', 'qlz_string_decompress_lvl1');
    const received: string[] = [];
    client.on('command', (t) => received.push(t));
    // Our server side never compresses, so the two fragments are built by hand: the first carries
    // FRAGMENTED|COMPRESSED, the last FRAGMENTED.
    const compressed = hex(field(v, 'compressed'));
    const keys = new SessionKeys(Buffer.alloc(64, 3));
    const fragments = [compressed.subarray(0, 489), compressed.subarray(489)];
    const flags = [PacketFlag.Fragmented | PacketFlag.Compressed, PacketFlag.Fragmented];
    const datagrams = fragments.map((chunk, id) =>
      sealPacket(
        keys.keyNonce('s2c', PacketType.Command, 0, id),
        writeMeta('s2c', id, 0, PacketType.Command, flags[id]!),
        chunk,
      ),
    );
    expect(datagrams[0]!.length).toBe(500);
    client.receive(datagrams[1]!);
    client.receive(datagrams[0]!);
    expect(received).toEqual([field(v, 'decompressed_text')]);
  });

  it('acks duplicates again and hands each command up once', () => {
    const { client, server, flush } = pair();
    open.push(client, server);
    const received: string[] = [];
    server.on('command', (t) => received.push(t));
    const sent: Buffer[] = [];
    const realSend = client.transmit.bind(client);
    client.transmit = (d) => {
      sent.push(d);
      realSend(d);
    };
    client.sendCommand('sendtextmessage targetmode=2 msg=once');
    flush();
    for (const d of sent) server.receive(d);
    flush();
    expect(received).toEqual(['sendtextmessage targetmode=2 msg=once']);
  });

  it('resends an unacked command until it gets through', async () => {
    let dropFirst = true;
    const { client, server, flush } = pair((toServer) => {
      if (toServer && dropFirst) {
        dropFirst = false;
        return false;
      }
      return true;
    });
    open.push(client, server);
    const received: string[] = [];
    server.on('command', (t) => received.push(t));
    client.sendCommand('clientupdate client_away=1');
    flush();
    expect(received).toEqual([]);
    await new Promise((r) => setTimeout(r, 700));
    flush();
    expect(received).toEqual(['clientupdate client_away=1']);
  });

  it('answers pings and carries voice with the SharedMac', () => {
    const { client, server, flush } = pair();
    open.push(client, server);
    const voice: Buffer[] = [];
    server.on('voice', (p, type) => type === PacketType.Voice && voice.push(p));
    const packet = client.prepareVoice(Buffer.from([5, 1, 2, 3]));
    client.transmitVoice(packet);
    client.encryptVoice = true;
    client.transmitVoice(client.prepareVoice(Buffer.from([5, 4, 5, 6])));
    flush();
    expect(voice.map((p) => p.subarray(2).toString('hex'))).toEqual(['05010203', '05040506']);
    expect(voice.map((p) => p.readUInt16BE(0))).toEqual([0, 1]);
  });
});

describe('voice packets built ahead of their send', () => {
  const open: PacketHandler[] = [];
  afterEach(() => {
    for (const h of open.splice(0)) h.close();
  });

  /** The client's datagrams as they leave, and the voice the server gets from them. */
  function watched() {
    const { client, server, flush } = pair();
    open.push(client, server);
    const sent: Buffer[] = [];
    const realSend = client.transmit.bind(client);
    client.transmit = (d) => {
      sent.push(d);
      realSend(d);
    };
    const voice: string[] = [];
    server.on('voice', (p) => voice.push(`${p.readUInt16BE(0)}:${p.subarray(2).toString('hex')}`));
    return { client, server, flush, sent, voice };
  }

  it('sends a packet that still holds as it was built, and spends no id on one never sent', () => {
    const { client, flush, sent, voice } = watched();
    client.prepareVoice(Buffer.from([5, 1]));
    const second = client.prepareVoice(Buffer.from([5, 2]));
    client.transmitVoice(second);
    const third = client.prepareVoice(Buffer.from([5, 3]));
    client.transmitVoice(third);
    flush();
    expect(sent).toEqual([second.datagram, third.datagram]);
    expect(voice).toEqual(['0:0502', '1:0503']);
  });

  it('builds a packet again when another went out first, so ids stay in order without a gap', () => {
    const { client, flush, sent, voice } = watched();
    const early = client.prepareVoice(Buffer.from([5, 1]));
    client.sendVoice(Buffer.from([5, 0]));
    client.transmitVoice(early);
    flush();
    expect(sent[1]).not.toEqual(early.datagram);
    expect(voice).toEqual(['0:0500', '1:0501']);
  });

  it('seals a packet again when the server turned voice encryption on after it was built', () => {
    const { client, flush, sent, voice } = watched();
    /** The c2s header's type-and-flags byte, its last. */
    const flagsAt = headerBytes('c2s') - 1;
    const plain = client.prepareVoice(Buffer.from([5, 7]));
    expect(plain.datagram[flagsAt]! & PacketFlag.Unencrypted).toBe(PacketFlag.Unencrypted);
    client.encryptVoice = true;
    client.transmitVoice(plain);
    flush();
    expect(sent[0]![flagsAt]! & PacketFlag.Unencrypted).toBe(0);
    expect(voice).toEqual(['0:0507']);
  });

  it('builds a packet of an earlier connection again on the new one', () => {
    const before = watched();
    const stale = before.client.prepareVoice(Buffer.from([5, 9]));
    before.client.close();
    const after = watched();
    after.client.sendVoice(Buffer.from([5, 8]));
    after.client.transmitVoice(stale);
    after.flush();
    expect(after.sent[1]).not.toEqual(stale.datagram);
    expect(after.voice).toEqual(['0:0508', '1:0509']);
  });
});
