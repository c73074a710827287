/**
 * Keeps only the last few KB of a child's stderr: enough to explain why ffmpeg failed (its error is
 * printed last) without letting a chatty process grow memory for the length of a track.
 */
export const STDERR_TAIL_BYTES = 8 * 1024;

export class StderrTail {
  private chunks: Buffer[] = [];
  private byteCount = 0;

  constructor(private readonly limitBytes: number = STDERR_TAIL_BYTES) {}

  append(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.byteCount += chunk.length;
    while (this.chunks.length > 1 && this.byteCount - (this.chunks[0]?.length ?? 0) >= this.limitBytes) {
      this.byteCount -= this.chunks.shift()?.length ?? 0;
    }
  }

  /** The retained text, cut to the limit at the front. */
  text(): string {
    const joined = Buffer.concat(this.chunks);
    return joined.subarray(Math.max(0, joined.length - this.limitBytes)).toString('utf8');
  }

  /**
   * ffmpeg's reason for failing, for people: with `-loglevel error` its verdict is the last line
   * ("a.mp3: Invalid argument") and the line before usually says why. Context addresses such as
   * "[mp3 @ 0x55d1…]" are reduced to "[mp3]".
   */
  summary(): string {
    const lines = this.text()
      .split(/\r?\n/)
      .map((line) => line.replace(/ @ 0x[0-9a-f]+\]/gi, ']').trim())
      .filter((line) => line.length > 0);
    const verdict = lines.at(-1);
    if (!verdict) return '';
    const cause = lines.at(-2);
    return cause ? `${verdict} (${cause})` : verdict;
  }
}
