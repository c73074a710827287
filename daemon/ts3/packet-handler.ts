/**
 * One end of a TS3 connection below the command layer (paper §1; TS3AudioBot PacketHandler.cs): packet ids
 * and generations per type, encryption, acks, resend with backoff, ping/pong, splitting and joining
 * commands, and the loss timeout. The same engine serves the client (sends c2s) and the test server (s2c).
 */
import { EventEmitter } from 'node:events';
import type { Logger } from '../../shared/logger';
import type { Result } from '../../shared/result';
import { CommandStream } from './command-stream';
import {
  checkPlainMac,
  FAKE_KEY_NONCE,
  INIT1_MAC,
  type KeyNonce,
  openPacket,
  type SessionKeys,
  sealPacket,
} from './crypt';
import { INIT1_PACKET_ID } from './init1';
import {
  assemblePacket,
  type Direction,
  maxPayloadBytes,
  type Packet,
  PacketFlag,
  PacketType,
  parsePacket,
  plainPacket,
  writeMeta,
} from './packet';
import { ReceiveWindow, SendCounter } from './receive-window';
import { MAX_RTO_MS, RttEstimator } from './rtt-estimator';

export type Role = 'client' | 'server';

export interface PacketHandlerEvents {
  /** A complete, in-order command text (already joined and decompressed). */
  command: [text: string];
  /** A decrypted Voice/VoiceWhisper payload. */
  voice: [payload: Buffer, type: PacketType];
  /** An Init1 payload (the handshake owns its meaning). */
  init1: [payload: Buffer];
  /** The connection is dead: an ack never came or the peer went silent. */
  lost: [reason: string];
}

export interface PacketHandlerOptions {
  role: Role;
  /** Writes one datagram to the peer. */
  send: (datagram: Buffer) => void;
  log: Logger;
  /** Give up when a command stays unacked this long (TS3AudioBot, tsclientlib: 30 s). */
  ackTimeoutMs?: number;
  /** Give up when nothing arrives this long (TS3AudioBot PacketTimeout: 30 s). */
  silenceTimeoutMs?: number;
}

const TICK_MS = 100;
const PING_INTERVAL_MS = 1000;
const DEFAULT_TIMEOUT_MS = 30_000;
/** Commands in flight before further ones wait (a simple cap instead of tsclientlib's congestion window). */
const MAX_IN_FLIGHT = 50;
/** Acks with ids up to this may still be fake-encrypted after the keys changed (tsclientlib: 1, AB: 2). */
const FAKE_FALLBACK_MAX_ID = 2;
const ZERO_MAC = Buffer.alloc(8);

interface VoiceKeyState {
  readonly session: SessionKeys | undefined;
  readonly encrypted: boolean;
  readonly clientId: number;
}

/** A Voice packet built ahead of its send (PacketHandler.prepareVoice), with what it was built from. */
export class PreparedVoicePacket {
  constructor(
    /** The handler (the connection) it was built by. */
    readonly origin: PacketHandler,
    readonly keyState: VoiceKeyState,
    readonly type: PacketType,
    readonly id: number,
    readonly generation: number,
    /** The payload after the voice id, kept to build the packet again if this one no longer holds. */
    readonly body: Uint8Array,
    readonly datagram: Buffer,
  ) {}
}

interface InFlight {
  datagram: Buffer;
  firstSentAt: number;
  lastSentAt: number;
  rtoMs: number;
  resent: boolean;
}

export class PacketHandler extends EventEmitter<PacketHandlerEvents> {
  /** Our client id as the server assigned it; goes into every c2s header. */
  clientId = 0;
  /** Whether outgoing voice is encrypted (server setting), otherwise sent with the SharedMac. */
  encryptVoice = false;
  readonly rtt = new RttEstimator();
  private readonly outgoing: Direction;
  private readonly incoming: Direction;
  private session: SessionKeys | undefined;
  private readonly counters: SendCounter[];
  private readonly windows: ReceiveWindow[];
  private readonly streams: Record<number, CommandStream>;
  private readonly inFlight = new Map<number, InFlight>();
  private readonly backlog: { key: number; datagram: Buffer }[] = [];
  private readonly pingsSentAt = new Map<number, number>();
  private init1: InFlight | undefined;
  private timer: NodeJS.Timeout | undefined;
  private pinging = false;
  private lastPingAt = 0;
  private lastReceivedAt = Date.now();
  private closed = false;
  private keyState: VoiceKeyState = { session: undefined, encrypted: false, clientId: 0 };

  constructor(private readonly options: PacketHandlerOptions) {
    super();
    const client = options.role === 'client';
    this.outgoing = client ? 'c2s' : 's2c';
    this.incoming = client ? 's2c' : 'c2s';
    // Client command ids start at 1: id 0 is taken by the clientinitiv inside Init1 step 4.
    this.counters = Array.from(
      { length: 9 },
      (_, t) => new SendCounter(client && t === PacketType.Command ? 1 : 0),
    );
    this.windows = Array.from({ length: 9 }, () => new ReceiveWindow(0));
    this.streams = {
      [PacketType.Command]: new CommandStream(client ? 0 : 1),
      [PacketType.CommandLow]: new CommandStream(0),
    };
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.timer.unref();
  }

  /** Session keys in force from now on (packets already built keep theirs). */
  setSession(keys: SessionKeys): void {
    this.session = keys;
  }

  get hasSession(): boolean {
    return this.session !== undefined;
  }

  /** Starts the 1 s Ping after the handshake (paper §4.3). */
  startPinging(): void {
    this.pinging = true;
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.inFlight.clear();
    this.backlog.length = 0;
    this.init1 = undefined;
  }

  // ---- sending ----

  /** Sends an Init1 payload and resends it until `stopInit1` (the next step is the acknowledgement). */
  sendInit1(payload: Buffer): void {
    const meta = writeMeta(this.outgoing, INIT1_PACKET_ID, 0, PacketType.Init1, PacketFlag.Unencrypted);
    const datagram = assemblePacket(INIT1_MAC, meta, payload);
    const now = Date.now();
    if (this.options.role === 'client') {
      this.init1 = { datagram, firstSentAt: now, lastSentAt: now, rtoMs: this.rtt.rtoMs, resent: false };
    }
    this.transmit(datagram);
  }

  stopInit1(): void {
    this.init1 = undefined;
  }

  /**
   * Queues a command: split at the 500-byte limit, each fragment with its own id, resent until acked.
   * Returns the packet ids used.
   */
  sendCommand(text: string): number[] {
    const type = PacketType.Command;
    const data = Buffer.from(text, 'utf8');
    const max = maxPayloadBytes(this.outgoing);
    const chunks: Buffer[] = [];
    for (let i = 0; i < data.length || chunks.length === 0; i += max) chunks.push(data.subarray(i, i + max));
    const base = this.options.role === 'client' ? PacketFlag.NewProtocol : 0;
    return chunks.map((chunk, i) => {
      const edge = chunks.length > 1 && (i === 0 || i === chunks.length - 1);
      const { id, generation } = this.counters[type]!.take();
      const datagram = this.seal(type, id, generation, base | (edge ? PacketFlag.Fragmented : 0), chunk);
      this.enqueue((type << 16) | id, datagram);
      return id;
    });
  }

  /**
   * Treats a command packet as acknowledged without an Ack. tsclientlib counts `initserver` as the ack
   * for `clientinit`, so a lost or odd Ack cannot keep clientinit in the resend queue.
   */
  settle(id: number, low = false): void {
    const key = ((low ? PacketType.CommandLow : PacketType.Command) << 16) | id;
    const entry = this.inFlight.get(key);
    if (!entry) return;
    this.inFlight.delete(key);
    if (!entry.resent) this.rtt.sample(Date.now() - entry.firstSentAt);
    const waiting = this.backlog.shift();
    if (waiting) this.enqueue(waiting.key, waiting.datagram);
  }

  /**
   * Builds the next Voice packet without sending it (build ahead, send on the tick). `body` is what
   * follows the voice id: `codec | data` c2s, `talker | codec | data` s2c. The voice id is the packet id.
   * Nothing is spent: the packet takes the id the next voice packet sent gets, so one that is never
   * sent leaves no gap, and `transmitVoice` builds it again if it no longer holds.
   */
  prepareVoice(body: Uint8Array, type: PacketType = PacketType.Voice): PreparedVoicePacket {
    const { id, generation } = this.counters[type]!.peek();
    return new PreparedVoicePacket(
      this,
      this.voiceKeyState(),
      type,
      id,
      generation,
      body,
      this.buildVoice(type, id, generation, body),
    );
  }

  /**
   * Sends a packet from `prepareVoice`, as built when it still holds: prepared here, with the id that is
   * next, and the keys and client id still those it was sealed with. Otherwise (another packet went out
   * first, the server turned voice encryption on or off, a new connection) its body is built again now,
   * so a stale packet never reaches the wire.
   */
  transmitVoice(prepared: PreparedVoicePacket): void {
    const counter = this.counters[prepared.type]!;
    const { id, generation } = counter.take();
    const holds =
      prepared.origin === this &&
      prepared.id === id &&
      prepared.generation === generation &&
      prepared.keyState === this.voiceKeyState();
    this.transmit(holds ? prepared.datagram : this.buildVoice(prepared.type, id, generation, prepared.body));
  }

  /** Builds and sends one Voice packet at once. */
  sendVoice(body: Uint8Array, type: PacketType = PacketType.Voice): void {
    this.transmitVoice(this.prepareVoice(body, type));
  }

  /** Writes a datagram built here. */
  transmit(datagram: Buffer): void {
    if (!this.closed) this.options.send(datagram);
  }

  private buildVoice(type: PacketType, id: number, generation: number, body: Uint8Array): Buffer {
    if (!(this.encryptVoice && this.session))
      return plainPacket(this.plainMac(), this.outgoing, id, this.clientId, type, id, body);
    const payload = Buffer.alloc(2 + body.length);
    payload.writeUInt16BE(id, 0);
    payload.set(body, 2);
    return this.seal(type, id, generation, 0, payload);
  }

  /**
   * What a voice packet's bytes depend on besides its id and body: the session keys (the SharedMac of a
   * plain one, the keys of a sealed one), whether voice is encrypted, and our client id. One object per
   * state, made anew when any of them changes, so a prepared packet's is compared by identity.
   */
  private voiceKeyState(): VoiceKeyState {
    const state = this.keyState;
    if (
      state.session === this.session &&
      state.encrypted === this.encryptVoice &&
      state.clientId === this.clientId
    )
      return state;
    this.keyState = { session: this.session, encrypted: this.encryptVoice, clientId: this.clientId };
    return this.keyState;
  }

  private plainMac(): Buffer {
    return this.session?.sharedMac ?? ZERO_MAC;
  }

  private keyFor(direction: Direction, type: PacketType, generation: number, id: number): KeyNonce {
    return this.session ? this.session.keyNonce(direction, type, generation, id) : FAKE_KEY_NONCE;
  }

  private seal(type: PacketType, id: number, generation: number, flags: number, payload: Uint8Array): Buffer {
    const meta = writeMeta(this.outgoing, id, this.clientId, type, flags);
    return sealPacket(this.keyFor(this.outgoing, type, generation, id), meta, payload);
  }

  private enqueue(key: number, datagram: Buffer): void {
    if (this.inFlight.size >= MAX_IN_FLIGHT) {
      this.backlog.push({ key, datagram });
      return;
    }
    const now = Date.now();
    this.inFlight.set(key, {
      datagram,
      firstSentAt: now,
      lastSentAt: now,
      rtoMs: this.rtt.rtoMs,
      resent: false,
    });
    this.transmit(datagram);
  }

  private sendControl(type: PacketType, payload: Buffer): void {
    const { id, generation } = this.counters[type]!.take();
    if (type === PacketType.Ping || type === PacketType.Pong) {
      const meta = writeMeta(this.outgoing, id, this.clientId, type, PacketFlag.Unencrypted);
      if (type === PacketType.Ping) this.pingsSentAt.set(id, Date.now());
      this.transmit(assemblePacket(this.plainMac(), meta, payload));
      return;
    }
    this.transmit(this.seal(type, id, generation, 0, payload));
  }

  private tick(): void {
    const now = Date.now();
    const { ackTimeoutMs = DEFAULT_TIMEOUT_MS, silenceTimeoutMs = DEFAULT_TIMEOUT_MS } = this.options;
    for (const entry of [...this.inFlight.values(), ...(this.init1 ? [this.init1] : [])]) {
      if (now - entry.firstSentAt > ackTimeoutMs) {
        this.lose(`no acknowledgement for ${ackTimeoutMs} ms`);
        return;
      }
      if (now - entry.lastSentAt >= entry.rtoMs) {
        entry.lastSentAt = now;
        entry.resent = true;
        entry.rtoMs = Math.min(entry.rtoMs * 2, MAX_RTO_MS);
        this.transmit(entry.datagram);
      }
    }
    if (now - this.lastReceivedAt > silenceTimeoutMs) {
      this.lose(`nothing received for ${silenceTimeoutMs} ms`);
      return;
    }
    if (this.pinging && now - this.lastPingAt >= PING_INTERVAL_MS) {
      this.lastPingAt = now;
      this.sendControl(PacketType.Ping, Buffer.alloc(0));
    }
  }

  private lose(reason: string): void {
    this.close();
    this.emit('lost', reason);
  }

  // ---- receiving ----

  /** Handles one datagram from the peer. Anything malformed is dropped and logged, never thrown. */
  receive(datagram: Buffer): void {
    if (this.closed) return;
    const parsed = parsePacket(this.incoming, datagram);
    if (!parsed.ok) {
      this.drop(parsed.error, datagram);
      return;
    }
    const packet = parsed.value;
    const handled = this.dispatch(packet);
    if (handled !== true) {
      this.drop(handled, datagram);
      return;
    }
    this.lastReceivedAt = Date.now();
  }

  private drop(reason: string, datagram: Buffer): void {
    const log = this.options.log;
    if (!log.isLevelEnabled('warn')) return;
    log.warn(
      { reason, bytes: datagram.length, head: datagram.subarray(0, 32).toString('hex') },
      'dropped a datagram',
    );
  }

  /** true when the packet was valid, else why it was dropped. */
  private dispatch(packet: Packet): true | string {
    switch (packet.type) {
      case PacketType.Init1:
        if (!packet.mac.equals(INIT1_MAC) || packet.id !== INIT1_PACKET_ID) return 'bad Init1 header';
        this.emit('init1', packet.payload);
        return true;
      case PacketType.Ping:
      case PacketType.Pong:
        return this.receivePingPong(packet);
      case PacketType.Ack:
      case PacketType.AckLow:
        return this.receiveAck(packet);
      case PacketType.Command:
      case PacketType.CommandLow:
        return this.receiveCommand(packet);
      case PacketType.Voice:
      case PacketType.VoiceWhisper:
        return this.receiveVoice(packet);
    }
  }

  private receivePingPong(packet: Packet): true | string {
    if (!packet.mac.equals(this.plainMac()) && !packet.mac.equals(ZERO_MAC)) return 'wrong MAC on Ping/Pong';
    if (packet.type === PacketType.Ping) {
      const id = Buffer.alloc(2);
      id.writeUInt16BE(packet.id, 0);
      this.sendControl(PacketType.Pong, id);
      return true;
    }
    if (packet.payload.length < 2) return 'Pong without an id';
    const sentAt = this.pingsSentAt.get(packet.payload.readUInt16BE(0));
    this.pingsSentAt.clear();
    if (sentAt !== undefined) this.rtt.sample(Date.now() - sentAt);
    return true;
  }

  /** Decrypts with the session keys, falling back to the fake key where the handshake still uses it. */
  private open(packet: Packet, generation: number): Result<Buffer> {
    const session = this.session;
    if (!session) return openPacket(FAKE_KEY_NONCE, packet);
    const real = openPacket(session.keyNonce(this.incoming, packet.type, generation, packet.id), packet);
    if (real.ok || generation !== 0 || packet.id > FAKE_FALLBACK_MAX_ID) return real;
    return openPacket(FAKE_KEY_NONCE, packet);
  }

  private receiveAck(packet: Packet): true | string {
    const window = this.windows[packet.type]!;
    const { generation, ahead } = window.locate(packet.id);
    // TS3AudioBot sends AckLow unencrypted; the paper and tsclientlib encrypt it. Accept both.
    const plain =
      packet.flags & PacketFlag.Unencrypted
        ? checkPlainMac(this.plainMac(), packet)
        : this.open(packet, generation);
    if (!plain.ok) return plain.error;
    if (plain.value.length < 2) return 'Ack without an id';
    if (ahead >= 0) window.passTo(packet.id);
    this.settle(plain.value.readUInt16BE(0), packet.type === PacketType.AckLow);
    return true;
  }

  private receiveCommand(packet: Packet): true | string {
    if (packet.flags & PacketFlag.Unencrypted) return 'unencrypted command';
    const stream = this.streams[packet.type]!;
    const placement = stream.place(packet.id);
    if (placement === 'too-far') return 'command too far ahead';
    const plain = this.open(packet, stream.window.locate(packet.id).generation);
    if (!plain.ok) return plain.error;
    const ackId = Buffer.alloc(2);
    ackId.writeUInt16BE(packet.id, 0);
    // Duplicates and old ids are acked again: our earlier ack may have been lost.
    this.sendControl(packet.type === PacketType.Command ? PacketType.Ack : PacketType.AckLow, ackId);
    if (placement !== 'new') return true;
    for (const complete of stream.accept(packet.id, packet.flags, plain.value)) {
      if (complete.ok) this.emit('command', complete.value.toString('utf8'));
      else this.options.log.warn({ reason: complete.error }, 'dropped a command');
    }
    return true;
  }

  private receiveVoice(packet: Packet): true | string {
    const window = this.windows[packet.type]!;
    const { generation, ahead } = window.locate(packet.id);
    if (ahead < 0) return 'old voice packet';
    const plain =
      packet.flags & PacketFlag.Unencrypted
        ? checkPlainMac(this.plainMac(), packet)
        : this.session
          ? openPacket(this.session.keyNonce(this.incoming, packet.type, generation, packet.id), packet)
          : undefined;
    if (!plain) return 'encrypted voice before the handshake';
    if (!plain.ok) return plain.error;
    window.passTo(packet.id);
    this.emit('voice', plain.value, packet.type);
    return true;
  }
}
