/**
 * One librespot run for one track: spawned with the kept librespot login (librespot-credentials.ts)
 * or else the connected account's token, made to play the track through Spotify Connect, and handed
 * over as its PCM stdout with a way to stop it. A run that cannot start (not installed, not logged in,
 * Spotify refusing) is a readable error and leaves no process behind; librespot's last stderr line
 * says why it stopped when it stops on its own. `checkLibrespotLogin` only logs in and out again, so
 * a song can fail with Spotify's refusal in words before a stream is opened on it.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { logger } from '../../logger';
import { err, ok, type Result } from '../../result';
import { refusal } from '../http/refusals';
import {
  DEFAULT_LIBRESPOT,
  type LibrespotLogin,
  lastLine,
  librespotArgs,
  librespotEnv,
  notInstalledMessage,
} from './librespot';
import { type LibrespotCredentials, removeCacheDir } from './librespot-credentials';
import type { SpotifyClient } from './spotify-client';
import { DEFAULT_DEVICE_WAIT, type DeviceWait, playOnDevice } from './spotify-connect';

const STDERR_TAIL_CHARS = 4_096;
/** How long librespot may take to log in (resolving an access point, the handshake) when checked. */
const LOGIN_CHECK_MS = 20_000;
const log = logger('sources.spotify.librespot');

export interface LibrespotRun {
  /** Raw PCM as librespot writes it (see LIBRESPOT_PCM). */
  pcm: Readable;
  /** Ends the process; safe to call more than once. */
  stop(): void;
}

export interface LibrespotOptions {
  /** LIBRESPOT_PATH; unset means `librespot` on PATH. */
  path?: string | undefined;
  deviceWait?: DeviceWait;
  /** librespot's own login, used while one is kept; unset: always the account's token. */
  credentials?: LibrespotCredentials | undefined;
}

type Child = ChildProcessByStdio<null, Readable, Readable>;

/** A librespot process started (it logs in by itself), before any track. */
interface Launched {
  child: Child;
  deviceName: string;
  /** The end of what it wrote to stderr so far. */
  stderr(): string;
  /** Why it stopped, from what it said last, once it has stopped on its own. */
  whyStopped(code: number | null, signal: NodeJS.Signals | null): string;
  stop(): void;
}

export async function startLibrespot(
  client: SpotifyClient,
  trackId: string,
  { deviceWait = DEFAULT_DEVICE_WAIT, ...options }: LibrespotOptions = {},
): Promise<Result<LibrespotRun>> {
  const launched = await launch(client, options);
  if (!launched.ok) return launched;
  const { child, deviceName, whyStopped, stop } = launched.value;
  const exited = new AbortController();
  child.once('exit', (code, signal) => exited.abort(whyStopped(code, signal)));
  const played = await playOnDevice(client, deviceName, trackId, exited.signal, deviceWait);
  if (!played.ok) {
    stop();
    return played;
  }
  log.debug({ pid: child.pid, trackId }, 'librespot is playing');
  return ok({ pcm: child.stdout, stop });
}

/** Whether Spotify lets librespot log in as things stand: librespot is started, and stopped once it has. */
export async function checkLibrespotLogin(
  client: SpotifyClient,
  options: LibrespotOptions = {},
): Promise<Result<void>> {
  const launched = await launch(client, options);
  if (!launched.ok) return launched;
  const { child, stderr, whyStopped, stop } = launched.value;
  try {
    return await new Promise<Result<void>>((resolve) => {
      // librespot-org/librespot core/src/session.rs, `connect`: "Authenticated as '<user>' !".
      const loggedIn = () => /Authenticated as /.test(stderr()) && resolve(ok(undefined));
      child.stderr.on('data', loggedIn);
      loggedIn();
      child.once('exit', (code, signal) => resolve(err(whyStopped(code, signal))));
      setTimeout(
        () => resolve(err(`librespot did not log in to Spotify within ${LOGIN_CHECK_MS / 1000} s`)),
        LOGIN_CHECK_MS,
      ).unref();
    });
  } finally {
    // Gone before the answer: its Connect device must not linger beside the run that plays.
    const gone = new Promise((resolve) => child.once('close', resolve));
    stop();
    if (child.exitCode === null && child.signalCode === null) await gone;
  }
}

/**
 * Which login a run would use now, as a hash (the kept credentials' or the token's): a refusal is
 * remembered for it, and a new login is tried afresh. Undefined when there is no login at all.
 */
export async function currentLoginKey(
  client: SpotifyClient,
  credentials: LibrespotCredentials | undefined,
): Promise<string | undefined> {
  const kept = await credentials?.read();
  if (kept !== undefined) return `cache:${hashOf(kept)}`;
  const token = await client.accessToken();
  return token.ok ? `token:${hashOf(token.value)}` : undefined;
}

const hashOf = (text: string): string => createHash('sha256').update(text).digest('hex');

async function launch(
  client: SpotifyClient,
  { path = DEFAULT_LIBRESPOT, credentials }: Pick<LibrespotOptions, 'path' | 'credentials'>,
): Promise<Result<Launched>> {
  const settings = await client.configured();
  if (!settings.ok) return settings;
  const login = await loginOf(client, credentials);
  if (!login.ok) return login;
  // A name of its own per run: the play command must reach this process, not another bot's.
  const deviceName = `${settings.value.deviceName} ${randomBytes(3).toString('hex')}`;
  const child: Child = spawn(path, librespotArgs(settings.value, deviceName, login.value), {
    env: librespotEnv(login.value),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const cacheDir = login.value.kind === 'cache' ? login.value.dir : undefined;
  if (cacheDir) child.once('close', () => void removeCacheDir(cacheDir));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
  });
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  const started = await spawned(child, path);
  if (!started.ok) {
    if (cacheDir) await removeCacheDir(cacheDir);
    return started;
  }
  const whyStopped = (code: number | null, signal: NodeJS.Signals | null) =>
    loginRefusal(stderr, login.value.kind) ??
    `librespot stopped before it played (${lastLine(stderr) ?? signal ?? `exit code ${code}`})`;
  return ok({ child, deviceName, stderr: () => stderr, whyStopped, stop });
}

/** The kept librespot login (a private copy of it) where there is one, else the account's token. */
async function loginOf(
  client: SpotifyClient,
  credentials: LibrespotCredentials | undefined,
): Promise<Result<LibrespotLogin>> {
  const dir = await credentials?.runCacheDir();
  if (dir !== undefined) return ok({ kind: 'cache', dir });
  const token = await client.accessToken();
  return token.ok ? ok({ kind: 'token', accessToken: token.value }) : token;
}

/** Resolves once the process runs, or with the reason it could not start. */
function spawned(child: Child, path: string): Promise<Result<void>> {
  return new Promise((resolve) => {
    child.once('spawn', () => resolve(ok(undefined)));
    child.once('error', (error: NodeJS.ErrnoException) =>
      resolve(err(notInstalledMessage(path, error.code ?? '', error.message))),
    );
  });
}

/**
 * Spotify turning librespot's login away, in plain words: librespot logs the access point's refusal
 * as "Login failed with reason: Bad credentials" (librespot-org/librespot core/src/connection/mod.rs,
 * `login_error_message`, 0.7), which a token of the user's own Development-Mode app may meet (a
 * refusal of its own kind, which offers librespot's own login); the kept librespot login turned away
 * has expired or was revoked, and is to be made again.
 */
function loginRefusal(stderr: string, login: LibrespotLogin['kind']): string | undefined {
  const reason = /Login failed with reason: (Bad credentials|Could not validate credentials)/.exec(
    stderr,
  )?.[1];
  if (!reason) return undefined;
  return login === 'token'
    ? refusal.tokenRefused('Spotify', `librespot: ${reason}`)
    : refusal.loginExpired('Spotify', `librespot's own login: ${reason}`);
}
