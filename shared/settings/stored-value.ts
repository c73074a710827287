/** Settings rows hold JSON text; a row that is not valid JSON reads as absent (its default applies). */
export function parseStoredValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export const encodeStoredValue = (value: unknown): string => JSON.stringify(value ?? null);
