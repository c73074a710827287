/**
 * The in-order side of one command packet type (Command or CommandLow): reorders by id, joins fragments
 * and decompresses (paper §1.5, §1.9). Fragments: the first and the last carry FRAGMENTED; COMPRESSED is
 * read from the first.
 */
import { err, ok, type Result } from '../../shared/result';
import { PacketFlag } from './packet';
import { decompress } from './quicklz';
import { ReceiveWindow } from './receive-window';

/** tsclientlib buffers up to 200 commands ahead of the next expected id. */
export const MAX_AHEAD = 200;
/** Upper bound on one reassembled command, so a peer cannot make us buffer without end. */
export const MAX_FRAGMENTED_BYTES = 256 * 1024;

export type Placement = 'new' | 'old' | 'duplicate' | 'too-far';

interface Pending {
  flags: number;
  payload: Buffer;
}

export class CommandStream {
  readonly window: ReceiveWindow;
  private readonly pending = new Map<number, Pending>();
  private fragments: Buffer[] | undefined;
  private fragmentFlags = 0;
  private fragmentBytes = 0;

  constructor(startId: number) {
    this.window = new ReceiveWindow(startId);
  }

  place(id: number): Placement {
    const { ahead } = this.window.locate(id);
    if (ahead < 0) return 'old';
    if (ahead > MAX_AHEAD) return 'too-far';
    return this.pending.has(id) ? 'duplicate' : 'new';
  }

  /** Stores a decrypted packet (its placement must be 'new') and returns every command now complete. */
  accept(id: number, flags: number, payload: Buffer): Result<Buffer>[] {
    this.pending.set(id, { flags, payload });
    const done: Result<Buffer>[] = [];
    for (let next = this.pending.get(this.window.next); next; next = this.pending.get(this.window.next)) {
      this.pending.delete(this.window.next);
      this.window.passTo(this.window.next);
      const complete = this.join(next);
      if (complete) done.push(complete);
    }
    return done;
  }

  private join(packet: Pending): Result<Buffer> | undefined {
    const fragmented = (packet.flags & PacketFlag.Fragmented) !== 0;
    if (!this.fragments) {
      if (!fragmented) return this.finish(packet.flags, packet.payload);
      this.fragments = [packet.payload];
      this.fragmentFlags = packet.flags;
      this.fragmentBytes = packet.payload.length;
      return undefined;
    }
    this.fragments.push(packet.payload);
    this.fragmentBytes += packet.payload.length;
    if (this.fragmentBytes > MAX_FRAGMENTED_BYTES) {
      this.fragments = undefined;
      return err('fragmented command too large');
    }
    if (!fragmented) return undefined;
    const whole = Buffer.concat(this.fragments);
    this.fragments = undefined;
    return this.finish(this.fragmentFlags, whole);
  }

  private finish(flags: number, data: Buffer): Result<Buffer> {
    return (flags & PacketFlag.Compressed) !== 0 ? decompress(data) : ok(data);
  }
}
