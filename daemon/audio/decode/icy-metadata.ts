/**
 * ICY (Shoutcast/Icecast) in-band metadata. Asked with `Icy-MetaData: 1`, a server answers
 * `icy-metaint: N` and puts a metadata block after every N bytes of audio: one length byte L, then
 * L × 16 bytes of text such as `StreamTitle='Artist - Title';StreamUrl='';`, padded with NULs. The
 * blocks are cut out here so ffmpeg sees audio only, and each new StreamTitle is reported.
 */

export class IcyDemuxer {
  /** Audio bytes left before the next metadata block. */
  private audioLeft: number;
  /** The metadata block being read: its length once known, and its bytes so far. */
  private block: { length: number; bytes: Buffer[]; read: number } | undefined;
  private lastTitle: string | undefined;

  constructor(
    private readonly metaint: number,
    private readonly onTitle: (title: string) => void,
  ) {
    this.audioLeft = metaint;
  }

  /** The audio in `chunk`, without the metadata. */
  push(chunk: Uint8Array): Buffer {
    const audio: Buffer[] = [];
    let at = 0;
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    while (at < bytes.length) {
      if (this.audioLeft > 0) {
        const take = Math.min(this.audioLeft, bytes.length - at);
        audio.push(bytes.subarray(at, at + take));
        this.audioLeft -= take;
        at += take;
        continue;
      }
      if (!this.block) {
        this.block = { length: (bytes[at] ?? 0) * 16, bytes: [], read: 0 };
        at += 1;
      } else {
        const take = Math.min(this.block.length - this.block.read, bytes.length - at);
        this.block.bytes.push(bytes.subarray(at, at + take));
        this.block.read += take;
        at += take;
      }
      if (this.block.read >= this.block.length) {
        if (this.block.length > 0) this.metadata(Buffer.concat(this.block.bytes));
        this.block = undefined;
        this.audioLeft = this.metaint;
      }
    }
    return Buffer.concat(audio);
  }

  private metadata(block: Buffer): void {
    const title = streamTitle(block.toString('utf8').replace(/\0+$/, ''));
    if (title === undefined || title === this.lastTitle) return;
    this.lastTitle = title;
    this.onTitle(title);
  }
}

/** The StreamTitle of a metadata text; `'…'` quoted, and a quote may sit inside the title. */
export function streamTitle(text: string): string | undefined {
  const match = /StreamTitle='(.*?)';(?=[A-Za-z]+=|\s*$)/s.exec(text);
  const title = match?.[1]?.trim();
  return title ? title : undefined;
}
