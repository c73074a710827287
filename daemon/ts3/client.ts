/**
 * A TeamSpeak 3 voice client for one bot: connects over UDP, keeps the server book current, turns
 * notifications into typed events, and sends commands and Opus voice. Built on the packet handler and the
 * handshake; audio code talks to this class only.
 */
import { createSocket, type Socket } from 'node:dgram';
import { EventEmitter } from 'node:events';
import { isIPv6 } from 'node:net';
import { type Logger, logger } from '../../shared/logger';
import { avatarFlag } from './avatar';
import { Book } from './book';
import { automaticClientVersion, type ClientVersion, DEFAULT_HWID } from './client-version';
import { buildCommand, type Params, type ParsedCommand, parseCommand } from './command';
import { type ConnectFailure, Ts3CommandError, Ts3ConnectError } from './errors';
import { uploadOverTcp } from './file-transfer';
import { ClientHandshake } from './handshake';
import { Identity } from './identity';
import { TEAMSPEAK_LICENSE_ROOT } from './license';
import {
  type ChannelInfo,
  type ClientInfo,
  type ClientLeft,
  type ClientMoved,
  channelFromList,
  channelUpdates,
  clientFromEnterView,
  clientLeftFrom,
  clientMovedFrom,
  clientUpdates,
  commandErrorFrom,
  Reason,
  type TextMessage,
  TextTarget,
  textMessageFrom,
} from './notifications';
import { PacketHandler, type PreparedVoicePacket } from './packet-handler';
import { hashPassword } from './password';
import { DEFAULT_SECURITY_LEVEL, raiseSecurityLevel } from './raise-security-level';
import { RequestTracker } from './request-tracker';
import { TalkTracker } from './talk-tracker';

/** Opus Music (stereo, 48 kHz) in the codec enum (tsdeclarations Enums.toml Codec). */
export const CODEC_OPUS_MUSIC = 5;
const DEFAULT_PORT = 9987;
const DEFAULT_CONNECT_TIMEOUT_MS = 15_000;
const REQUEST_TIMEOUT_MS = 10_000;
/** tsclientlib waits this long for the server to confirm a disconnect. */
const DISCONNECT_WAIT_MS = 5_000;
const AVATAR_UPLOAD_TIMEOUT_MS = 15_000;

export interface Ts3ClientOptions {
  /** Host name or IP address of the server. */
  address: string;
  port?: number;
  nickname: string;
  serverPassword?: string;
  /** Channel to join on connect: an id, a name, or a path `Parent/Child`. */
  defaultChannel?: number | string;
  channelPassword?: string;
  /** The identity to use; a new one is generated when left out. Raised to `securityLevel` either way. */
  identity?: Identity;
  securityLevel?: number;
  /** The whole connect must finish within this (default 15 s). */
  connectTimeoutMs?: number;
  /** Once connected, the connection counts as lost after this long without an ack or any packet (30 s). */
  lossTimeoutMs?: number;
  /** License root public key (32 bytes); default TeamSpeak's. A test server passes its own. */
  licenseRoot?: Uint8Array;
  /** The version to report; left out, it is chosen by the server's license chain (automaticClientVersion). */
  clientVersion?: ClientVersion;
  log?: Logger;
}

export interface ConnectedInfo {
  clientId: number;
  channelId: number;
  serverName: string;
  uid: string;
  /** Block types of the server's license chain: says which kind of server it is when a user reports one. */
  licenseBlockTypes: number[];
}

export type DisconnectReason = 'requested' | 'kicked' | 'banned' | 'serverShutdown' | 'connectionLost';

export interface TalkStatus {
  clientId: number;
  talking: boolean;
}

export interface Ts3ClientEvents {
  connected: [info: ConnectedInfo];
  disconnected: [info: { reason: DisconnectReason; message: string }];
  textMessage: [message: TextMessage];
  clientEnter: [client: ClientInfo];
  clientLeave: [event: ClientLeft];
  clientMoved: [event: ClientMoved];
  clientUpdated: [client: ClientInfo];
  channelEdited: [channel: ChannelInfo];
  /** Another client started or stopped talking (for ducking). */
  talkStatus: [status: TalkStatus];
}

type State =
  | { name: 'idle' }
  | {
      name: 'connecting';
      resolve: (info: ConnectedInfo) => void;
      reject: (e: Error) => void;
      deadline: NodeJS.Timeout;
    }
  | { name: 'connected' }
  | { name: 'closed' };

export class Ts3Client extends EventEmitter<Ts3ClientEvents> {
  readonly book = new Book();
  private state: State = { name: 'idle' };
  private readonly log: Logger;
  private socket: Socket | undefined;
  private handler: PacketHandler | undefined;
  private handshake: ClientHandshake | undefined;
  private ownIdentity: Identity | undefined;
  private ownId = 0;
  private serverName = '';
  private codecEncryptionMode = 0;
  private channelListDone = false;
  private nextTransferId = 1;
  private readonly requests = new RequestTracker(REQUEST_TIMEOUT_MS);
  private readonly talk = new TalkTracker((clientId, talking) =>
    this.emit('talkStatus', { clientId, talking }),
  );

  constructor(private readonly options: Ts3ClientOptions) {
    super();
    this.log = (options.log ?? logger('ts3.client')).child({ nickname: options.nickname });
  }

  get clientId(): number {
    return this.ownId;
  }

  get channelId(): number {
    return this.book.clients.get(this.ownId)?.channelId ?? 0;
  }

  /** The identity in use (after connect), e.g. to store a generated one. */
  get identity(): Identity | undefined {
    return this.ownIdentity;
  }

  get connected(): boolean {
    return this.state.name === 'connected';
  }

  /** Connects and joins; resolves once the channel list and our own client are known. */
  connect(): Promise<ConnectedInfo> {
    if (this.state.name !== 'idle') throw new Error('Ts3Client.connect() may be called once');
    const timeoutMs = this.options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    return new Promise<ConnectedInfo>((resolve, reject) => {
      const deadline = setTimeout(() => {
        const step = this.handshake?.step ?? 'identity';
        this.fail(
          'timeout',
          `no connection to ${this.options.address} within ${timeoutMs} ms (stuck at: ${step})`,
        );
      }, timeoutMs);
      this.state = { name: 'connecting', resolve, reject, deadline };
      this.start().catch((e: unknown) => this.fail('socket', e instanceof Error ? e.message : String(e)));
    });
  }

  private async start(): Promise<void> {
    const level = this.options.securityLevel ?? DEFAULT_SECURITY_LEVEL;
    const identity = await raiseSecurityLevel(this.options.identity ?? Identity.generate(), level);
    if (this.state.name !== 'connecting') return;
    this.ownIdentity = identity;
    const socket = createSocket(isIPv6(this.options.address) ? 'udp6' : 'udp4');
    this.socket = socket;
    const handler = new PacketHandler({
      role: 'client',
      send: (datagram) => socket.send(datagram),
      log: logger('ts3.packet').child({ nickname: this.options.nickname }),
      ackTimeoutMs: this.options.lossTimeoutMs,
      silenceTimeoutMs: this.options.lossTimeoutMs,
    });
    this.handler = handler;
    this.handshake = new ClientHandshake({
      handler,
      identity,
      licenseRoot: this.options.licenseRoot ?? TEAMSPEAK_LICENSE_ROOT,
      clientinit: (licenseBlockTypes) =>
        this.clientinit(identity, this.options.clientVersion ?? automaticClientVersion(licenseBlockTypes)),
    });
    handler.on('init1', (payload) => {
      const r = this.handshake?.onInit1(payload);
      if (r && !r.ok) this.fail('refused', r.error);
    });
    handler.on('command', (text) => this.onCommand(text));
    handler.on('voice', (payload) => this.onVoice(payload));
    handler.on('lost', (reason) => this.onLost(reason));
    socket.on('message', (datagram) => handler.receive(datagram));
    socket.on('error', (e) => this.onLost(`socket error: ${e.message}`));
    // Node calls this back with the error when the address cannot be looked up: the attempt fails
    // there, as any refusal does, instead of the handshake sending on a socket that never connected.
    socket.connect(this.options.port ?? DEFAULT_PORT, this.options.address, (error?: Error) => {
      if (error) this.fail('socket', error.message);
      else this.handshake?.start();
    });
  }

  private clientinit(identity: Identity, version: ClientVersion): string {
    const channel = this.options.defaultChannel;
    return buildCommand('clientinit', {
      client_nickname: this.options.nickname,
      client_version: version.version,
      client_platform: version.platform,
      client_input_hardware: 1,
      client_output_hardware: 1,
      // A channel id is written as the path `/<id>` (paper §3.3).
      client_default_channel: typeof channel === 'number' ? `/${channel}` : (channel ?? ''),
      client_default_channel_password: hashPassword(this.options.channelPassword),
      client_server_password: hashPassword(this.options.serverPassword),
      client_meta_data: '',
      client_version_sign: version.sign,
      client_key_offset: identity.counter,
      client_nickname_phonetic: '',
      client_default_token: '',
      hwid: DEFAULT_HWID,
    });
  }

  // ---- incoming ----

  private onCommand(text: string): void {
    const parsed = parseCommand(text);
    if (!parsed.ok) {
      this.log.warn({ reason: parsed.error }, 'unparsable command');
      return;
    }
    const command = parsed.value;
    this.applyCommand(command);
    this.requests.notify(command);
  }

  private applyCommand(command: ParsedCommand): void {
    const items = command.items;
    const first = items[0] ?? {};
    switch (command.name) {
      case 'initivexpand2': {
        const r = this.handshake?.onInitivexpand2(command);
        if (r && !r.ok) this.fail('handshake', r.error);
        return;
      }
      case 'initivexpand':
        this.fail('handshake', 'server offers only the legacy initivexpand handshake (before 3.1)');
        return;
      case 'initserver':
        this.ownId = Number(first.aclid ?? 0);
        if (this.handler) this.handler.clientId = this.ownId;
        this.serverName = first.virtualserver_name ?? '';
        this.codecEncryptionMode = Number(first.virtualserver_codec_encryption_mode ?? 0);
        for (const id of this.handshake?.clientinitIds ?? []) this.handler?.settle(id);
        this.handler?.startPinging();
        return;
      case 'channellist':
      case 'notifychannelcreated':
        for (const item of items) this.book.channels.set(Number(item.cid), channelFromList(item));
        return;
      case 'channellistfinished':
        this.channelListDone = true;
        this.handler?.sendCommand('channelsubscribeall');
        this.maybeConnected();
        return;
      case 'notifychanneledited':
        this.onChannelEdited(items);
        return;
      case 'notifychanneldeleted':
        for (const item of items) this.book.channels.delete(Number(item.cid));
        return;
      case 'notifycliententerview':
        this.onClientEnter(items);
        return;
      case 'notifyclientleftview':
        this.onClientLeft(items);
        return;
      case 'notifyclientmoved':
        this.onClientMoved(items);
        return;
      case 'notifyclientupdated':
        this.onClientUpdated(items);
        return;
      case 'notifytextmessage': {
        const message = textMessageFrom(first);
        if (message.invokerId !== this.ownId) this.emit('textMessage', message);
        return;
      }
      case 'error':
        this.onError(first);
        return;
    }
  }

  private onChannelEdited(items: Record<string, string>[]): void {
    for (const item of items) {
      const channel = this.book.channels.get(Number(item.cid));
      if (!channel) continue;
      Object.assign(channel, channelUpdates(item));
      this.emit('channelEdited', channel);
    }
    this.updateVoiceEncryption();
  }

  private onClientEnter(items: Record<string, string>[]): void {
    for (const item of items) {
      const client = clientFromEnterView(item);
      this.book.clients.set(client.id, client);
      if (client.id !== this.ownId) this.emit('clientEnter', client);
    }
    this.updateVoiceEncryption();
    this.maybeConnected();
  }

  private onClientLeft(items: Record<string, string>[]): void {
    for (const item of items) {
      const left = clientLeftFrom(item);
      if (left.clientId === this.ownId) {
        this.teardown(reasonOf(left.reasonId), left.message || 'left the server');
        return;
      }
      this.book.clients.delete(left.clientId);
      this.talk.set(left.clientId, false);
      this.emit('clientLeave', left);
    }
  }

  private onClientMoved(items: Record<string, string>[]): void {
    for (const item of items) {
      const moved = clientMovedFrom(item);
      const client = this.book.clients.get(moved.clientId);
      if (client) {
        if (!('cfid' in item)) moved.fromChannelId = client.channelId;
        client.channelId = moved.toChannelId;
      }
      this.emit('clientMoved', moved);
    }
    this.updateVoiceEncryption();
  }

  private onClientUpdated(items: Record<string, string>[]): void {
    for (const item of items) {
      const client = this.book.clients.get(Number(item.clid));
      if (!client) continue;
      Object.assign(client, clientUpdates(item));
      this.emit('clientUpdated', client);
    }
  }

  private onError(item: Record<string, string>): void {
    if (this.requests.settle(item)) return;
    const error = commandErrorFrom(item);
    // clientinit carries no return code: a refusal (bad password, banned …) arrives as a bare error.
    if (error.id !== 0 && this.state.name === 'connecting')
      this.fail('refused', `server refused: ${error.message} (error ${error.id})`, error.id);
  }

  private maybeConnected(): void {
    const state = this.state;
    if (state.name !== 'connecting' || !this.channelListDone || !this.book.clients.has(this.ownId)) return;
    clearTimeout(state.deadline);
    this.state = { name: 'connected' };
    const info: ConnectedInfo = {
      clientId: this.ownId,
      channelId: this.channelId,
      serverName: this.serverName,
      uid: this.ownIdentity?.uid ?? '',
      licenseBlockTypes: this.handshake?.licenseBlockTypes ?? [],
    };
    this.log.info(
      { clientId: info.clientId, channelId: info.channelId, licenseBlockTypes: info.licenseBlockTypes },
      'connected',
    );
    state.resolve(info);
    this.emit('connected', info);
  }

  /** s2c voice: voice id u16 | talker u16 | codec u8 | data; ≤ 1 data byte ends the talker's burst. */
  private onVoice(payload: Buffer): void {
    if (payload.length < 5) return;
    const talker = payload.readUInt16BE(2);
    this.talk.set(talker, payload.length > 6);
  }

  /** Voice is encrypted when the server forces it (mode 2) or leaves it to the channel (mode 0). */
  private updateVoiceEncryption(): void {
    if (!this.handler) return;
    const channel = this.book.channels.get(this.channelId);
    const mode = this.codecEncryptionMode;
    this.handler.encryptVoice =
      mode === 2 || (mode === 0 && channel !== undefined && !channel.codecUnencrypted);
  }

  // ---- ending ----

  private fail(kind: ConnectFailure, message: string, serverErrorId?: number): void {
    const state = this.state;
    if (state.name !== 'connecting') return;
    clearTimeout(state.deadline);
    this.log.warn({ kind, reason: message }, 'connect failed');
    this.close();
    state.reject(new Ts3ConnectError(kind, message, serverErrorId));
  }

  private onLost(reason: string): void {
    if (this.state.name === 'connecting') this.fail('timeout', `connection lost during connect: ${reason}`);
    else this.teardown('connectionLost', reason);
  }

  private teardown(reason: DisconnectReason, message: string): void {
    if (this.state.name !== 'connected') return;
    this.close();
    this.log.info({ reason, message }, 'disconnected');
    this.emit('disconnected', { reason, message });
  }

  private close(): void {
    this.state = { name: 'closed' };
    this.handler?.close();
    this.socket?.close();
    this.socket = undefined;
    this.talk.clear();
    this.requests.rejectAll('connection closed');
  }

  /** Leaves the server (`clientdisconnect`) and waits for its confirmation, at most 5 s. */
  async disconnect(message = 'Bye'): Promise<void> {
    if (this.state.name === 'connecting') {
      this.fail('refused', 'disconnect() called while connecting');
      return;
    }
    if (this.state.name !== 'connected') return;
    // Our own notifyclientleftview confirms it and tears the connection down (onClientLeft).
    const confirmed = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, DISCONNECT_WAIT_MS);
      this.once('disconnected', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    this.handler?.sendCommand(
      buildCommand('clientdisconnect', { reasonid: Reason.Disconnected, reasonmsg: message }),
    );
    await confirmed;
    this.teardown('requested', message);
  }

  // ---- commands ----

  private requireHandler(): PacketHandler {
    if (this.state.name !== 'connected' || !this.handler) throw new Error('Ts3Client is not connected');
    return this.handler;
  }

  private request(name: string, params: Params): Promise<void> {
    const handler = this.requireHandler();
    return this.requests.request(name, params, (text) => handler.sendCommand(text));
  }

  sendChannelText(message: string): Promise<void> {
    return this.request('sendtextmessage', { targetmode: TextTarget.Channel, target: 0, msg: message });
  }

  sendPrivateText(clientId: number, message: string): Promise<void> {
    return this.request('sendtextmessage', { targetmode: TextTarget.Client, target: clientId, msg: message });
  }

  setNickname(nickname: string): Promise<void> {
    return this.request('clientupdate', { client_nickname: nickname });
  }

  /** `false` clears the away status. */
  setAway(message: string | false): Promise<void> {
    if (message === false) return this.request('clientupdate', { client_away: 0 });
    return this.request('clientupdate', { client_away: 1, client_away_message: message });
  }

  /** `clientupdate` has no description field; the own description goes through `clientedit`. */
  setDescription(description: string): Promise<void> {
    return this.request('clientedit', { clid: this.ownId, client_description: description });
  }

  editChannelDescription(channelId: number, description: string): Promise<void> {
    return this.request('channeledit', { cid: channelId, channel_description: description });
  }

  /** Moves this client to a channel given by id, name or path. */
  moveTo(channel: number | string, password?: string): Promise<void> {
    const target = this.book.findChannel(channel);
    if (!target)
      return Promise.reject(new Ts3CommandError('clientmove', -1, `no channel ${String(channel)}`));
    return this.request('clientmove', {
      clid: this.ownId,
      cid: target.id,
      cpw: password === undefined ? undefined : hashPassword(password),
    });
  }

  clientsInChannel(channelId = this.channelId): ClientInfo[] {
    return this.book.clientsIn(channelId);
  }

  serverGroupsOf(clientId: number): number[] {
    return this.book.clients.get(clientId)?.serverGroups ?? [];
  }

  /**
   * Uploads `data` as this client's avatar: `ftinitupload` for `/avatar`, the bytes over TCP, then
   * `client_flag_avatar` = hex MD5 of the bytes.
   */
  async uploadAvatar(data: Uint8Array): Promise<void> {
    const transferId = this.nextTransferId++;
    const started = this.requests.waitFor(
      'notifystartupload',
      (i) => Number(i.clientftfid) === transferId,
      REQUEST_TIMEOUT_MS,
    );
    try {
      await this.request('ftinitupload', {
        clientftfid: transferId,
        name: '/avatar',
        cid: 0,
        cpw: '',
        size: data.length,
        overwrite: 1,
        resume: 0,
      });
    } finally {
      started.catch(() => undefined);
    }
    const reply = await started;
    await uploadOverTcp(
      {
        host: reply.ip || this.options.address,
        port: Number(reply.port),
        key: reply.ftkey ?? '',
        seekPosition: Number(reply.seekpos ?? 0),
      },
      data,
      AVATAR_UPLOAD_TIMEOUT_MS,
    );
    await this.request('clientupdate', { client_flag_avatar: avatarFlag(data) });
  }

  // ---- voice ----

  /**
   * Builds (and encrypts) the Voice packet for one 20 ms Opus Music frame as the next one to go out,
   * without sending it, so the frame clock does the work ahead and only `sendPrepared` on its tick.
   * Nothing is spent until it is sent; one that no longer holds by then (another packet went first, the
   * keys changed, a new connection) is built again as it is sent (PacketHandler.transmitVoice).
   */
  prepareVoice(opusFrame: Uint8Array): PreparedVoicePacket {
    const body = Buffer.allocUnsafe(1 + opusFrame.length);
    body[0] = CODEC_OPUS_MUSIC;
    body.set(opusFrame, 1);
    return this.requireHandler().prepareVoice(body);
  }

  sendPrepared(packet: PreparedVoicePacket): void {
    this.requireHandler().transmitVoice(packet);
  }

  sendVoice(opusFrame: Uint8Array): void {
    this.sendPrepared(this.prepareVoice(opusFrame));
  }

  /** The end-of-speech packet: a Voice packet with a codec and no audio data. */
  endVoice(): void {
    this.sendVoice(new Uint8Array(0));
  }
}

function reasonOf(reasonId: number): DisconnectReason {
  switch (reasonId) {
    case Reason.KickedFromServer:
      return 'kicked';
    case Reason.Banned:
      return 'banned';
    case Reason.ServerStopped:
    case Reason.ServerShutdown:
      return 'serverShutdown';
    case Reason.Disconnected:
      return 'requested';
    default:
      return 'connectionLost';
  }
}
