/**
 * The secrets a suite creates (passwords, API keys, session ids, platform cookies, client secrets, the
 * service token), and a scan of every answer and log line for them (issue #16: "no response body,
 * header or log line ever contains a stored secret"). A secret is looked for as sent and
 * percent-encoded. A secret may appear only in the answer that hands it out: a new session id in its
 * `Set-Cookie` (and a renewed one in the Set-Cookie of its own requests), a new API key's `rawKey` in
 * the body of the one answer that creates it.
 */

/** Short values (a guest label, an 'x') would match everywhere; nothing shorter is a secret here. */
const MIN_SECRET_LENGTH = 8;

export interface ScannedAnswer {
  status: number;
  headers: Headers;
  body: string;
}

export class SecretScanner {
  private readonly secrets = new Map<string, string>();
  private readonly kept: { where: string; text: string; allowed: ReadonlySet<string> }[] = [];
  /** Every finding, as `where: label`. */
  findings: string[] = [];
  /** How many texts (bodies, headers, log lines) were scanned. */
  scanned = 0;

  /**
   * @param keepTexts keep every scanned text, so `rescan` can look for secrets that became known only
   *   later (a platform cookie is known once it is stored, after the answers that led to it).
   */
  constructor(private readonly keepTexts = false) {}

  register(label: string, value: string | undefined): void {
    if (value && value.length >= MIN_SECRET_LENGTH) this.secrets.set(value, label);
  }

  get size(): number {
    return this.secrets.size;
  }

  /** Records where registered secrets (other than `allowed`) occur in `text`. */
  scanText(where: string, text: string, allowed: ReadonlySet<string> = new Set()): void {
    this.scanned++;
    if (this.keepTexts) this.kept.push({ where, text, allowed });
    this.find(where, text, allowed);
  }

  /** Scans every kept text again, for all secrets known now. */
  rescan(): void {
    this.findings = [];
    for (const { where, text, allowed } of this.kept) this.find(where, text, allowed);
  }

  private find(where: string, text: string, allowed: ReadonlySet<string>): void {
    for (const [value, label] of this.secrets) {
      if (allowed.has(value)) continue;
      if (text.includes(value) || text.includes(encodeURIComponent(value)))
        this.findings.push(`${where}: ${label}`);
    }
  }

  /**
   * Scans an answer's body and headers, then registers what it hands out: new session ids in
   * `Set-Cookie` and a new API key's `rawKey` in the body. Those may appear in this answer, and so may
   * `requestSessions` (the caller's own, renewed) in its `Set-Cookie`; nowhere else.
   */
  scanAnswer(where: string, answer: ScannedAnswer, requestSessions: readonly string[] = []): void {
    const newSessions = answer.headers
      .getSetCookie()
      .map((cookie) => /^tsmb_(?:session|guest)=([^;]*)/.exec(cookie)?.[1])
      .filter((value): value is string => Boolean(value));
    const rawKey = /"rawKey":"([^"]+)"/.exec(answer.body)?.[1];
    this.scanText(`${where} body`, answer.body, new Set(rawKey ? [rawKey] : []));
    for (const [name, value] of answer.headers) {
      if (name === 'set-cookie') continue;
      this.scanText(`${where} header ${name}`, value);
    }
    const own = new Set([...requestSessions, ...newSessions]);
    for (const cookie of answer.headers.getSetCookie()) this.scanText(`${where} set-cookie`, cookie, own);
    for (const session of newSessions) this.register('a session id', session);
    this.register('an API key', rawKey);
  }
}

/** Session ids of the `tsmb_session` / `tsmb_guest` cookies in a Cookie or Set-Cookie header. */
export function sessionIdsIn(header: string | undefined): string[] {
  return [...(header ?? '').matchAll(/tsmb_(?:session|guest)=([^;,\s]+)/g)].map((m) => m[1]!);
}
