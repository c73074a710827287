/**
 * One librespot run for one track: spawned with the connected account's token, made to play the
 * track through Spotify Connect, and handed over as its PCM stdout with a way to stop it. A run that
 * cannot start (not installed, not logged in, Spotify refusing) is a readable error and leaves no
 * process behind; librespot's last stderr line says why it stopped when it stops on its own.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { logger } from '../../logger';
import { err, ok, type Result } from '../../result';
import { refusal } from '../http/refusals';
import { DEFAULT_LIBRESPOT, librespotArgs, librespotEnv, notInstalledMessage } from './librespot';
import type { SpotifyClient } from './spotify-client';
import { DEFAULT_DEVICE_WAIT, type DeviceWait, playOnDevice } from './spotify-connect';

const STDERR_TAIL_CHARS = 4_096;
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
}

type Child = ChildProcessByStdio<null, Readable, Readable>;

export async function startLibrespot(
  client: SpotifyClient,
  trackId: string,
  { path = DEFAULT_LIBRESPOT, deviceWait = DEFAULT_DEVICE_WAIT }: LibrespotOptions = {},
): Promise<Result<LibrespotRun>> {
  const settings = await client.configured();
  if (!settings.ok) return settings;
  const token = await client.accessToken();
  if (!token.ok) return token;
  // A name of its own per run: the play command must reach this process, not another bot's.
  const deviceName = `${settings.value.deviceName} ${randomBytes(3).toString('hex')}`;
  const child: Child = spawn(path, librespotArgs(settings.value, deviceName), {
    env: librespotEnv(token.value),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
  });
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  const started = await spawned(child, path);
  if (!started.ok) return started;

  const exited = new AbortController();
  child.once('exit', (code, signal) =>
    exited.abort(
      loginRefusal(stderr) ??
        `librespot stopped before it played (${lastLine(stderr) ?? signal ?? `exit code ${code}`})`,
    ),
  );
  const played = await playOnDevice(client, deviceName, trackId, exited.signal, deviceWait);
  if (!played.ok) {
    stop();
    return played;
  }
  log.debug({ pid: child.pid, trackId }, 'librespot is playing');
  return ok({ pcm: child.stdout, stop });
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
 * `login_error_message`, 0.7), which a token of the user's own Development-Mode app may meet.
 */
function loginRefusal(stderr: string): string | undefined {
  const reason = /Login failed with reason: (Bad credentials|Could not validate credentials)/.exec(
    stderr,
  )?.[1];
  return reason && refusal.tokenRefused('Spotify', `librespot: ${reason}`);
}

function lastLine(text: string): string | undefined {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .findLast((line) => line.length > 0);
}
