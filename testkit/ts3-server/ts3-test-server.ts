/**
 * A TeamSpeak 3 test server that speaks the server half of the voice protocol over UDP: handshake with its
 * own license root, a channel tree, client notifications, text, client and channel edits, avatar upload,
 * and voice that it decodes and forwards. Built for tests and local trials, not for real users.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { EventEmitter } from 'node:events';
import { performance } from 'node:perf_hooks';
import { avatarFileName } from '../../daemon/ts3/avatar';
import { buildCommand, type Params, type ParsedCommand, parseCommand } from '../../daemon/ts3/command';
import { Identity, uidOf } from '../../daemon/ts3/identity';
import { PacketType } from '../../daemon/ts3/packet';
import { PacketHandler } from '../../daemon/ts3/packet-handler';
import { hashPassword } from '../../daemon/ts3/password';
import { securityLevel } from '../../daemon/ts3/security-level';
import { logger } from '../../shared/logger';
import { type ChannelSpec, ChannelTree, channelItem } from './channel-tree';
import { FileTransferServer } from './file-transfer-server';
import { type LicenseShape, rootPublicKey, signServerLicense } from './license-signer';
import { ServerHandshake } from './server-handshake';
import { VoiceRecorder, type VoiceStats } from './voice-recorder';

export interface TestServerOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** 32-byte root secret (little-endian scalar); random when left out. */
  rootSecret?: Uint8Array;
  /** The license chain's shape: a TeamSpeak 3 server's (default) or a TeamSpeak 6 beta server's. */
  license?: LicenseShape;
  /** Squarings in the Init1 puzzle (real servers ask for thousands). */
  puzzleLevel?: number;
  channels?: ChannelSpec[];
  serverPassword?: string;
  /**
   * virtualserver_maxclients: a client past it is refused as a real server does. Left out, no client
   * is refused (the benches connect hundreds) and the server announces 32.
   */
  maxClients?: number;
  /** Nicknames banned from the server: such a client is refused at clientinit, as a name ban does. */
  bannedNicknames?: readonly string[];
  /** virtualserver_needed_identity_security_level: a client whose identity is below it is refused. */
  neededSecurityLevel?: number;
  /** virtualserver_codec_encryption_mode: 0 per channel, 1 forced off, 2 forced on. */
  codecEncryptionMode?: number;
  /** Emit `voiceStats` this often (0 = never). */
  voiceStatsIntervalMs?: number;
  /**
   * Hands each voice packet to this listener instead of the recorder, which keeps and decodes every
   * packet: a bench with a hundred streams counts them and decodes only a sample.
   */
  voiceListener?: VoiceListener;
}

/** A voice packet as it arrived: `arrivedAtMs` is performance.now(), `voiceId` steps once a frame. */
export interface VoicePacket {
  clientId: number;
  voiceId: number;
  codec: number;
  data: Buffer;
  arrivedAtMs: number;
}
export type VoiceListener = (packet: VoicePacket) => void;

export interface ServerClient {
  id: number;
  nickname: string;
  uid: string;
  channelId: number;
  away: boolean;
  awayMessage: string;
  description: string;
  avatarHash: string;
  serverGroups: number[];
  /** client_version as the client reported it. */
  clientVersion: string;
}

export interface TestServerEvents {
  listening: [e: { port: number; rootPublicKey: string }];
  clientConnected: [e: { clientId: number; nickname: string; uid: string; channelId: number }];
  clientDisconnected: [e: { clientId: number; reason: string }];
  textMessage: [e: { fromId: number; targetMode: number; target: number; message: string }];
  clientUpdated: [e: { clientId: number; changes: Record<string, string> }];
  clientMoved: [e: { clientId: number; channelId: number }];
  channelEdited: [e: { channelId: number; changes: Record<string, string> }];
  avatarUploaded: [e: { clientId: number; bytes: number; md5: string }];
  voiceStats: [e: { clientId: number } & VoiceStats];
}

interface Session {
  key: string;
  remote: RemoteInfo;
  handler: PacketHandler;
  handshake: ServerHandshake;
  client: ServerClient | undefined;
}

/** Server group 8 is "Guest" on a fresh TS3 server. */
const GUEST_GROUP = 8;
/** tsdeclarations Errors.csv. */
const ERR = {
  ok: 0,
  notFound: 0x0100,
  invalidClientId: 0x0200,
  nicknameInUse: 0x0201,
  identityTooWeak: 0x0207,
  invalidChannelId: 0x0300,
  badChannelPassword: 0x030d,
  serverFull: 0x0403,
  badServerPassword: 0x0404,
  banned: 0x0d01,
};
/** How a real server refuses a nickname another client has, at clientinit and on a rename. */
const NICKNAME_IN_USE = { id: ERR.nicknameInUse, msg: 'nickname is already in use' };
/** What the server announces as its slots when no limit is set. */
const ANNOUNCED_MAX_CLIENTS = 32;
/** File transfer complete (Errors.csv 0x0811). */
const FT_COMPLETE = 2065;
/** How long a leaving client's connection stays up so our last notification gets through. */
const DISCONNECT_LINGER_MS = 3000;
/** How a real server names itself as the sender of its own text messages. */
const SERVER_INVOKER = { id: 0, nickname: 'Server', uid: 'serveradmin' };
const CLIENT_FIELDS = [
  'client_nickname',
  'client_away',
  'client_away_message',
  'client_description',
  'client_flag_avatar',
];

export class Ts3TestServer extends EventEmitter<TestServerEvents> {
  readonly channels: ChannelTree;
  /** Uploaded avatars by the file name a real server stores them under (`avatar_<base64HashClientUID>`). */
  readonly avatars = new Map<string, Buffer>();
  private readonly sessions = new Map<string, Session>();
  private readonly recorders = new Map<number, VoiceRecorder>();
  private readonly log = logger('ts3.test-server');
  private readonly identity = Identity.generate();
  private readonly rootSecret: Uint8Array;
  private nextClientId = 1;
  private paused = false;
  private statsTimer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly socket: Socket,
    private readonly files: FileTransferServer,
    private readonly options: TestServerOptions,
  ) {
    super();
    this.rootSecret = options.rootSecret ?? randomBytes(32);
    this.channels = new ChannelTree(options.channels);
    socket.on('message', (datagram, remote) => this.onDatagram(datagram, remote));
  }

  static async start(options: TestServerOptions = {}): Promise<Ts3TestServer> {
    const host = options.host ?? '127.0.0.1';
    const socket = createSocket('udp4');
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(options.port ?? 0, host, () => resolve());
    });
    const server = new Ts3TestServer(socket, await FileTransferServer.start(host), options);
    const interval = options.voiceStatsIntervalMs ?? 0;
    if (interval > 0) server.statsTimer = setInterval(() => server.emitVoiceStats(), interval);
    setImmediate(() => server.emit('listening', { port: server.port, rootPublicKey: server.rootPublicKey }));
    return server;
  }

  get port(): number {
    return this.socket.address().port;
  }

  /** base64 root public key: what a client passes as its license root (TS3_LICENSE_ROOT). */
  get rootPublicKey(): string {
    return rootPublicKey(this.rootSecret).toString('base64');
  }

  get clients(): ServerClient[] {
    return [...this.sessions.values()].flatMap((s) => (s.client ? [s.client] : []));
  }

  clientByName(nickname: string): ServerClient | undefined {
    return this.clients.find((c) => c.nickname === nickname);
  }

  voiceStats(clientId: number): VoiceStats | undefined {
    return this.recorders.get(clientId)?.stats();
  }

  /** When each audio packet of one client arrived (performance.now(), ms). */
  voiceArrivals(clientId: number): readonly number[] {
    return this.recorders.get(clientId)?.arrivalTimesMs() ?? [];
  }

  /** The decoded voice of one client (48 kHz interleaved stereo). */
  voicePcm(clientId: number): Int16Array {
    return this.recorders.get(clientId)?.pcm() ?? new Int16Array(0);
  }

  /** Stops answering anything (a server that died without saying so). */
  pause(): void {
    this.paused = true;
  }

  /**
   * Removes a client the way a real server tells it: `kick` (reason 5, an admin's kick from the server)
   * or `shutdown` (reason 11, the server going down). Everyone, the client too, gets the leftview.
   */
  disconnectClient(clientId: number, how: 'kick' | 'shutdown', message = ''): void {
    const session = this.sessionOf(clientId);
    const reasonId = how === 'kick' ? 5 : 11;
    if (session) this.dropSession(session, reasonId, message, DISCONNECT_LINGER_MS);
  }

  /**
   * Forgets a client without a word (the server lost its state, or the network path broke): the others
   * see it leave with "connection lost", the client itself only notices the silence.
   */
  forgetClient(clientId: number): void {
    const session = this.sessionOf(clientId);
    const client = session?.client;
    if (!session || !client) return;
    session.client = undefined;
    session.handler.close();
    this.sessions.delete(session.key);
    this.broadcast(
      buildCommand('notifyclientleftview', {
        reasonmsg: 'connection lost',
        reasonid: 3,
        ctid: 0,
        clid: client.id,
        cfid: client.channelId,
      }),
    );
    this.emit('clientDisconnected', { clientId: client.id, reason: 'forgotten' });
  }

  /** Writes raw bytes to a connected client, e.g. garbage for robustness tests. */
  sendRaw(clientId: number, datagram: Buffer): void {
    const session = this.sessionOf(clientId);
    if (session) this.socket.send(datagram, session.remote.port, session.remote.address);
  }

  /** A text message from the server (invoker id 0) to a client, a channel or everyone. */
  sendTextMessage(targetMode: 1 | 2 | 3, target: number, message: string): void {
    this.broadcast(
      textNotification(SERVER_INVOKER, targetMode, target, message),
      (c) => targetMode === 3 || (targetMode === 2 && c.channelId === target) || c.id === target,
    );
  }

  async close(): Promise<void> {
    if (this.statsTimer) clearInterval(this.statsTimer);
    for (const session of this.sessions.values()) session.handler.close();
    for (const recorder of this.recorders.values()) recorder.destroy();
    this.sessions.clear();
    await this.files.close();
    await new Promise<void>((resolve) => this.socket.close(() => resolve()));
  }

  private sessionOf(clientId: number): Session | undefined {
    return [...this.sessions.values()].find((s) => s.client?.id === clientId);
  }

  private emitVoiceStats(): void {
    for (const [clientId, recorder] of this.recorders)
      this.emit('voiceStats', { clientId, ...recorder.stats() });
  }

  // ---- transport ----

  private onDatagram(datagram: Buffer, remote: RemoteInfo): void {
    if (this.paused) return;
    const key = `${remote.address}:${remote.port}`;
    let session = this.sessions.get(key);
    if (!session) {
      // Only an Init1 packet (type byte 0x88 at offset 12 of a c2s header) opens a session.
      if (datagram.length < 13 || (datagram[12]! & 0x0f) !== PacketType.Init1) return;
      session = this.openSession(key, remote);
    }
    session.handler.receive(datagram);
  }

  private openSession(key: string, remote: RemoteInfo): Session {
    const handler = new PacketHandler({
      role: 'server',
      send: (d) => this.socket.send(d, remote.port, remote.address),
      log: logger('ts3.test-server.packet'),
    });
    const session: Session = {
      key,
      remote,
      handler,
      handshake: new ServerHandshake(
        handler,
        signServerLicense(this.rootSecret, this.options.license),
        this.identity,
        this.options.puzzleLevel ?? 100,
      ),
      client: undefined,
    };
    this.sessions.set(key, session);
    handler.on('init1', (payload) => {
      const r = session.handshake.onInit1(payload);
      if (!r.ok) this.log.warn({ reason: r.error }, 'Init1 refused');
    });
    handler.on('command', (text) => this.onCommand(session, text));
    handler.on('voice', (payload) => this.onVoice(session, payload));
    handler.on('lost', (reason) => this.dropSession(session, 3, `connection lost: ${reason}`));
    return session;
  }

  /**
   * Tells everyone (the leaver too) that a client left. `lingerMs` keeps the leaver's handler running so
   * the leftview is resent until acked, as a leaving client waits for it.
   */
  private dropSession(session: Session, reasonId: number, reason: string, lingerMs = 0): void {
    const client = session.client;
    if (client) {
      this.broadcast(
        buildCommand('notifyclientleftview', {
          reasonmsg: reason,
          reasonid: reasonId,
          ctid: 0,
          clid: client.id,
          cfid: client.channelId,
        }),
      );
      session.client = undefined;
      this.emit('clientDisconnected', { clientId: client.id, reason });
    }
    const end = () => {
      session.handler.close();
      if (this.sessions.get(session.key) === session) this.sessions.delete(session.key);
    };
    if (lingerMs > 0) setTimeout(end, lingerMs).unref();
    else end();
  }

  private broadcast(text: string, filter: (c: ServerClient) => boolean = () => true): void {
    for (const session of this.sessions.values()) {
      if (session.client && filter(session.client)) session.handler.sendCommand(text);
    }
  }

  // ---- voice ----

  private onVoice(session: Session, payload: Buffer): void {
    const client = session.client;
    if (!client || payload.length < 3) return;
    const arrived = performance.now();
    const codec = payload[2]!;
    const data = payload.subarray(3);
    const packet = {
      clientId: client.id,
      voiceId: payload.readUInt16BE(0),
      codec,
      data,
      arrivedAtMs: arrived,
    };
    if (this.options.voiceListener) this.options.voiceListener(packet);
    else this.recorderOf(client.id).onPacket(packet.voiceId, codec, data, arrived);
    // s2c voice: voice id | talker u16 | codec | data (paper §1.8.1.2).
    const body = Buffer.alloc(3 + data.length);
    body.writeUInt16BE(client.id, 0);
    body[2] = codec;
    data.copy(body, 3);
    for (const other of this.sessions.values()) {
      if (other.client && other !== session && other.client.channelId === client.channelId) {
        other.handler.sendVoice(body);
      }
    }
  }

  private recorderOf(clientId: number): VoiceRecorder {
    let recorder = this.recorders.get(clientId);
    if (!recorder) {
      recorder = new VoiceRecorder();
      this.recorders.set(clientId, recorder);
    }
    return recorder;
  }

  // ---- commands ----

  private onCommand(session: Session, text: string): void {
    const parsed = parseCommand(text);
    if (!parsed.ok) return;
    const command = parsed.value;
    const returnCode = command.items[0]?.return_code;
    const answer = (id: number, msg: string) => {
      if (returnCode !== undefined)
        session.handler.sendCommand(buildCommand('error', { id, msg, return_code: returnCode }));
    };
    if (command.name === 'clientek') {
      const r = session.handshake.onClientek(command);
      if (!r.ok) this.log.warn({ reason: r.error }, 'clientek refused');
      return;
    }
    if (command.name === 'clientinit') {
      this.onClientinit(session, command.items[0] ?? {});
      return;
    }
    const client = session.client;
    if (!client) return;
    const result = this.applyCommand(session, client, command);
    answer(result.id, result.msg);
  }

  private applyCommand(
    session: Session,
    client: ServerClient,
    command: ParsedCommand,
  ): { id: number; msg: string } {
    const f = command.items[0] ?? {};
    const ok = { id: ERR.ok, msg: 'ok' };
    switch (command.name) {
      case 'sendtextmessage':
        this.onText(client, Number(f.targetmode), Number(f.target ?? 0), f.msg ?? '');
        return ok;
      case 'clientupdate':
        if (this.nicknameTaken(f.client_nickname, client)) return NICKNAME_IN_USE;
        this.updateClient(client, f);
        return ok;
      case 'clientedit':
        if (Number(f.clid) !== client.id) return { id: ERR.invalidClientId, msg: 'invalid clientID' };
        if (this.nicknameTaken(f.client_nickname, client)) return NICKNAME_IN_USE;
        this.updateClient(client, f);
        return ok;
      case 'clientmove':
        return this.moveClient(client, Number(f.cid), f.cpw ?? '');
      case 'channeledit':
        return this.editChannel(client, Number(f.cid), f);
      case 'channelsubscribeall':
        return ok;
      case 'ftinitupload':
        return this.initUpload(session, client, f);
      case 'clientdisconnect':
        this.dropSession(session, 8, f.reasonmsg ?? '', DISCONNECT_LINGER_MS);
        return ok;
      default:
        return { id: ERR.notFound, msg: 'command not found' };
    }
  }

  private onClientinit(session: Session, f: Record<string, string>): void {
    if (session.client) return;
    // A TeamSpeak 6 server is reported to drop, unanswered, a clientinit naming a 3.x client.
    if (this.options.license === 'ts6' && (f.client_version ?? '').startsWith('3.')) return;
    const refusal = this.refusalOf(session, f);
    if (refusal) {
      session.handler.sendCommand(buildCommand('error', refusal));
      return;
    }
    const channel = this.channels.resolveDefault(
      f.client_default_channel ?? '',
      f.client_default_channel_password ?? '',
    );
    const uid = uidOf(session.handshake.hello?.omega ?? '');
    const client: ServerClient = {
      id: this.nextClientId++,
      nickname: f.client_nickname ?? 'unknown',
      uid,
      channelId: channel.id,
      away: false,
      awayMessage: '',
      description: '',
      avatarHash: '',
      serverGroups: [GUEST_GROUP],
      clientVersion: f.client_version ?? '',
    };
    session.client = client;
    const h = session.handler;
    h.sendCommand(
      buildCommand('initserver', {
        virtualserver_welcomemessage: 'Welcome to the TS3 test server',
        virtualserver_platform: 'Linux',
        virtualserver_version: '3.13.7 [Build: 1655727713]',
        virtualserver_maxclients: this.options.maxClients ?? ANNOUNCED_MAX_CLIENTS,
        virtualserver_created: 0,
        virtualserver_codec_encryption_mode: this.options.codecEncryptionMode ?? 0,
        virtualserver_name: 'TS3 test server',
        virtualserver_default_server_group: GUEST_GROUP,
        virtualserver_default_channel_group: 8,
        client_nickname: client.nickname,
        client_talk_power: 75,
        client_needed_serverquery_view_power: 75,
        aclid: client.id,
        acn: client.nickname,
        pv: 6,
        lt: 0,
      }),
    );
    h.sendCommand(buildCommand('channellist', ...[...this.channels.values()].map(channelItem)));
    h.sendCommand('channellistfinished');
    const others = this.clients.filter((c) => c.id !== client.id);
    if (others.length > 0)
      h.sendCommand(buildCommand('notifycliententerview', ...others.map((c) => enterItem(c, 2))));
    this.broadcast(buildCommand('notifycliententerview', enterItem(client, 0)));
    this.emit('clientConnected', {
      clientId: client.id,
      nickname: client.nickname,
      uid,
      channelId: channel.id,
    });
  }

  /** Why a real server would refuse this clientinit (as it words it), in the order it checks. */
  private refusalOf(session: Session, f: Record<string, string>): Params | undefined {
    const needed = this.options.neededSecurityLevel ?? 0;
    const omega = session.handshake.hello?.omega ?? '';
    if (securityLevel(omega, Number(f.client_key_offset ?? 0)) < needed)
      return { id: ERR.identityTooWeak, msg: 'client could not validate identity', extra_msg: needed };
    if (f.client_server_password !== hashPassword(this.options.serverPassword))
      return { id: ERR.badServerPassword, msg: 'invalid server password' };
    if (this.options.bannedNicknames?.includes(f.client_nickname ?? ''))
      return {
        id: ERR.banned,
        msg: 'connection failed, you are banned',
        extra_msg: 'you may retry in 3600 seconds',
      };
    if (this.clients.length >= (this.options.maxClients ?? Number.POSITIVE_INFINITY))
      return { id: ERR.serverFull, msg: 'max clients reached' };
    if (this.nicknameTaken(f.client_nickname, undefined)) return NICKNAME_IN_USE;
    return undefined;
  }

  /** Whether another client than `self` is on the server as `nickname` (a server keeps nicknames unique). */
  private nicknameTaken(nickname: string | undefined, self: ServerClient | undefined): boolean {
    return nickname !== undefined && this.clients.some((c) => c !== self && c.nickname === nickname);
  }

  private onText(from: ServerClient, targetMode: number, target: number, message: string): void {
    const text = textNotification(from, targetMode, target, message);
    if (targetMode === 1) this.broadcast(text, (c) => c.id === target || c.id === from.id);
    else if (targetMode === 2) this.broadcast(text, (c) => c.channelId === from.channelId);
    else this.broadcast(text);
    this.emit('textMessage', { fromId: from.id, targetMode, target, message });
  }

  private updateClient(client: ServerClient, f: Record<string, string>): void {
    const changes: Record<string, string> = {};
    for (const key of CLIENT_FIELDS) if (key in f) changes[key] = f[key]!;
    if (Object.keys(changes).length === 0) return;
    if ('client_nickname' in changes) client.nickname = changes.client_nickname!;
    if ('client_away' in changes) client.away = changes.client_away === '1';
    if ('client_away_message' in changes) client.awayMessage = changes.client_away_message!;
    if ('client_description' in changes) client.description = changes.client_description!;
    if ('client_flag_avatar' in changes) client.avatarHash = changes.client_flag_avatar!;
    this.broadcast(buildCommand('notifyclientupdated', { clid: client.id, ...changes }));
    this.emit('clientUpdated', { clientId: client.id, changes });
  }

  private moveClient(
    client: ServerClient,
    channelId: number,
    passwordHash: string,
  ): { id: number; msg: string } {
    const channel = this.channels.get(channelId);
    if (!channel) return { id: ERR.invalidChannelId, msg: 'invalid channelID' };
    if (channel.password !== '' && hashPassword(channel.password) !== passwordHash) {
      return { id: ERR.badChannelPassword, msg: 'invalid channel password' };
    }
    const from = client.channelId;
    client.channelId = channelId;
    this.broadcast(
      buildCommand('notifyclientmoved', {
        ctid: channelId,
        reasonid: 0,
        cfid: from,
        clid: client.id,
        invokerid: client.id,
        invokername: client.nickname,
      }),
    );
    this.emit('clientMoved', { clientId: client.id, channelId });
    return { id: ERR.ok, msg: 'ok' };
  }

  private editChannel(
    client: ServerClient,
    channelId: number,
    f: Record<string, string>,
  ): { id: number; msg: string } {
    const channel = this.channels.get(channelId);
    if (!channel) return { id: ERR.invalidChannelId, msg: 'invalid channelID' };
    const changes: Record<string, string> = {};
    for (const [key, value] of Object.entries(f)) if (key.startsWith('channel_')) changes[key] = value;
    if ('channel_description' in changes) channel.description = changes.channel_description!;
    if ('channel_name' in changes) channel.name = changes.channel_name!;
    this.broadcast(
      buildCommand('notifychanneledited', {
        cid: channelId,
        reasonid: 10,
        invokerid: client.id,
        invokername: client.nickname,
        ...changes,
      }),
    );
    this.emit('channelEdited', { channelId, changes });
    return { id: ERR.ok, msg: 'ok' };
  }

  private initUpload(
    session: Session,
    client: ServerClient,
    f: Record<string, string>,
  ): { id: number; msg: string } {
    const size = Number(f.size);
    const clientTransferId = f.clientftfid ?? '0';
    if (f.name !== '/avatar' || !Number.isInteger(size) || size <= 0)
      return { id: 2054, msg: 'invalid file name or size' };
    const key = this.files.expect({
      size,
      onDone: (data) => {
        this.avatars.set(avatarFileName(client.uid), data);
        session.handler.sendCommand(
          buildCommand('notifystatusfiletransfer', {
            clientftfid: clientTransferId,
            status: FT_COMPLETE,
            msg: 'file transfer complete',
            size,
          }),
        );
        this.emit('avatarUploaded', {
          clientId: client.id,
          bytes: data.length,
          md5: createHash('md5').update(data).digest('hex'),
        });
      },
    });
    session.handler.sendCommand(
      buildCommand('notifystartupload', {
        clientftfid: clientTransferId,
        serverftfid: 1,
        ftkey: key,
        port: this.files.port,
        seekpos: 0,
        proto: 1,
        ip: '',
      }),
    );
    return { id: ERR.ok, msg: 'ok' };
  }
}

function enterItem(c: ServerClient, reasonId: number): Params {
  return {
    reasonid: reasonId,
    ctid: c.channelId,
    cfid: 0,
    clid: c.id,
    client_nickname: c.nickname,
    client_unique_identifier: c.uid,
    client_database_id: c.id,
    client_type: 0,
    client_servergroups: c.serverGroups.join(','),
    client_channel_group_id: 8,
    client_away: c.away,
    client_away_message: c.awayMessage,
    client_description: c.description,
    client_flag_avatar: c.avatarHash,
    client_talk_power: 75,
  };
}

/** `notifytextmessage` from `invoker`; only private messages name their target. */
function textNotification(
  invoker: Pick<ServerClient, 'id' | 'nickname' | 'uid'>,
  targetMode: number,
  target: number,
  message: string,
): string {
  return buildCommand('notifytextmessage', {
    targetmode: targetMode,
    msg: message,
    target: targetMode === 1 ? target : undefined,
    invokerid: invoker.id,
    invokername: invoker.nickname,
    invokeruid: invoker.uid,
  });
}
