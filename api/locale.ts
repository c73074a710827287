/**
 * The language an answer's sentences are worded in: the best of the caller's `Accept-Language` that
 * the catalog speaks (shared/i18n/phrases.ts), else the configured LOCALE. Read when a sentence is
 * rendered, not on every request: most answers have none.
 */
import { isLocale, type Locale } from '../shared/i18n/phrases';
import { locale as configuredLocale } from '../shared/receipts';

/** `zh-CN;q=0.8, en;q=0.5` → the catalog locale with the highest weight; ties keep the header's order. */
export function preferredLocale(header: string | undefined, fallback: Locale): Locale {
  if (!header) return fallback;
  let best: { locale: Locale; q: number } | undefined;
  for (const range of header.slice(0, 512).split(',')) {
    const [tag = '', ...options] = range.trim().split(';');
    const weight = options.map((o) => o.trim()).find((o) => o.startsWith('q='));
    const q = weight === undefined ? 1 : Number(weight.slice(2));
    if (!(q > 0)) continue;
    const primary = tag.trim().toLowerCase().split('-')[0] ?? '';
    const locale = primary === '*' ? fallback : primary;
    if (isLocale(locale) && (!best || q > best.q)) best = { locale, q };
  }
  return best?.locale ?? fallback;
}

export const requestLocale = (c: { req: { header(name: string): string | undefined } }): Locale =>
  preferredLocale(c.req.header('accept-language'), configuredLocale);
