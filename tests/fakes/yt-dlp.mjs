#!/usr/bin/env node
/**
 * A stand-in for the `yt-dlp` executable: it reads the command line the `video_b` source uses and
 * prints answers of yt-dlp's real shape, built from tests/fixtures/youtube/ (see the README there).
 *
 * Understood: `--version`, `--verbose`/`-v` (with no URL: yt-dlp's `[debug]` lines about itself, then
 * its usage error), `--dump-single-json`/`-J`, `--flat-playlist`, `--no-playlist`,
 * `--no-warnings`, `-f`/`--format` (`bestaudio[ext=…]`, `bestaudio`, `best`, `/` alternatives),
 * `--playlist-end N`, `--cookies FILE` (read at the start and, like yt-dlp, the cookie jar written
 * back into it at the end), and of the options an admin may add with YTDLP_ARGS `--js-runtimes
 * RUNTIME`, `--remote-components COMPONENT`, `--extractor-args ARGS`, `--proxy URL` and `-t PRESET`; then `--` and one of
 * `ytsearch[N|all]:<query>`, a watch (or youtu.be) link, a playlist link, or a watch link with a
 * `list=` (a playlist, or the video's mix `RD<videoId>`). Any other option is
 * refused the way yt-dlp's option parser does (exit 2); an unknown video or playlist is yt-dlp's
 * `ERROR:` line on stderr and exit 1.
 *
 * Environment, for tests:
 * - FAKE_YTDLP_VERSION: what `--version` prints (default 2025.01.26).
 * - FAKE_YTDLP_JS_RUNTIMES: the JavaScript runtimes `--verbose` lists (default `deno-2.6.5`; empty:
 *   none, as yt-dlp says when it finds none); `--js-runtimes NAME` adds NAME.
 * - FAKE_YTDLP_EJS: the version of the yt-dlp-ejs package `--verbose` lists among the optional
 *   libraries (default 0.8.0; empty: not installed).
 * - FAKE_YTDLP_AUDIO_URL: the `url` of the format `-f` chooses (e.g. a loopback server's audio file).
 * - FAKE_YTDLP_AUDIO_URL_FROM: a loopback address whose answer is that `url`, asked at every run (so
 *   each run can print a freshly signed address, as YouTube signs each answer anew).
 * - FAKE_YTDLP_MODE: `hang` (never answers), `garbage` (prints what is not JSON), `flood` (prints
 *   without end), `crash` (a Python traceback, no ERROR line), `merged` (answers as if the format
 *   choice were a merged video+audio one, listed in `requested_formats`); and YouTube's refusals of a
 *   video, in yt-dlp's words: `bot-check` ("Sign in to confirm you’re not a bot", passed with a
 *   cookies file holding a youtube.com login cookie), `age-restricted` (passed the same way),
 *   `no-js-runtime` (the warning that no JavaScript runtime was found, then a format choice fails;
 *   passed with `--js-runtimes`), `no-ejs` (the warning that the EJS challenge solver script was
 *   skipped, then a format choice fails; passed with `--remote-components`), `geo-blocked` and
 *   `rate-limited`.
 * - FAKE_YTDLP_LOG: a file to which each run is appended as one JSON line `{pid, args}`.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';

const FIXTURES = new URL('../fixtures/youtube/', import.meta.url);
const fixture = (name) => JSON.parse(readFileSync(new URL(name, FIXTURES), 'utf8'));
const env = process.env;
const args = process.argv.slice(2);
const audioUrl = env.FAKE_YTDLP_AUDIO_URL_FROM
  ? await (await fetch(env.FAKE_YTDLP_AUDIO_URL_FROM)).text()
  : env.FAKE_YTDLP_AUDIO_URL;

if (env.FAKE_YTDLP_LOG) appendFileSync(env.FAKE_YTDLP_LOG, `${JSON.stringify({ pid: process.pid, args })}\n`);

const mode = env.FAKE_YTDLP_MODE ?? '';
const YOUTUBE_LOGIN = new Set(['SID', '__Secure-1PSID', '__Secure-3PSID', 'LOGIN_INFO']);
const loggedIn = (jar) =>
  (jar ?? []).some(([domain, , , , , name]) => domain.endsWith('youtube.com') && YOUTUBE_LOGIN.has(name));
const COOKIES_HINT =
  'Use --cookies-from-browser or --cookies for the authentication. See  https://github.com/yt-dlp/yt-dlp/wiki/FAQ#how-do-i-pass-cookies-to-yt-dlp  for how to manually pass cookies. Also see  https://github.com/yt-dlp/yt-dlp/wiki/Extractors#exporting-youtube-cookies  for tips on effectively exporting YouTube cookies';

if (mode === 'hang') setInterval(() => undefined, 60_000);
else if (mode === 'garbage')
  process.stdout.write('<html><body>Sign in to confirm you are not a bot</body></html>\n');
else if (mode === 'flood') flood();
else if (mode === 'crash') crash();
else main();

function main() {
  const command = parse(args);
  const jar = command.cookies === undefined ? undefined : readJar(command.cookies);
  if (jar) process.on('exit', () => writeJar(command.cookies, jar));
  if (command.version) return answer(`${env.FAKE_YTDLP_VERSION ?? '2025.01.26'}\n`);
  if (command.verbose) debugHeader(command);
  if (command.verbose && command.targets.length === 0)
    return usageError('You must provide at least one URL.\nType yt-dlp --help to see a list of all options.');
  if (!command.dump) return usageError('this fake only answers with --dump-single-json');
  if (command.targets.length !== 1) return usageError('give exactly one URL');
  const target = command.targets[0];
  const search = /^ytsearch(\d*|all):(.*)$/s.exec(target);
  if (search) return answerJson(searchAnswer(search[1], search[2]));
  const url = parseUrl(target);
  const list = url?.searchParams.get('list');
  const videoId = url && (url.hostname === 'youtu.be' ? url.pathname.slice(1) : url.searchParams.get('v'));
  if (list && !(videoId && command.noPlaylist)) return answerJson(playlistAnswer(list, command));
  if (videoId) {
    refuseLikeYoutube(videoId, command, jar);
    return answerJson(videoAnswer(videoId, command));
  }
  return failure(
    `ERROR: [generic] '${target}' is not a valid URL. Set --default-search "ytsearch" (or run  yt-dlp "ytsearch:${target}" ) to search YouTube`,
  );
}

function parse(argv) {
  const command = { targets: [], format: undefined, playlistEnd: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      command.targets.push(...argv.slice(i + 1));
      break;
    }
    if (arg === '--version') command.version = true;
    else if (arg === '--verbose' || arg === '-v') command.verbose = true;
    else if (arg === '--remote-components') command.remoteComponents = argv[++i];
    else if (arg === '--dump-single-json' || arg === '-J') command.dump = true;
    else if (arg === '--flat-playlist') command.flat = true;
    else if (arg === '--no-playlist') command.noPlaylist = true;
    else if (arg === '--no-warnings') command.quiet = true;
    else if (arg === '-f' || arg === '--format') command.format = argv[++i];
    else if (arg === '--playlist-end') command.playlistEnd = Number(argv[++i]);
    else if (arg === '--cookies') command.cookies = argv[++i];
    else if (arg === '--js-runtimes') command.jsRuntimes = argv[++i];
    else if (['--extractor-args', '--proxy', '-t'].includes(arg)) i++;
    else if (arg.startsWith('-')) usageError(`no such option: ${arg.split('=')[0]}`);
    else command.targets.push(arg);
  }
  return command;
}

/** The cookies of a Netscape cookies.txt, as yt-dlp loads it (a missing file is an empty jar). */
function readJar(file) {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {}
  return text
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'))
    .map((line) => line.split('\t'))
    .filter((fields) => fields.length === 7);
}

/** yt-dlp writes the whole jar back into the --cookies file when it ends. */
function writeJar(file, jar) {
  const lines = jar.map((fields) => fields.join('\t'));
  writeFileSync(
    file,
    [
      '# Netscape HTTP Cookie File',
      '# This file is generated by yt-dlp.  Do not edit.',
      '',
      ...lines,
      '',
    ].join('\n'),
  );
}

/** The `[debug]` lines yt-dlp's `--verbose` starts with (YoutubeDL.print_debug_header), those the bot reads. */
function debugHeader(command) {
  const version = env.FAKE_YTDLP_VERSION ?? '2025.01.26';
  const ejs = env.FAKE_YTDLP_EJS ?? '0.8.0';
  const libraries = ['certifi-2026.01.04', 'requests-2.32.5', ...(ejs ? [`yt_dlp_ejs-${ejs}`] : [])];
  const found = (env.FAKE_YTDLP_JS_RUNTIMES ?? 'deno-2.6.5').split(', ').filter(Boolean);
  if (command.jsRuntimes) found.push(`${command.jsRuntimes.split(':')[0]}-22.12.0`);
  const lines = [
    `Command-line config: [${args.map((a) => `'${a}'`).join(', ')}]`,
    'Encodings: locale UTF-8, fs utf-8, pref UTF-8, out utf-8, error utf-8, screen utf-8',
    `yt-dlp version stable@${version} from yt-dlp/yt-dlp [9a9a6b6fe] (pip)`,
    'exe versions: ffmpeg 7.1 (setts), ffprobe 7.1',
    `Optional libraries: ${libraries.sort().join(', ')}`,
    `JS runtimes: ${found.sort().join(', ') || 'none'}`,
    'Proxy map: {}',
    'Request Handlers: urllib, requests',
  ];
  process.stderr.write(lines.map((line) => `[debug] ${line}\n`).join(''));
}

/** The refusals of FAKE_YTDLP_MODE, in the words yt-dlp prints them (yt_dlp/extractor/youtube/_video.py). */
function refuseLikeYoutube(videoId, command, jar) {
  if (mode === 'bot-check' && !loggedIn(jar))
    failure(`ERROR: [youtube] ${videoId}: Sign in to confirm you’re not a bot. ${COOKIES_HINT}`);
  if (mode === 'age-restricted' && !loggedIn(jar))
    failure(
      `ERROR: [youtube] ${videoId}: Sign in to confirm your age. This video may be inappropriate for some users. ${COOKIES_HINT}`,
    );
  if (mode === 'geo-blocked')
    failure(
      `ERROR: [youtube] ${videoId}: The uploader has not made this video available in your country\nThis video is available in Japan.\nYou might want to use a VPN or a proxy server (with --proxy) to workaround.`,
    );
  if (mode === 'rate-limited')
    failure(
      `ERROR: [youtube] ${videoId}: This content isn't available, try again later. The current session has been rate-limited by YouTube for up to an hour. It is recommended to use \`-t sleep\` to add a delay between video requests to avoid exceeding the rate limit. For more information, refer to  https://github.com/yt-dlp/yt-dlp/wiki/Extractors#this-content-isnt-available-try-again-later`,
    );
  if (mode === 'no-ejs' && !command.remoteComponents) {
    process.stderr.write(
      'WARNING: [youtube] [jsc] Remote component challenge solver script (deno) was skipped. It may be required to solve JS challenges. You can enable the download with  --remote-components ejs:github  (recommended). For more information and alternatives, refer to  https://github.com/yt-dlp/yt-dlp/wiki/EJS\n' +
        `WARNING: [youtube] ${videoId}: n challenge solving failed: Some formats may be missing. Ensure you have a supported JavaScript runtime and challenge solver script distribution installed. Review any warnings presented before this message. For more details, refer to  https://github.com/yt-dlp/yt-dlp/wiki/EJS\n`,
    );
    if (command.format !== undefined)
      failure(
        `ERROR: [youtube] ${videoId}: Requested format is not available. Use --list-formats for a list of available formats`,
      );
  }
  if (mode === 'no-js-runtime' && !command.jsRuntimes) {
    process.stderr.write(
      'WARNING: [youtube] No supported JavaScript runtime could be found. Only deno is enabled by default; to use another runtime add  --js-runtimes RUNTIME[:PATH]  to your command/config. YouTube extraction without a JS runtime has been deprecated, and some formats may be missing. See  https://github.com/yt-dlp/yt-dlp/wiki/EJS  for details on installing one\n',
    );
    if (command.format !== undefined)
      failure(
        `ERROR: [youtube] ${videoId}: Requested format is not available. Use --list-formats for a list of available formats`,
      );
  }
}

function searchAnswer(count, query) {
  const all = fixture('search.json');
  const wanted = count === 'all' ? all.entries.length : Number(count || '1');
  const prefix = `ytsearch${count}:${query}`;
  return {
    ...all,
    id: query,
    title: query,
    entries: all.entries.slice(0, wanted),
    webpage_url: prefix,
    original_url: prefix,
    webpage_url_basename: query,
    playlist_count: Math.min(wanted, all.entries.length),
  };
}

/** A playlist link's answer (playlist.json), or a video's mix (`RD<videoId>`, mix.json) as its watch link lists it. */
function playlistAnswer(listId, command) {
  const playlist = [fixture('playlist.json'), fixture('mix.json')].find((known) => known.id === listId);
  if (!playlist) failure(`ERROR: [youtube:tab] ${listId}: YouTube said: The playlist does not exist.`);
  if (!command.flat) usageError('this fake answers playlists only with --flat-playlist');
  const end = command.playlistEnd ?? playlist.entries.length;
  return { ...playlist, entries: playlist.entries.slice(0, end) };
}

/**
 * The full answer for a known video: video.json, live.json (a live stream, whose formats are all HLS),
 * or video.json retitled after a listed entry.
 */
function videoAnswer(videoId, command) {
  const live = fixture('live.json');
  if (videoId === live.id) return { ...live, ...chooseFormat(live.formats, command.format) };
  const video = fixture('video.json');
  const listed = ['search.json', 'playlist.json', 'mix.json']
    .flatMap((name) => fixture(name).entries)
    .find((entry) => entry.id === videoId);
  if ((videoId !== video.id && !listed) || listed?.title === '[Deleted video]')
    failure(`ERROR: [youtube] ${videoId}: Video unavailable`);
  if (listed?.title === '[Private video]')
    failure(
      `ERROR: [youtube] ${videoId}: Private video. Sign in if you've been granted access to this video`,
    );
  const info = listed && videoId !== video.id ? retitled(video, listed) : video;
  return { ...info, ...chooseFormat(info.formats, mode === 'merged' ? undefined : command.format) };
}

function retitled(video, entry) {
  const watch = `https://www.youtube.com/watch?v=${entry.id}`;
  return {
    ...video,
    id: entry.id,
    display_id: entry.id,
    title: entry.title,
    fulltitle: entry.title,
    duration: entry.duration,
    channel: entry.channel,
    uploader: entry.uploader,
    channel_id: entry.channel_id,
    thumbnail: `https://i.ytimg.com/vi/${entry.id}/maxresdefault.jpg`,
    webpage_url: watch,
    original_url: watch,
  };
}

/**
 * What yt-dlp adds for the chosen format: a single format's fields merged into the top level, or for
 * the default `bv*+ba/b` the parts in `requested_formats`. Formats are listed worst first.
 */
function chooseFormat(formats, spec) {
  const audio = formats.filter((f) => f.vcodec === 'none');
  if (spec === undefined) {
    const parts = [formats.filter((f) => f.acodec === 'none').at(-1), audio.at(-1)];
    return {
      requested_formats: parts,
      format: parts.map((f) => f.format).join('+'),
      format_id: parts.map((f) => f.format_id).join('+'),
      ext: 'webm',
    };
  }
  for (const alternative of spec.split('/')) {
    const pick = /^bestaudio\[ext=(\w+)\]$/.exec(alternative);
    const chosen = pick
      ? audio.filter((f) => f.ext === pick[1]).at(-1)
      : alternative === 'bestaudio'
        ? audio.at(-1)
        : alternative === 'best'
          ? formats.filter((f) => f.vcodec !== 'none' && f.acodec !== 'none').at(-1)
          : failure(`ERROR: Invalid format specification '${spec}'`);
    if (chosen) return { ...chosen, url: audioUrl ?? chosen.url };
  }
  return failure(
    'ERROR: [youtube] Requested format is not available. Use --list-formats for a list of available formats',
  );
}

function parseUrl(text) {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

function answer(text) {
  process.stdout.write(text);
}

function answerJson(value) {
  answer(`${JSON.stringify(value)}\n`);
}

function failure(line) {
  process.stderr.write(`${line}\n`);
  process.exit(1);
}

function usageError(message) {
  process.stderr.write(`Usage: yt-dlp [OPTIONS] URL [URL...]\n\nyt-dlp: error: ${message}\n`);
  process.exit(2);
}

function flood() {
  const block = `${'x'.repeat(64 * 1024)}\n`;
  const write = () => {
    while (process.stdout.write(block));
    process.stdout.once('drain', write);
  };
  write();
}

function crash() {
  process.stderr.write(
    [
      'Traceback (most recent call last):',
      '  File "/usr/local/bin/yt-dlp", line 5, in <module>',
      '    from yt_dlp import main',
      "ModuleNotFoundError: No module named 'yt_dlp'",
      '',
    ].join('\n'),
  );
  process.exit(1);
}
