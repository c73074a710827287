/**
 * Keeps only the last few KB of a child's stderr: enough to explain why ffmpeg failed (its error is
 * printed last) without letting a chatty process grow memory for the length of a track. ffmpeg quotes
 * the input URL in its errors, and some platforms put a token in the URL's query (a Jellyfin
 * server's `ApiKey=`): the text handed out (to logs and to receipts people read) has every URL's query removed.
 */
export const STDERR_TAIL_BYTES = 8 * 1024;

/** A URL's query (and fragment), up to white space or the `: ` ffmpeg puts after the URL in its errors. */
const URL_QUERY = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s?#]*)[?#](?:[^\s:]|:(?!\s|$))*/gi;
export const redactUrlQueries = (text: string): string => text.replace(URL_QUERY, '$1?…');

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

  /** The retained text, cut to the limit at the front, URL queries removed. */
  text(): string {
    const joined = Buffer.concat(this.chunks);
    return redactUrlQueries(joined.subarray(Math.max(0, joined.length - this.limitBytes)).toString('utf8'));
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
