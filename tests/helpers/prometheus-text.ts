/**
 * A strict reader of the Prometheus text format (0.0.4), so a test checks what a Prometheus server
 * would accept, not what it hopes to find: every sample belongs to a family declared once by `# TYPE`
 * before it, names and label names are valid, label values are quoted with only `\\`, `\"` and `\n`
 * escaped, no series repeats, values are numbers (or ±Inf, NaN), and a histogram's buckets grow with
 * `le` up to `+Inf`, which equals its `_count`. Anything else throws, naming the line.
 */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help: string | undefined;
  samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set<Family['type']>(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
/** The sample names a family of each type may have beyond its own name. */
const SUFFIXES: Record<Family['type'], readonly string[]> = {
  counter: [''],
  gauge: [''],
  untyped: [''],
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
};

function parseValue(text: string, line: number): number {
  if (text === '+Inf') return Number.POSITIVE_INFINITY;
  if (text === '-Inf') return Number.NEGATIVE_INFINITY;
  if (text === 'NaN') return Number.NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text))
    throw new Error(`line ${line}: bad value ${text}`);
  return Number(text);
}

/** Reads `{a="x",b="y"}` from `text` at `start` (the `{`); answers the labels and where they end. */
function parseLabels(text: string, start: number, line: number): [Record<string, string>, number] {
  const labels: Record<string, string> = {};
  let i = start + 1;
  while (text[i] !== '}') {
    const eq = text.indexOf('=', i);
    const name = text.slice(i, eq);
    if (eq < 0 || !LABEL_NAME.test(name)) throw new Error(`line ${line}: bad label name at ${text.slice(i)}`);
    if (name in labels) throw new Error(`line ${line}: label ${name} twice`);
    if (text[eq + 1] !== '"') throw new Error(`line ${line}: label ${name} is not quoted`);
    let value = '';
    let j = eq + 2;
    for (; j < text.length && text[j] !== '"'; j++) {
      if (text[j] !== '\\') {
        value += text[j];
        continue;
      }
      const escaped = text[++j];
      if (escaped === 'n') value += '\n';
      else if (escaped === '\\' || escaped === '"') value += escaped;
      else throw new Error(`line ${line}: bad escape \\${escaped}`);
    }
    if (j >= text.length) throw new Error(`line ${line}: unterminated label value`);
    labels[name] = value;
    i = j + 1;
    if (text[i] === ',') i++;
    else if (text[i] !== '}') throw new Error(`line ${line}: expected , or } after label ${name}`);
  }
  return [labels, i + 1];
}

function checkHistogram(family: Family): void {
  const series = new Map<string, Sample[]>();
  for (const sample of family.samples.filter((s) => s.name.endsWith('_bucket'))) {
    const { le, ...rest } = sample.labels;
    if (le === undefined) throw new Error(`${family.name}: a bucket without le`);
    const key = JSON.stringify(rest);
    series.set(key, [...(series.get(key) ?? []), sample]);
  }
  for (const [key, buckets] of series) {
    const bounds = buckets.map((b) => parseValue(b.labels.le!, 0));
    const counts = buckets.map((b) => b.value);
    if (bounds.at(-1) !== Number.POSITIVE_INFINITY) throw new Error(`${family.name}${key}: no +Inf bucket`);
    for (let i = 1; i < bounds.length; i++)
      if (!(bounds[i]! > bounds[i - 1]!) || counts[i]! < counts[i - 1]!)
        throw new Error(`${family.name}${key}: buckets out of order`);
    const count = family.samples.find(
      (s) => s.name === `${family.name}_count` && JSON.stringify(s.labels) === key,
    );
    if (count?.value !== counts.at(-1)) throw new Error(`${family.name}${key}: +Inf bucket is not _count`);
  }
}

export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const seen = new Set<string>();
  const helps = new Map<string, string>();
  text.split('\n').forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    const meta = raw.match(/^# (HELP|TYPE) (\S+) ?(.*)$/);
    if (meta) {
      const [, kind, name, rest] = meta as unknown as [string, string, string, string];
      if (!NAME.test(name)) throw new Error(`line ${line}: bad metric name ${name}`);
      if (kind === 'HELP') {
        if (helps.has(name)) throw new Error(`line ${line}: second HELP for ${name}`);
        helps.set(name, rest);
        return;
      }
      if (families.has(name)) throw new Error(`line ${line}: second TYPE for ${name}`);
      if (!TYPES.has(rest as Family['type'])) throw new Error(`line ${line}: unknown type ${rest}`);
      families.set(name, { name, type: rest as Family['type'], help: undefined, samples: [] });
      return;
    }
    if (raw.startsWith('#')) return;
    const nameEnd = raw.search(/[{ ]/);
    const name = raw.slice(0, nameEnd);
    if (nameEnd < 0 || !NAME.test(name)) throw new Error(`line ${line}: bad sample ${raw}`);
    const [labels, end] = raw[nameEnd] === '{' ? parseLabels(raw, nameEnd, line) : [{}, nameEnd];
    const [value, timestamp, extra] = raw.slice(end).trim().split(/\s+/);
    if (value === undefined || extra !== undefined || (timestamp !== undefined && !/^-?\d+$/.test(timestamp)))
      throw new Error(`line ${line}: bad sample ${raw}`);
    const family = [...families.values()].find((f) =>
      SUFFIXES[f.type].some((suffix) => `${f.name}${suffix}` === name),
    );
    if (!family) throw new Error(`line ${line}: ${name} has no TYPE before it`);
    const series = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    if (seen.has(series)) throw new Error(`line ${line}: series ${series} twice`);
    seen.add(series);
    family.samples.push({ name, labels, value: parseValue(value, line) });
  });
  for (const family of families.values()) {
    family.help = helps.get(family.name);
    if (family.type === 'histogram') checkHistogram(family);
  }
  return families;
}

/** The sum of the samples named `name` whose labels include `labels` (0 when none has them). */
export function sampleValue(
  families: Map<string, Family>,
  name: string,
  labels: Record<string, string> = {},
): number {
  const samples = [...families.values()]
    .flatMap((f) => f.samples)
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return samples.reduce((sum, s) => sum + s.value, 0);
}
