/**
 * TS3 protocol costs: handshake time against the in-process test server over loopback, and the
 * per-packet cost of EAX encryption and decryption (what every command and encrypted voice packet pays),
 * plus building an unencrypted voice packet (what a bot pays 50 times a second).
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { parseLicenseRoot, Ts3Client } from '../daemon/ts3';
import { openPacket, SessionKeys, sealPacket } from '../daemon/ts3/crypt';
import { Identity } from '../daemon/ts3/identity';
import { PacketType, parsePacket, writeMeta } from '../daemon/ts3/packet';
import { PacketHandler } from '../daemon/ts3/packet-handler';
import { raiseSecurityLevel } from '../daemon/ts3/raise-security-level';
import { configureLogging, logger } from '../shared/logger';
import { Ts3TestServer } from '../testkit/ts3-server/ts3-test-server';

const HANDSHAKES = 10;
const PACKETS = 20_000;

const fmt = (n: number, digits = 1) => n.toFixed(digits);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function handshakes(): Promise<void> {
  const server = await Ts3TestServer.start();
  const root = parseLicenseRoot(server.rootPublicKey);
  if (!root.ok) throw new Error(root.error);
  const identity = await raiseSecurityLevel(Identity.generate(), 8);
  const times: number[] = [];
  for (let i = 0; i < HANDSHAKES; i++) {
    const client = new Ts3Client({
      address: '127.0.0.1',
      port: server.port,
      nickname: `Bench${i}`,
      identity,
      licenseRoot: root.value,
    });
    const start = performance.now();
    await client.connect();
    times.push(performance.now() - start);
    await client.disconnect();
  }
  await server.close();
  console.log(
    `handshake (Init1 puzzle level 100 → initserver + channel list), ${HANDSHAKES} runs: ` +
      `median ${fmt(median(times))} ms, min ${fmt(Math.min(...times))} ms, max ${fmt(Math.max(...times))} ms`,
  );
}

function perPacket(label: string, bytes: number): void {
  const keys = new SessionKeys(randomBytes(64));
  const payload = randomBytes(bytes);
  const packets: Buffer[] = new Array(PACKETS);
  let start = performance.now();
  for (let i = 0; i < PACKETS; i++) {
    const id = i & 0xffff;
    const meta = writeMeta('c2s', id, 7, PacketType.Command, 0x20);
    packets[i] = sealPacket(keys.keyNonce('c2s', PacketType.Command, 0, id), meta, payload);
  }
  const encryptUs = ((performance.now() - start) * 1000) / PACKETS;
  start = performance.now();
  let failures = 0;
  for (let i = 0; i < PACKETS; i++) {
    const parsed = parsePacket('c2s', packets[i]!);
    if (
      !parsed.ok ||
      !openPacket(keys.keyNonce('c2s', PacketType.Command, 0, parsed.value.id), parsed.value).ok
    )
      failures++;
  }
  const decryptUs = ((performance.now() - start) * 1000) / PACKETS;
  if (failures > 0) throw new Error(`${failures} packets failed to decrypt`);
  console.log(
    `${label} (${bytes} B payload): encrypt ${fmt(encryptUs)} µs/packet, decrypt ${fmt(decryptUs)} µs/packet`,
  );
}

function voicePrepare(): void {
  const handler = new PacketHandler({ role: 'client', send: () => undefined, log: logger('bench') });
  handler.setSession(new SessionKeys(randomBytes(64)));
  const frame = randomBytes(128);
  for (const encrypted of [false, true]) {
    handler.encryptVoice = encrypted;
    const start = performance.now();
    for (let i = 0; i < PACKETS; i++) handler.sendVoice(frame);
    const us = ((performance.now() - start) * 1000) / PACKETS;
    console.log(
      `voice packet build, ${encrypted ? 'encrypted' : 'unencrypted (SharedMac)'} (128 B Opus frame): ${fmt(us, 2)} µs/packet`,
    );
  }
  handler.close();
}

// Connect/disconnect info lines would bury the figures.
configureLogging({ level: 'warn', pretty: false });
perPacket('warm-up', 100);
perPacket('command packet', 100);
perPacket('command fragment', 487);
voicePrepare();
await handshakes();
