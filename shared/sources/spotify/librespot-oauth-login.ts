/**
 * librespot's own login, made from the browser: the other way to play Spotify when Spotify turns
 * away the token of the user's own app. librespot-org/librespot (src/main.rs and oauth/src/lib.rs,
 * 0.7): with `--enable-oauth` and no credentials it prints "Browse to: <authorization address>" on
 * stdout and, with `--oauth-port <port>`, waits for Spotify's redirect on
 * `http://127.0.0.1:<port>/login`, reading `code` from the first request it gets; it then trades the
 * code for a token with its own client id, logs in, and writes reusable credentials as
 * `credentials.json` into its credentials cache (`--system-cache`).
 *
 * The admin's browser cannot reach that port (it is this server's loopback, and the browser may be
 * on another machine), so the redirect ends on a page that does not load; the admin pastes its
 * address, and `finish` forwards its `code` and `state` to librespot on 127.0.0.1 and nowhere else.
 * The attempt's `state` must match (librespot does not check it; we do, so an address of another
 * attempt is refused in words). Once librespot has written the credentials they are kept
 * (librespot-credentials.ts) and the process is stopped. One attempt at a time, ten minutes long.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { get } from 'node:http';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { listenOnLoopback } from '../../net/loopback-server';
import { err, ok, type Result } from '../../result';
import { DEFAULT_LIBRESPOT, lastLine, librespotEnv, notInstalledMessage } from './librespot';
import { CREDENTIALS_FILE, type LibrespotCredentials, removeCacheDir } from './librespot-credentials';

const ATTEMPT_MS = 10 * 60_000;
const ADDRESS_WAIT_MS = 15_000;
const CREDENTIALS_WAIT_MS = 30_000;
const STDERR_TAIL_CHARS = 4_096;

/** Why a step of the login failed: the attempt, the pasted address, or librespot itself. */
export type OAuthLoginFailure =
  | { kind: 'noAttempt' }
  | { kind: 'badAddress' }
  | { kind: 'otherAttempt' }
  | { kind: 'denied'; detail: string }
  | { kind: 'failed'; detail: string };

type Child = ChildProcessByStdio<null, Readable, Readable>;

interface Attempt {
  child: Child;
  port: number;
  state: string | undefined;
  cacheDir: string;
  stderr: () => string;
  expiry: NodeJS.Timeout;
}

export interface LibrespotOAuthOptions {
  /** LIBRESPOT_PATH; unset means `librespot` on PATH. */
  path?: string | undefined;
  credentials: LibrespotCredentials;
  /** The Spotify Connect name the logging-in librespot shows meanwhile. */
  deviceName: string;
}

export class LibrespotOAuthLogin {
  private attempt: Attempt | undefined;

  constructor(private readonly options: LibrespotOAuthOptions) {}

  /** Starts librespot's OAuth login (ending one under way) and answers the address to open. */
  async start(): Promise<Result<{ url: string }, OAuthLoginFailure>> {
    this.end();
    const { path = DEFAULT_LIBRESPOT, credentials, deviceName } = this.options;
    const port = await freeLoopbackPort();
    const cacheDir = await credentials.newCacheDir();
    const args = [
      ...['--name', deviceName],
      ...['--backend', 'pipe'],
      // Nothing is played on it: the audio, if any, goes nowhere, and stdout carries only its words.
      ...['--device', '/dev/null'],
      '--disable-audio-cache',
      '--disable-discovery',
      '--enable-oauth',
      ...['--oauth-port', String(port)],
      ...['--system-cache', cacheDir],
    ];
    const child: Child = spawn(path, args, {
      env: librespotEnv({ kind: 'cache', dir: cacheDir }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Not left listening on the loopback when this process ends before the attempt does.
    const stopOnExit = () => stopChild(child);
    process.once('exit', stopOnExit);
    child.once('close', () => {
      process.off('exit', stopOnExit);
      void removeCacheDir(cacheDir);
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    const address = await authorizationAddress(child, path, () => stderr);
    if (!address.ok) {
      stopChild(child);
      return err({ kind: 'failed', detail: address.error });
    }
    const expiry = setTimeout(() => this.end(), ATTEMPT_MS);
    expiry.unref();
    const state = new URL(address.value).searchParams.get('state') ?? undefined;
    this.attempt = { child, port, state, cacheDir, stderr: () => stderr, expiry };
    return ok({ url: address.value });
  }

  /**
   * Hands librespot the redirect the admin pasted (the address the browser ended on after signing in)
   * and keeps the credentials it writes.
   */
  async finish(pasted: string): Promise<Result<void, OAuthLoginFailure>> {
    const attempt = this.attempt;
    if (!attempt || attempt.child.exitCode !== null || attempt.child.signalCode !== null) {
      this.end();
      return err({ kind: 'noAttempt' });
    }
    const redirect = parseRedirect(pasted);
    if (!redirect) return err({ kind: 'badAddress' });
    if (redirect.error) return err({ kind: 'denied', detail: redirect.error });
    if (!redirect.code) return err({ kind: 'badAddress' });
    if (attempt.state !== undefined && redirect.state !== attempt.state) return err({ kind: 'otherAttempt' });
    const query = new URLSearchParams({
      code: redirect.code,
      ...(redirect.state ? { state: redirect.state } : {}),
    });
    const forwarded = await callLoopback(attempt.port, `/login?${query}`);
    const written = forwarded.ok ? await credentialsWritten(attempt) : forwarded;
    if (!written.ok) {
      this.end();
      return err({ kind: 'failed', detail: written.error });
    }
    await this.options.credentials.keepFrom(attempt.cacheDir);
    this.end();
    return ok(undefined);
  }

  /** Ends the attempt under way, if any (its librespot stopped, its cache folder removed). */
  end(): void {
    const attempt = this.attempt;
    this.attempt = undefined;
    if (!attempt) return;
    clearTimeout(attempt.expiry);
    stopChild(attempt.child);
  }
}

function stopChild(child: Child): void {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** A port on 127.0.0.1 nothing listens on now, for librespot's redirect listener. */
async function freeLoopbackPort(): Promise<number> {
  const { server, port } = await listenOnLoopback((_request, response) => response.end());
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The "Browse to: <address>" librespot prints, or why it printed none. */
function authorizationAddress(child: Child, path: string, stderr: () => string): Promise<Result<string>> {
  return new Promise((resolve) => {
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout = (stdout + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
      const url = /Browse to: (https:\/\/\S+)/.exec(stdout)?.[1];
      if (url) resolve(ok(url));
    });
    child.once('error', (error: NodeJS.ErrnoException) =>
      resolve(err(notInstalledMessage(path, error.code ?? '', error.message))),
    );
    child.once('exit', (code, signal) =>
      resolve(err(`librespot stopped (${lastLine(stderr()) ?? signal ?? `exit code ${code}`})`)),
    );
    setTimeout(
      () => resolve(err(`librespot printed no address to open within ${ADDRESS_WAIT_MS / 1000} s`)),
      ADDRESS_WAIT_MS,
    ).unref();
  });
}

/** The pasted address's `code`, `state` and `error` (Spotify's refusal), or undefined if it is no URL. */
function parseRedirect(pasted: string): { code?: string; state?: string; error?: string } | undefined {
  let url: URL;
  try {
    url = new URL(pasted.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const param = (name: string) => url.searchParams.get(name) || undefined;
  const [code, state, error] = [param('code'), param('state'), param('error')];
  return { ...(code && { code }), ...(state && { state }), ...(error && { error }) };
}

/** A GET to librespot's redirect listener on 127.0.0.1 (never any other host, whatever was pasted). */
function callLoopback(port: number, path: string): Promise<Result<void>> {
  return new Promise((resolve) => {
    const request = get({ host: '127.0.0.1', port, path, timeout: 10_000 }, (response) => {
      response.resume();
      response.once('end', () => resolve(ok(undefined)));
    });
    request.once('timeout', () => request.destroy(new Error('no answer within 10 s')));
    request.once('error', (error) => resolve(err(`librespot did not take the redirect (${error.message})`)));
  });
}

/** Waits for librespot to log in and write its credentials, or for it to stop saying why. */
async function credentialsWritten(attempt: Attempt): Promise<Result<void>> {
  const file = join(attempt.cacheDir, CREDENTIALS_FILE);
  const deadline = Date.now() + CREDENTIALS_WAIT_MS;
  while (Date.now() < deadline) {
    if (await holdsCredentials(file)) return ok(undefined);
    const { exitCode, signalCode } = attempt.child;
    if (exitCode !== null || signalCode !== null)
      return err(
        `librespot stopped (${lastLine(attempt.stderr()) ?? signalCode ?? `exit code ${exitCode}`})`,
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return err(`librespot wrote no credentials within ${CREDENTIALS_WAIT_MS / 1000} s`);
}

/** Whether librespot has finished writing its credentials (a whole JSON object; it writes in one go). */
async function holdsCredentials(file: string): Promise<boolean> {
  try {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    return typeof parsed === 'object' && parsed !== null;
  } catch {
    return false;
  }
}

/** A Connect name of its own for the logging-in librespot. */
export const loginDeviceName = (deviceName: string): string =>
  `${deviceName} login ${randomBytes(2).toString('hex')}`;
