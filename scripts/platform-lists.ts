/**
 * The module list (shared/sources/platform-modules.ts) is the one list of platforms a person edits.
 * Three lists must be importable without adapter code, so they cannot be read off the modules at run
 * time: the registry's rows (the web bundle reads them), the configuration slices (reading the
 * configuration loads no adapter) and the settings slices. This writes them out of the module list,
 * in its order, as files of plain imports; `make openapi` runs it and a drift test checks the files.
 *
 * Each module names its facts and slices by value; the export holding that very value is found among
 * the exports of its folder's files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { PlatformModule } from '../shared/sources/platform-module';
import { PLATFORM_MODULES } from '../shared/sources/platform-modules';

const ROOT = join(import.meta.dirname, '..');
const SOURCES = join(ROOT, 'shared', 'sources');

interface GeneratedList {
  /** The file written, from the repository root. */
  path: string;
  /** The constant it exports. */
  name: string;
  /** What the list holds and who reads it, for the file's header. */
  about: string;
  /** The part of a module the list holds, where the module has one. */
  pick: (module: PlatformModule) => unknown;
}

const LISTS: GeneratedList[] = [
  {
    path: 'shared/domain/platform-rows.generated.ts',
    name: 'PLATFORM_ROWS',
    about: "each platform's facts, the registry's rows (shared/domain/platforms.ts)",
    pick: (module) => module.facts,
  },
  {
    path: 'shared/sources/platform-config.generated.ts',
    name: 'PLATFORM_CONFIG_SLICES',
    about: 'the configuration slices of the platforms that read environment variables (platform-config.ts)',
    pick: (module) => module.config,
  },
  {
    path: 'shared/settings/platform-settings.generated.ts',
    name: 'PLATFORM_SETTINGS_SLICES',
    about: 'the settings slices of the platforms that keep settings (settings.ts)',
    pick: (module) => module.settings,
  },
];

interface Export {
  file: string;
  name: string;
}

/**
 * Every object exported by a file in the platforms' folders, by its value, named where it is made
 * (`export const NAME`): a file that passes it on (re-exports it) may be an adapter.
 */
async function exportsByValue(): Promise<Map<unknown, Export>> {
  const found = new Map<unknown, Export>();
  for (const folder of readdirSync(SOURCES, { withFileTypes: true })) {
    if (!folder.isDirectory()) continue;
    for (const name of readdirSync(join(SOURCES, folder.name)).sort()) {
      if (!name.endsWith('.ts') || name.endsWith('.test.ts')) continue;
      const file = join(SOURCES, folder.name, name);
      const text = readFileSync(file, 'utf8');
      const exports = (await import(file)) as Record<string, unknown>;
      for (const [exported, value] of Object.entries(exports))
        if (
          value !== null &&
          typeof value === 'object' &&
          new RegExp(`export const ${exported}\\b`).test(text)
        )
          found.set(value, { file, name: exported });
    }
  }
  return found;
}

/** The files' texts, by path from the repository root. */
export async function platformListTexts(): Promise<Map<string, string>> {
  const modules = Object.values(PLATFORM_MODULES) as PlatformModule[];
  const exports = await exportsByValue();
  const texts = new Map<string, string>();
  for (const list of LISTS) {
    const items = modules.flatMap((module) => {
      const value = list.pick(module);
      if (value === undefined) return [];
      const found = exports.get(value);
      if (!found)
        throw new Error(
          `${module.facts.value}'s module names a ${list.name} entry no file of shared/sources exports`,
        );
      return [found];
    });
    const from = join(ROOT, list.path, '..');
    const imports = items.map(({ file, name }) => {
      const path = relative(from, file).replace(/\.ts$/, '');
      return `import { ${name} } from '${path.startsWith('.') ? path : `./${path}`}';`;
    });
    texts.set(
      list.path,
      [
        '/**',
        ` * Generated from the module list (shared/sources/platform-modules.ts) by \`make openapi\``,
        ` * (${relative(ROOT, import.meta.filename)}); do not edit. In the list's order:`,
        ` * ${list.about}.`,
        ' */',
        ...imports,
        '',
        `export const ${list.name} = [${items.map((item) => item.name).join(', ')}] as const;`,
        '',
      ].join('\n'),
    );
  }
  return texts;
}
