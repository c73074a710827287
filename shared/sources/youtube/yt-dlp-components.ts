/**
 * The two parts today's yt-dlp needs, beside itself, to read most YouTube videos (yt-dlp issue
 * #15012, its wiki page "EJS"): a JavaScript runtime (deno by default; node, bun or QuickJS when named
 * with `--js-runtimes`) and the EJS component, the challenge solver scripts that runtime executes. The
 * scripts come from the `yt-dlp-ejs` Python package (the official builds carry it), or are downloaded
 * by yt-dlp when allowed with `--remote-components ejs:github` (or `ejs:npm`). Without either, yt-dlp
 * warns, goes on, and fails when the formats it needs are missing.
 *
 * Read from what `yt-dlp --verbose` prints about itself before it looks at any video, from
 * yt-dlp/yt-dlp (commit 81ecd58, 2026-08-20) `YoutubeDL.print_debug_header`: `[debug] Optional
 * libraries: …, yt_dlp_ejs-0.8.0, …` and `[debug] JS runtimes: deno-2.6.5` (`none` when it finds none,
 * `none (disabled)` when turned off, `(unsupported)` after a version too old); the command line and
 * the config files it read are printed there too (`[debug] Command-line config: ['--remote-components',
 * 'ejs:github', …]`).
 */

export interface YtDlpComponents {
  /** The usable JavaScript runtime yt-dlp found (`deno-2.6.5`), or undefined when it found none. */
  jsRuntime: string | undefined;
  /** Where the EJS scripts come from (`yt_dlp_ejs-0.8.0`, `ejs:github`), or undefined when from nowhere. */
  ejs: string | undefined;
}

const RUNTIMES = /^\[debug\] JS runtimes: (.*)$/m;
const EJS_PACKAGE = /^\[debug\] Optional libraries: .*\b(yt_dlp_ejs-[\w.]+)/m;
/** `--remote-components ejs:github` as a list item of the printed config, or as typed in one. */
const EJS_DOWNLOAD = /--remote-components(?:=|',\s*'|\s+)["']?(ejs:(?:github|npm))/;
/** A runtime yt-dlp lists but will not use: one it could not ask for its version, or too old. */
const UNUSABLE = /\((?:unsupported|unknown)\)$/;

/**
 * The components `--verbose` reports, or undefined when it does not report them: a yt-dlp from before
 * November 2025, which does not use them (and which YouTube no longer works with: update it).
 */
export function readComponents(debugLines: string): YtDlpComponents | undefined {
  const runtimes = RUNTIMES.exec(debugLines)?.[1];
  if (runtimes === undefined) return undefined;
  const usable = runtimes
    .split(', ')
    .map((entry) => entry.trim())
    .filter((entry) => entry && !entry.startsWith('none') && !UNUSABLE.test(entry));
  return {
    jsRuntime: usable[0],
    ejs: EJS_PACKAGE.exec(debugLines)?.[1] ?? EJS_DOWNLOAD.exec(debugLines)?.[1],
  };
}
