/**
 * How the `streaming_a` source runs librespot, the open-source Spotify Connect receiver, as its audio
 * sidecar: one process per playing track, logged in with the connected account's access token, with
 * the `pipe` backend writing raw PCM to stdout (S16 little-endian, 44.1 kHz, stereo: librespot's only
 * sample rate). librespot has no option to play a given track: it is a Connect device, so the source
 * starts it and then tells Spotify's Web API to play the track on it (spotify-connect.ts).
 *
 * The token travels in the environment (`LIBRESPOT_ACCESS_TOKEN`, which librespot reads for every
 * long option and never logs) rather than on the command line, where other local users could read it
 * with `ps`. Where librespot's own login is kept (librespot-credentials.ts), a run is handed a cache
 * folder holding it (`--system-cache`, where librespot looks for `credentials.json` when given no
 * token) instead. Discovery (zeroconf) is off: nobody on the LAN should take over the bot's device; the
 * volume is fixed at full, since the bot applies its own; autoplay is off, so nothing follows the
 * track; no cache is written.
 *
 * Options from librespot-org/librespot src/main.rs (0.7: `--name`, `--bitrate`, `--backend`,
 * `--format`, `--disable-audio-cache`, `--disable-discovery`, `--initial-volume`, `--volume-ctrl`,
 * `--autoplay`, `--access-token` / `LIBRESPOT_*` variables, `--version`) and its playback crate
 * (`SAMPLE_RATE = 44100`, pipe sink in playback/src/audio_backend/pipe.rs).
 */
import type { SpotifySettings } from './spotify-config';

/** What runs when LIBRESPOT_PATH is unset: `librespot` found on PATH. */
export const DEFAULT_LIBRESPOT = 'librespot';

/** The PCM librespot's pipe backend writes with `--format S16`. */
export const LIBRESPOT_PCM = { sampleRateHz: 44_100, channels: 2, bytesPerSample: 2 } as const;
export const LIBRESPOT_BYTES_PER_SECOND =
  LIBRESPOT_PCM.sampleRateHz * LIBRESPOT_PCM.channels * LIBRESPOT_PCM.bytesPerSample;

/** How a run logs in: the connected account's access token, or librespot's own kept login. */
export type LibrespotLogin = { kind: 'token'; accessToken: string } | { kind: 'cache'; dir: string };

export function librespotArgs(
  { bitrate }: Pick<SpotifySettings, 'bitrate'>,
  deviceName: string,
  login: LibrespotLogin,
): string[] {
  return [
    ...['--name', deviceName],
    ...['--bitrate', String(bitrate)],
    ...['--backend', 'pipe'],
    ...['--format', 'S16'],
    '--disable-audio-cache',
    '--disable-discovery',
    ...['--initial-volume', '100'],
    ...['--volume-ctrl', 'fixed'],
    ...['--autoplay', 'off'],
    ...(login.kind === 'cache' ? ['--system-cache', login.dir] : []),
  ];
}

/**
 * The environment of a librespot run: the one this process was started with (what any child inherits
 * by default: its PATH, HOME, locale; none of it is read here as configuration) plus the token, never
 * on the command line.
 */
export function librespotEnv(login: LibrespotLogin): NodeJS.ProcessEnv {
  // A token inherited from this process's own environment would win over the kept login.
  const { LIBRESPOT_ACCESS_TOKEN: _inherited, ...env } = process.env;
  return login.kind === 'token' ? { ...env, LIBRESPOT_ACCESS_TOKEN: login.accessToken } : env;
}

/** Why librespot could not be started, as a listener reads it. */
export function notInstalledMessage(path: string, code: string, message: string): string {
  if (code === 'ENOENT')
    return path === DEFAULT_LIBRESPOT
      ? 'the Spotify sidecar (librespot) is not installed (no librespot on PATH; install it or set LIBRESPOT_PATH)'
      : `the Spotify sidecar (librespot) is not installed (nothing at ${path}; fix LIBRESPOT_PATH)`;
  if (code === 'EACCES') return `the Spotify sidecar (librespot) at ${path} is not executable`;
  return `the Spotify sidecar (librespot) could not be started (${message})`;
}

/** The last line librespot wrote that says something: why it stopped, when it stops on its own. */
export function lastLine(text: string): string | undefined {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .findLast((line) => line.length > 0);
}
