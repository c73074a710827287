import { describe, expect, it } from 'vitest';
import { buildCommand, escapeValue, parseCommand, unescapeValue } from './command';
import { field, vectorGroup } from './test-vectors';

describe('command escaping (vectors group command_escape)', () => {
  for (const v of vectorGroup('command_escape')) {
    it(v.id, () => {
      if (typeof v.input_text === 'string') {
        const parsed = parseCommand(field(v, 'input_text'));
        if (!parsed.ok) throw new Error(parsed.error);
        expect(buildCommand(parsed.value.name, ...parsed.value.items)).toBe(field(v, 'reserialised_text'));
        return;
      }
      expect(unescapeValue(field(v, 'escaped_text'))).toBe(field(v, 'raw_text'));
      if (!v.id.startsWith('unescape_'))
        expect(escapeValue(field(v, 'raw_text'))).toBe(field(v, 'escaped_text'));
    });
  }
});

describe('command parsing (vectors group command_parse)', () => {
  for (const v of vectorGroup('command_parse')) {
    it(v.id, () => {
      const parsed = parseCommand(field(v, 'input_text'));
      if (!parsed.ok) throw new Error(parsed.error);
      if (typeof v.name === 'string') expect(parsed.value.name).toBe(v.name);
      if (Array.isArray(v.items)) expect(parsed.value.items).toEqual(v.items);
      if (Array.isArray(v.items_as_sent)) {
        const sent = v.items_as_sent as Record<string, string>[];
        expect(parsed.value.items).toHaveLength(sent.length);
        for (const [i, item] of sent.entries()) expect(parsed.value.items[i]).toMatchObject(item);
      }
      if (typeof v.reserialised_text === 'string') {
        expect(buildCommand(parsed.value.name, ...parsed.value.items)).toBe(v.reserialised_text);
      }
    });
  }

  it('builds lists and skips undefined values', () => {
    expect(buildCommand('x', { a: 1, b: undefined, c: true }, { a: 'p q' })).toBe('x a=1 c=1|a=p\\sq');
    expect(parseCommand('   ').ok).toBe(false);
  });
});
