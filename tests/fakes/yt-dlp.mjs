#!/usr/bin/env node
/**
 * A stand-in for the `yt-dlp` executable: it reads the command line the `video_b` source uses and
 * prints answers of yt-dlp's real shape, built from tests/fixtures/youtube/ (see the README there).
 *
 * Understood: `--version`, `--dump-single-json`/`-J`, `--flat-playlist`, `--no-playlist`,
 * `--no-warnings`, `-f`/`--format` (`bestaudio[ext=…]`, `bestaudio`, `best`, `/` alternatives),
 * `--playlist-end N`, `--`, then one of `ytsearch[N|all]:<query>`, a watch (or youtu.be) link or a
 * playlist link. Any other option is refused the way yt-dlp's option parser does (exit 2); an unknown
 * video or playlist is yt-dlp's `ERROR:` line on stderr and exit 1.
 *
 * Environment, for tests:
 * - FAKE_YTDLP_VERSION: what `--version` prints (default 2025.01.26).
 * - FAKE_YTDLP_AUDIO_URL: the `url` of the format `-f` chooses (e.g. a loopback server's audio file).
 * - FAKE_YTDLP_MODE: `hang` (never answers), `garbage` (prints what is not JSON), `flood` (prints
 *   without end), `crash` (a Python traceback, no ERROR line), `merged` (answers as if the format
 *   choice were a merged video+audio one, listed in `requested_formats`).
 * - FAKE_YTDLP_LOG: a file to which each run is appended as one JSON line `{pid, args}`.
 */
import { appendFileSync, readFileSync } from 'node:fs';

const FIXTURES = new URL('../fixtures/youtube/', import.meta.url);
const fixture = (name) => JSON.parse(readFileSync(new URL(name, FIXTURES), 'utf8'));
const env = process.env;
const args = process.argv.slice(2);

if (env.FAKE_YTDLP_LOG) appendFileSync(env.FAKE_YTDLP_LOG, `${JSON.stringify({ pid: process.pid, args })}\n`);

const mode = env.FAKE_YTDLP_MODE ?? '';
if (mode === 'hang') setInterval(() => undefined, 60_000);
else if (mode === 'garbage')
  process.stdout.write('<html><body>Sign in to confirm you are not a bot</body></html>\n');
else if (mode === 'flood') flood();
else if (mode === 'crash') crash();
else main();

function main() {
  const command = parse(args);
  if (command.version) return answer(`${env.FAKE_YTDLP_VERSION ?? '2025.01.26'}\n`);
  if (!command.dump) return usageError('this fake only answers with --dump-single-json');
  if (command.targets.length !== 1) return usageError('give exactly one URL');
  const target = command.targets[0];
  const search = /^ytsearch(\d*|all):(.*)$/s.exec(target);
  if (search) return answerJson(searchAnswer(search[1], search[2]));
  const url = parseUrl(target);
  const list = url?.searchParams.get('list');
  const videoId = url && (url.hostname === 'youtu.be' ? url.pathname.slice(1) : url.searchParams.get('v'));
  if (list && !(videoId && command.noPlaylist)) return answerJson(playlistAnswer(list, command));
  if (videoId) return answerJson(videoAnswer(videoId, command));
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
    else if (arg === '--dump-single-json' || arg === '-J') command.dump = true;
    else if (arg === '--flat-playlist') command.flat = true;
    else if (arg === '--no-playlist') command.noPlaylist = true;
    else if (arg === '--no-warnings') command.quiet = true;
    else if (arg === '-f' || arg === '--format') command.format = argv[++i];
    else if (arg === '--playlist-end') command.playlistEnd = Number(argv[++i]);
    else if (arg.startsWith('-')) usageError(`no such option: ${arg.split('=')[0]}`);
    else command.targets.push(arg);
  }
  return command;
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

function playlistAnswer(listId, command) {
  const playlist = fixture('playlist.json');
  if (listId !== playlist.id)
    failure(`ERROR: [youtube:tab] ${listId}: YouTube said: The playlist does not exist.`);
  if (!command.flat) usageError('this fake answers playlists only with --flat-playlist');
  const end = command.playlistEnd ?? playlist.entries.length;
  return { ...playlist, entries: playlist.entries.slice(0, end) };
}

/** The full answer for a known video: video.json, or video.json retitled after a listed entry. */
function videoAnswer(videoId, command) {
  const video = fixture('video.json');
  const listed = [...fixture('search.json').entries, ...fixture('playlist.json').entries].find(
    (entry) => entry.id === videoId,
  );
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
    if (chosen) return { ...chosen, url: env.FAKE_YTDLP_AUDIO_URL ?? chosen.url };
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
