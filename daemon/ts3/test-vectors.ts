/** Loads the known-answer vectors (a project copy of ../shared/ts3/vectors.json) for the unit tests. */
import { readFileSync } from 'node:fs';

type Vector = Record<string, unknown> & { id: string; source: string };

const file = JSON.parse(readFileSync(new URL('./test-vectors.json', import.meta.url), 'utf8')) as {
  groups: Record<string, Vector[]>;
};

export function vectorGroup(name: string): Vector[] {
  const group = file.groups[name];
  if (!group) throw new Error(`no vector group ${name}`);
  return group;
}

export function vector(group: string, id: string): Vector {
  const v = vectorGroup(group).find((x) => x.id === id);
  if (!v) throw new Error(`no vector ${group}/${id}`);
  return v;
}

/** A string field of a vector (hex, base64 or text, as the field name says). */
export function field(v: Record<string, unknown>, name: string): string {
  const value = v[name];
  if (typeof value !== 'string') throw new Error(`vector ${String(v.id)} has no string field ${name}`);
  return value;
}

export const hex = (s: string): Buffer => Buffer.from(s, 'hex');
export const b64 = (s: string): Buffer => Buffer.from(s, 'base64');
