/**
 * Configuration is parsed once, at the entries, and handed down (README, Configuration): below the
 * entries nothing reads the environment or parses its own configuration, so a module behaves the same
 * on the main thread, on the daemon's thread and in a test that builds it with its own values.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
/** The service's code below its entries. */
const LAYERS = ['api', 'daemon', 'shared', 'openapi', 'web/src'];
/** The entries, which read the environment and hand the configuration down. */
const ENTRIES = new Set(['api/main.ts', 'daemon/main.ts']);
/**
 * Not configuration: what a spawned child inherits. librespot gets this process's environment plus
 * its token, as any child does by default (its PATH, HOME, locale are the child's own business); the
 * process launcher hands each child the environment a direct start would have given it.
 */
const PASSED_ON = new Map([
  // The environment passed on to librespot, less a token inherited from this process's own.
  ['shared/sources/spotify/librespot.ts', '{ LIBRESPOT_ACCESS_TOKEN: _inherited, ...env } = process.env'],
  ['shared/exec/process-launcher.ts', 'const inheritedEnvironment = () => process.env;'],
]);
const READS = /process\.env|loadConfig\(/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(path);
    return /\.(ts|mts|mjs|vue)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [path] : [];
  });
}

describe('configuration is read at the entries only', () => {
  it('no module below the entries reads process.env or calls loadConfig()', () => {
    const offenders: string[] = [];
    for (const layer of LAYERS)
      for (const file of sourceFiles(join(ROOT, layer))) {
        const name = relative(ROOT, file);
        if (ENTRIES.has(name)) continue;
        const text = readFileSync(file, 'utf8');
        const allowed = PASSED_ON.get(name);
        for (const line of text.split('\n'))
          if (
            READS.test(line) &&
            !(allowed && line.includes(allowed)) &&
            !line.includes('export function loadConfig(')
          )
            offenders.push(`${name}: ${line.trim()}`);
      }
    expect(offenders).toEqual([]);
  });

  it('finds a read where there is one (the check itself works)', () => {
    expect('const level = process.env.LOG_LEVEL;').toMatch(READS);
    expect('const config = loadConfig(process.env);').toMatch(READS);
  });
});
