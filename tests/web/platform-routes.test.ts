/**
 * The web UI picks what to show from a platform's registry row (its login kinds, its shelves), never
 * from its value: the API paths that name a platform live in one table (web/src/platforms/
 * platform-routes.ts), each a route the committed OpenAPI document has, and nothing else in web/src
 * compares with a platform value or spells such a path.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLATFORM_REGISTRY, PLATFORMS } from '../../shared/domain/platforms';
import { PLATFORM_ROUTES } from '../../web/src/platforms/platform-routes';

const ROOT = join(import.meta.dirname, '..', '..');
const WEB = join(ROOT, 'web', 'src');
const TABLE = 'web/src/platforms/platform-routes.ts';
const document = JSON.parse(readFileSync(join(ROOT, 'openapi', 'openapi.json'), 'utf8')) as {
  paths: Record<string, unknown>;
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|vue)$/.test(entry.name) ? [path] : [];
  });
}

/** Every string in the table that is an API path. */
const tablePaths = (value: unknown): string[] =>
  typeof value === 'string'
    ? value.startsWith('/api/')
      ? [value]
      : []
    : Object.values(value as object).flatMap(tablePaths);

const VALUES = PLATFORMS.join('|');
/** A comparison with a platform value: `platform === 'library_a'`, `'streaming_a' !== p`. */
const COMPARISON = new RegExp(`[!=]==\\s*['"\`](${VALUES})['"\`]|['"\`](${VALUES})['"\`]\\s*[!=]==`);
/** A quoted API path with a platform value as one of its segments. */
const PLATFORM_PATH = new RegExp(`['"\`]/api/[^'"\`]*/(${VALUES})(/[^'"\`]*)?['"\`]`);

describe('the web UI chooses by the facts of a platform, not by its value', () => {
  it('the table holds routes of the API, one for every shelf that is a route of its platform alone', () => {
    const paths = tablePaths(PLATFORM_ROUTES);
    expect(paths.filter((path) => !(path in document.paths))).toEqual([]);
    const sharedShelves = ['recommendedPlaylists', 'dailySongs', 'accountPlaylists'];
    const ownShelves = new Set(
      Object.values(PLATFORM_REGISTRY).flatMap((facts) =>
        facts.shelves.filter((s) => !sharedShelves.includes(s)),
      ),
    );
    expect(Object.keys(PLATFORM_ROUTES.shelves).sort()).toEqual([...ownShelves].sort());
  });

  it('no file of web/src compares with a platform value, nor spells a platform path outside the table', () => {
    const offenders = sourceFiles(WEB).flatMap((file) => {
      const name = relative(ROOT, file);
      return readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          COMPARISON.test(line) || (name !== TABLE && PLATFORM_PATH.test(line))
            ? [`${name}:${i + 1}: ${line.trim()}`]
            : [],
        );
    });
    expect(offenders).toEqual([]);
  });
});
