/**
 * A UDP relay between clients and a server that drops a share of the datagrams in each direction (from a
 * seeded generator, so a run is repeatable) or, on request, everything the server sends after a count.
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';

export interface ProxyOptions {
  targetPort: number;
  /** Share of datagrams dropped in each direction, 0..1. */
  dropRate?: number;
  seed?: number;
  /** Forward only this many server → client datagrams, then nothing (a server that stops answering). */
  serverDatagramLimit?: number;
  /**
   * Closes the relay of a client that has sent nothing for this long (one that left: a live client
   * pings every second), so a long run of clients coming and going does not pile up sockets.
   */
  idleCloseMs?: number;
}

/** mulberry32: a tiny seeded PRNG, numbers in [0, 1). */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class LossyProxy {
  readonly dropped = { toServer: 0, toClient: 0 };
  readonly forwarded = { toServer: 0, toClient: 0 };
  private readonly upstreams = new Map<string, Socket>();
  /** When each client last sent anything (performance.now()). */
  private readonly lastHeard = new Map<string, number>();
  private readonly sweeper: NodeJS.Timeout | undefined;
  private readonly next: () => number;

  private constructor(
    private readonly front: Socket,
    private readonly options: ProxyOptions,
  ) {
    this.next = random(options.seed ?? 1);
    front.on('message', (d, remote) => this.fromClient(d, remote));
    const idleMs = options.idleCloseMs;
    if (idleMs !== undefined) this.sweeper = setInterval(() => this.closeIdle(idleMs), idleMs / 2).unref();
  }

  static async start(options: ProxyOptions): Promise<LossyProxy> {
    const front = createSocket('udp4');
    await new Promise<void>((resolve) => front.bind(0, '127.0.0.1', () => resolve()));
    return new LossyProxy(front, options);
  }

  get port(): number {
    return this.front.address().port;
  }

  private drop(): boolean {
    return this.next() < (this.options.dropRate ?? 0);
  }

  private fromClient(datagram: Buffer, remote: RemoteInfo): void {
    const key = `${remote.address}:${remote.port}`;
    this.lastHeard.set(key, performance.now());
    let upstream = this.upstreams.get(key);
    if (!upstream) {
      const socket = createSocket('udp4');
      socket.on('message', (d) => this.fromServer(d, remote));
      socket.connect(this.options.targetPort, '127.0.0.1');
      this.upstreams.set(key, socket);
      upstream = socket;
      socket.once('connect', () => this.fromClient(datagram, remote));
      return;
    }
    if (this.drop()) {
      this.dropped.toServer++;
      return;
    }
    this.forwarded.toServer++;
    upstream.send(datagram);
  }

  private fromServer(datagram: Buffer, client: RemoteInfo): void {
    const limit = this.options.serverDatagramLimit;
    if (this.drop() || (limit !== undefined && this.forwarded.toClient >= limit)) {
      this.dropped.toClient++;
      return;
    }
    this.forwarded.toClient++;
    this.front.send(datagram, client.port, client.address);
  }

  private closeIdle(idleMs: number): void {
    const now = performance.now();
    for (const [key, heard] of this.lastHeard) {
      if (now - heard < idleMs) continue;
      this.upstreams.get(key)?.close();
      this.upstreams.delete(key);
      this.lastHeard.delete(key);
    }
  }

  close(): void {
    clearInterval(this.sweeper);
    for (const socket of this.upstreams.values()) socket.close();
    this.front.close();
  }
}
