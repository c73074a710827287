/**
 * The TS3 UDP packet layout (protocol paper §1.1–1.3): `MAC[8] | packet id u16 | (c2s only) client id u16 |
 * type/flags u8 | payload`. The header without the MAC ("meta") is the EAX associated data.
 */
import { err, ok, type Result } from '../../shared/result';

export const PacketType = {
  Voice: 0,
  VoiceWhisper: 1,
  Command: 2,
  CommandLow: 3,
  Ping: 4,
  Pong: 5,
  Ack: 6,
  AckLow: 7,
  Init1: 8,
} as const;
export type PacketType = (typeof PacketType)[keyof typeof PacketType];

/** High nibble of the type byte. */
export const PacketFlag = {
  Unencrypted: 0x80,
  Compressed: 0x40,
  /** Set by clients on every Command/CommandLow packet, fragments included. */
  NewProtocol: 0x20,
  /** Set on the first and the last fragment of a split command only. */
  Fragmented: 0x10,
} as const;

/** c2s = client to server, s2c = server to client. The direction decides the header layout and the key. */
export type Direction = 'c2s' | 's2c';

/** No datagram in either direction may exceed this (every implementation splits at it). */
export const MAX_DATAGRAM_BYTES = 500;
export const MAC_BYTES = 8;

export function headerBytes(direction: Direction): number {
  return direction === 'c2s' ? 13 : 11;
}

export function maxPayloadBytes(direction: Direction): number {
  return MAX_DATAGRAM_BYTES - headerBytes(direction);
}

export interface Packet {
  mac: Buffer;
  id: number;
  /** Only c2s packets carry it; 0 for s2c. */
  clientId: number;
  type: PacketType;
  flags: number;
  /** The meta bytes as received (header without the MAC): EAX associated data. */
  meta: Buffer;
  /** Still encrypted unless the Unencrypted flag is set. */
  payload: Buffer;
}

function isPacketType(n: number): n is PacketType {
  return n <= PacketType.Init1;
}

export function parsePacket(direction: Direction, datagram: Buffer): Result<Packet> {
  const header = headerBytes(direction);
  if (datagram.length < header) return err(`datagram of ${datagram.length} bytes is shorter than a header`);
  if (datagram.length > MAX_DATAGRAM_BYTES) return err(`datagram of ${datagram.length} bytes exceeds 500`);
  const typeByte = datagram[header - 1]!;
  const type = typeByte & 0x0f;
  if (!isPacketType(type)) return err(`unknown packet type ${type}`);
  return ok({
    mac: datagram.subarray(0, MAC_BYTES),
    id: datagram.readUInt16BE(8),
    clientId: direction === 'c2s' ? datagram.readUInt16BE(10) : 0,
    type,
    flags: typeByte & 0xf0,
    meta: datagram.subarray(MAC_BYTES, header),
    payload: datagram.subarray(header),
  });
}

/** The meta bytes (header without MAC) for an outgoing packet. */
export function writeMeta(
  direction: Direction,
  id: number,
  clientId: number,
  type: PacketType,
  flags: number,
): Buffer {
  const meta = Buffer.alloc(headerBytes(direction) - MAC_BYTES);
  writeMetaAt(meta, 0, direction, id, clientId, type, flags);
  return meta;
}

function writeMetaAt(
  target: Buffer,
  offset: number,
  direction: Direction,
  id: number,
  clientId: number,
  type: PacketType,
  flags: number,
): void {
  target.writeUInt16BE(id, offset);
  if (direction === 'c2s') target.writeUInt16BE(clientId, offset + 2);
  target[offset + headerBytes(direction) - MAC_BYTES - 1] = type | flags;
}

/**
 * An unencrypted packet (a voice packet on a server that does not encrypt voice) built in one buffer:
 * the MAC, the header, then `prefix` (2 bytes, big-endian) and `body`. Voice goes out for every bot
 * 50 times a second; building it in place spares four allocations and copies per packet.
 */
export function plainPacket(
  mac: Uint8Array,
  direction: Direction,
  id: number,
  clientId: number,
  type: PacketType,
  prefix: number,
  body: Uint8Array,
): Buffer {
  const header = headerBytes(direction);
  const datagram = Buffer.allocUnsafe(header + 2 + body.length);
  datagram.set(mac, 0);
  writeMetaAt(datagram, MAC_BYTES, direction, id, clientId, type, PacketFlag.Unencrypted);
  datagram.writeUInt16BE(prefix, header);
  datagram.set(body, header + 2);
  return datagram;
}

export function assemblePacket(mac: Uint8Array, meta: Uint8Array, payload: Uint8Array): Buffer {
  return Buffer.concat([mac, meta, payload]);
}
