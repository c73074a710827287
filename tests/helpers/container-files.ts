/**
 * Reads the container files as a container engine would, for a test on a machine without one: the
 * Dockerfile's stages and instructions, the .dockerignore rules a COPY is filtered by, and a compose
 * file's services. Only the syntax the repository's own files use is understood; anything else throws,
 * so a new construct is noticed instead of silently passing.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';

export interface Instruction {
  keyword: string;
  /** Everything after the keyword, continuation lines joined. */
  args: string;
}

export interface Stage {
  /** The `AS` name, if any. */
  name: string | undefined;
  /** The image or earlier stage it starts from. */
  from: string;
  instructions: Instruction[];
}

/** The Dockerfile's stages in order; comments and line continuations handled as Docker does. */
export function parseDockerfile(path: string): Stage[] {
  const stages: Stage[] = [];
  let pending = '';
  for (const raw of readFileSync(path, 'utf8').split('\n')) {
    const line = raw.trim();
    // Docker drops comment lines, also between the lines of one continued instruction.
    if (line.startsWith('#') || (line === '' && pending === '')) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    const text = `${pending}${line}`.trim();
    pending = '';
    if (text === '') continue;
    const [, keyword = '', args = ''] = /^(\w+)\s*(.*)$/s.exec(text) ?? [];
    const instruction = { keyword: keyword.toUpperCase(), args };
    if (instruction.keyword === 'FROM') {
      const [, from = '', name] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args) ?? [];
      stages.push({ name, from, instructions: [] });
    } else {
      const stage = stages.at(-1);
      if (!stage) throw new Error(`${path}: ${keyword} before the first FROM`);
      stage.instructions.push(instruction);
    }
  }
  return stages;
}

/** The stage a stage starts from, when that is an earlier stage rather than an image. */
export function parentStage(stages: Stage[], stage: Stage): Stage | undefined {
  return stages.find((s) => s.name !== undefined && s.name === stage.from);
}

/** A stage's instructions with those of the stages it starts from first, as the engine runs them. */
export function inheritedInstructions(stages: Stage[], stage: Stage): Instruction[] {
  const parent = parentStage(stages, stage);
  return [...(parent ? inheritedInstructions(stages, parent) : []), ...stage.instructions];
}

/** The `ENV` values a stage sets (with its parents'), `KEY=value` pairs only. */
export function stageEnv(stages: Stage[], stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { keyword, args } of inheritedInstructions(stages, stage)) {
    if (keyword !== 'ENV') continue;
    for (const pair of args.split(/\s+/)) {
      const [key, ...value] = pair.split('=');
      if (!key || value.length === 0) throw new Error(`ENV ${args}: only KEY=value pairs are understood`);
      env[key] = value.join('=');
    }
  }
  return env;
}

/** The last value of a single-argument instruction (WORKDIR, USER, STOPSIGNAL) in a stage or its parents. */
export function lastValue(stages: Stage[], stage: Stage, keyword: string): string | undefined {
  return inheritedInstructions(stages, stage)
    .filter((i) => i.keyword === keyword)
    .at(-1)?.args;
}

/** The JSON-array (exec) form of CMD, ENTRYPOINT, VOLUME or a HEALTHCHECK's CMD. */
export function execForm(args: string): string[] {
  const value = JSON.parse(args) as unknown;
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string'))
    throw new Error(`not an exec-form array: ${args}`);
  return value;
}

/** A HEALTHCHECK's command (exec form) after its options. */
export function healthCheckCommand(args: string): string[] {
  const [, command = ''] = /^(?:--\S+\s+)*CMD\s+(.*)$/s.exec(args) ?? [];
  return execForm(command);
}

export interface Copy {
  /** `--from=<stage>`, if it copies from another stage. */
  from: string | undefined;
  sources: string[];
  destination: string;
}

/** A COPY's options and paths (space-separated form). */
export function parseCopy(args: string): Copy {
  const words = args.split(/\s+/);
  const options = words.filter((w) => w.startsWith('--'));
  const paths = words.filter((w) => !w.startsWith('--'));
  const destination = paths.pop();
  if (!destination || paths.length === 0) throw new Error(`COPY ${args}: no source or destination`);
  const from = options.find((o) => o.startsWith('--from='))?.slice('--from='.length);
  return { from, sources: paths, destination };
}

/**
 * Whether .dockerignore's rules leave a path (relative to the build context) out of the context:
 * patterns are from the context's root, `*` and `?` stay within a path segment, `**` spans any, a
 * leading `!` takes a path back in, the last matching rule wins, and a folder's rule covers its contents.
 */
export function dockerIgnores(rules: string, path: string): boolean {
  let ignored = false;
  for (const raw of rules.split('\n')) {
    const rule = raw.trim();
    if (rule === '' || rule.startsWith('#')) continue;
    const negated = rule.startsWith('!');
    const pattern = (negated ? rule.slice(1) : rule).replace(/^\/+|\/+$/g, '');
    const regex = new RegExp(`^${patternSource(pattern)}(/.*)?$`);
    if (regex.test(path.replace(/^\.\/|\/+$/g, ''))) ignored = !negated;
  }
  return ignored;
}

function patternSource(pattern: string): string {
  return pattern
    .split('/')
    .map((segment) =>
      segment === '**'
        ? '.*'
        : segment
            .replace(/[.+^${}()|[\]\\]/g, '\\$&')
            .replace(/\*/g, '[^/]*')
            .replace(/\?/g, '[^/]'),
    )
    .join('/')
    .replace(/\.\*\//g, '(?:.*/)?');
}

export interface ComposeService {
  image?: string;
  build?: string | { context: string; dockerfile?: string };
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: string[] | Record<string, { condition: string }>;
  healthcheck?: { disable?: boolean };
  init?: boolean;
  stop_grace_period?: string;
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

/** A compose file with its YAML merge keys (`<<: *anchor`) applied, as compose applies them. */
export function readCompose(path: string): ComposeFile {
  return parseYaml(readFileSync(path, 'utf8'), { merge: true }) as ComposeFile;
}

/** A short-syntax volume entry (`source:target[:mode]`): a named volume, or a bind mount of a path. */
export function parseVolume(entry: string): { kind: 'named' | 'bind'; source: string; target: string } {
  const [source = '', target = ''] = entry.split(':');
  if (!target) throw new Error(`volume ${entry}: only source:target[:mode] is understood`);
  return { kind: /^[./~]/.test(source) ? 'bind' : 'named', source, target };
}
