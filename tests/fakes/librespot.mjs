#!/usr/bin/env node
/**
 * A stand-in for the `librespot` executable (the `streaming_a` audio sidecar). It reads librespot's
 * command line (see tests/fixtures/spotify/README.md), "logs in" with the access token from
 * `--access-token` or `LIBRESPOT_ACCESS_TOKEN`, registers itself as a Connect device under its
 * `--name`, and once Spotify is told to play a track on it writes a 440 Hz sine as S16LE 44.1 kHz
 * stereo PCM to stdout (the `pipe` backend) until it is stopped — like librespot, it does not exit
 * when the track is over, it just stops writing after `FAKE_LIBRESPOT_TRACK_SECONDS` (default: never).
 *
 * A registration is a file `<FAKE_LIBRESPOT_DIR>/<pid>.json` `{pid, name, accessToken, args}`; the msw
 * stand-in of the Web API lists them as devices and answers a play command by writing
 * `<pid>.play.json` `{uris}`, which this process waits for. Unknown options are refused the way
 * librespot's parser does (exit 1). `FAKE_LIBRESPOT_MODE=crash` fails the login at once.
 *
 * Credentials kept in `--system-cache` (or `--cache`) as `credentials.json` are used when no token is
 * given, as librespot does. Without either, `--enable-oauth` runs librespot's OAuth login: it prints
 * "Browse to: <authorization address>" on stdout, listens for the redirect on
 * `127.0.0.1:<--oauth-port>` (default 5588) at `/login`, and once called back with a `code` writes
 * reusable credentials into the cache and logs in with them (the real one first trades the code with
 * Spotify's accounts service; the fake takes any code but `denied`).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

const FLAGS = new Set([
  'disable-audio-cache',
  'disable-discovery',
  'disable-credential-cache',
  'enable-oauth',
  'quiet',
  'verbose',
]);
const OPTIONS = new Set([
  'name',
  'bitrate',
  'backend',
  'format',
  'device',
  'initial-volume',
  'volume-ctrl',
  'autoplay',
  'access-token',
  'username',
  'cache',
  'system-cache',
  'oauth-port',
  'device-type',
]);
const VALUES = {
  bitrate: ['96', '160', '320'],
  backend: ['pipe', 'subprocess', 'rodio'],
  format: ['F32', 'S32', 'S24', 'S24_3', 'S16'],
  'volume-ctrl': ['cubic', 'fixed', 'linear', 'log'],
  autoplay: ['on', 'off'],
};
const SAMPLE_RATE = 44_100;
const FREQUENCY_HZ = 440;
const env = process.env;
const args = process.argv.slice(2);

const fail = (line) => {
  process.stderr.write(`${line}\n`);
  process.exit(1);
};

if (args.includes('--version') || args.includes('-V')) {
  process.stdout.write(
    'librespot 0.7.1 f4k3c0d (Built on 2025-10-06, Build ID: FAKEBLD1, Profile: release)\n',
  );
  process.exit(0);
}

const options = {};
for (let i = 0; i < args.length; i++) {
  const name = args[i].replace(/^--/, '');
  if (!args[i].startsWith('--'))
    fail(`Error parsing command line options: Unexpected argument: '${args[i]}'`);
  if (FLAGS.has(name)) options[name] = true;
  else if (OPTIONS.has(name)) {
    const value = args[++i];
    if (value === undefined) fail(`Error parsing command line options: Argument to option '${name}' missing`);
    if (VALUES[name] && !VALUES[name].includes(value))
      fail(`[ERROR librespot] Invalid \`--${name}\`: "${value}"; valid: ${VALUES[name].join(', ')}`);
    options[name] = value;
  } else fail(`Error parsing command line options: Unrecognized option: '${name}'`);
}

process.stderr.write(
  '[INFO  librespot] librespot 0.7.1 f4k3c0d (Built on 2025-10-06, Build ID: FAKEBLD1, Profile: release)\n',
);
const cacheDir = options['system-cache'] ?? options.cache;
const credentialsFile =
  cacheDir && !options['disable-credential-cache'] ? join(cacheDir, 'credentials.json') : undefined;
const accessToken = options['access-token'] ?? env.LIBRESPOT_ACCESS_TOKEN;
const cached =
  !accessToken && credentialsFile && existsSync(credentialsFile)
    ? readFileSync(credentialsFile, 'utf8')
    : undefined;
if (!accessToken && !cached && !options['enable-oauth'])
  fail(
    '[ERROR librespot] Discovery is unavailable and no credentials provided. Authentication is not possible.',
  );
if (options.backend !== 'pipe' || (options.device && options.device !== '/dev/null'))
  fail('this fake only plays through the pipe backend to stdout (or nowhere: --device /dev/null)');

const dir = env.FAKE_LIBRESPOT_DIR;
if (!dir) fail('FAKE_LIBRESPOT_DIR is not set');
const login = accessToken
  ? { accessToken }
  : cached
    ? { credentials: JSON.parse(cached) }
    : await oauthLogin();
if (env.FAKE_LIBRESPOT_MODE === 'crash')
  fail(
    '[ERROR librespot] Connection failed: Permission denied { Login failed with reason: Bad credentials }',
  );
const registration = join(dir, `${process.pid}.json`);
const playFile = join(dir, `${process.pid}.play.json`);
const name = options.name ?? 'Librespot';
writeFileSync(registration, JSON.stringify({ pid: process.pid, name, ...login, args }));
process.stderr.write(`[INFO  librespot_core::session] Authenticated as 'keeper' !\n`);
// Like librespot's session: reusable credentials go into the cache once logged in.
if (credentialsFile && !cached)
  keepCredentials(login.accessToken ? 'token' : `oauth:${login.credentials.oauthCode}`);
const leave = () => {
  rmSync(registration, { force: true });
  process.exit(0);
};
process.on('SIGTERM', leave);
process.on('SIGINT', leave);

const waitForPlay = setInterval(() => {
  if (!existsSync(playFile)) return;
  clearInterval(waitForPlay);
  const { uris } = JSON.parse(readFileSync(playFile, 'utf8'));
  process.stderr.write(`[INFO  librespot_playback::player] Loading <${uris[0]}>\n`);
  playSine();
}, 20);

function playSine() {
  const limit = env.FAKE_LIBRESPOT_TRACK_SECONDS
    ? Number(env.FAKE_LIBRESPOT_TRACK_SECONDS) * SAMPLE_RATE
    : Infinity;
  const framesPerChunk = 4_410;
  let frame = 0;
  const write = () => {
    while (frame < limit) {
      const count = Math.min(framesPerChunk, limit - frame);
      const chunk = Buffer.alloc(count * 4);
      for (let i = 0; i < count; i++) {
        const sample = Math.round(
          Math.sin((2 * Math.PI * FREQUENCY_HZ * (frame + i)) / SAMPLE_RATE) * 0.5 * 32767,
        );
        chunk.writeInt16LE(sample, i * 4);
        chunk.writeInt16LE(sample, i * 4 + 2);
      }
      frame += count;
      if (!process.stdout.write(chunk)) return void process.stdout.once('drain', write);
    }
    // Like librespot after a track: idle, still running.
    setInterval(() => undefined, 60_000);
  };
  process.stdout.on('error', leave);
  write();
}

/** librespot's reusable credentials as its cache keeps them (core/src/authentication.rs, serde). */
function keepCredentials(authData) {
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(
    credentialsFile,
    JSON.stringify({ username: 'keeper', auth_type: 1, auth_data: Buffer.from(authData).toString('base64') }),
  );
}

/** librespot's `--enable-oauth` login (oauth/src/lib.rs): the address to open, then the redirect. */
function oauthLogin() {
  const port = Number(options['oauth-port'] ?? 5588);
  const state = Math.random().toString(36).slice(2, 18);
  const redirect = `http://127.0.0.1:${port}/login`;
  const authorize = new URL('https://accounts.spotify.com/authorize');
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: '65b708073fc0480ea92a077233ca87bd',
    state,
    code_challenge: 'f4k3ch4ll3ng3',
    code_challenge_method: 'S256',
    redirect_uri: redirect,
    scope: 'streaming user-read-playback-state',
  }).toString();
  return new Promise((resolve) => {
    const server = createServer((request, response) => {
      const code = new URL(request.url ?? '/', 'http://localhost').searchParams.get('code');
      response.end('Go back to your terminal :)');
      server.close();
      if (!code)
        fail(
          `[ERROR librespot] Failed to get Spotify access token: Auth code param not found in URI ${request.url}`,
        );
      if (code === 'denied')
        fail(
          '[ERROR librespot] Failed to get Spotify access token: Failed to exchange code for access token (invalid_grant)',
        );
      resolve({ credentials: { username: 'keeper', oauthCode: code } });
    });
    server.listen(port, '127.0.0.1', () => {
      process.stderr.write(`[INFO  librespot_oauth] OAuth server listening on 127.0.0.1:${port}\n`);
      process.stdout.write(`Browse to: ${authorize}\n`);
    });
    server.on('error', (error) =>
      fail(
        `[ERROR librespot] Failed to get Spotify access token: Failed to bind to ${redirect} (${error.message})`,
      ),
    );
  });
}
