/**
 * TS3 command text (paper §1.8.3): `name key=value key=value|key=value …` with backslash escaping.
 * Parsing is lenient where real peers are (raw `/` in values, unknown escapes, spaces around `|`).
 */
import { err, ok, type Result } from '../../shared/result';

const ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  '/': '\\/',
  ' ': '\\s',
  '|': '\\p',
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
};
const UNESCAPES: Record<string, string> = Object.fromEntries(
  Object.entries(ESCAPES).map(([raw, escaped]) => [escaped[1]!, raw]),
);
export function escapeValue(text: string): string {
  let out = '';
  for (const c of text) out += ESCAPES[c] ?? c;
  return out;
}

/** An unknown escape stands for the character itself (tsclientlib). */
export function unescapeValue(text: string): string {
  return text.replace(/\\(.?)/gs, (_, c: string) => UNESCAPES[c] ?? c);
}

export type ParamValue = string | number | boolean | undefined;
export type Params = Record<string, ParamValue>;

function renderItem(params: Params): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    const text = typeof value === 'boolean' ? (value ? '1' : '0') : String(value);
    parts.push(text === '' ? key : `${key}=${escapeValue(text)}`);
  }
  return parts.join(' ');
}

/** `name k=v …`, or a list `name k=v|k=v` when given several items. Undefined values are left out. */
export function buildCommand(name: string, ...items: Params[]): string {
  const body = items.map(renderItem).filter((s) => s !== '');
  return body.length === 0 ? name : `${name} ${body.join('|')}`;
}

export interface ParsedCommand {
  /** Empty for a nameless body (some responses are just a list of items). */
  name: string;
  items: Record<string, string>[];
}

const WHITESPACE = /[ \t\n\v\f\r]+/;

/**
 * Parses a command or notification. Keys set in the first list item apply to later items that lack them
 * (TS3AudioBot's parser does this; servers send shared fields only once).
 */
export function parseCommand(text: string): Result<ParsedCommand> {
  const trimmed = text.trim();
  if (trimmed === '') return err('empty command');
  const firstSpace = trimmed.search(WHITESPACE);
  const head = firstSpace < 0 ? trimmed : trimmed.slice(0, firstSpace);
  const named = !head.includes('=') && !head.includes('|');
  const name = named ? head : '';
  const body = named ? (firstSpace < 0 ? '' : trimmed.slice(firstSpace)) : trimmed;
  const items = body.split('|').map((chunk) => {
    const item: Record<string, string> = {};
    for (const token of chunk.split(WHITESPACE)) {
      if (token === '') continue;
      const eq = token.indexOf('=');
      if (eq === 0) continue;
      item[eq < 0 ? token : token.slice(0, eq)] = eq < 0 ? '' : unescapeValue(token.slice(eq + 1));
    }
    return item;
  });
  const first = items[0]!;
  for (const item of items.slice(1)) {
    for (const [key, value] of Object.entries(first)) if (!(key in item)) item[key] = value;
  }
  return ok({ name, items });
}
