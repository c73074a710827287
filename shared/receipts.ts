/**
 * Receipt texts in the configured LOCALE, for what speaks to one audience only: chat replies, the
 * bot's away message and channel description. Each is a phrase of shared/i18n/phrases.ts rendered at
 * once; what the API answers keeps the phrase itself, so it can be worded in the caller's language.
 */
import { type Locale, type PhraseCode, renderPhrase, say } from './i18n/phrases';

export { formatTime, LOCALES, type Locale } from './i18n/phrases';

type Said = typeof say;
export type Receipts = { [K in PhraseCode]: (...args: Parameters<Said[K]>) => string };

/**
 * The configured locale (English until an entry chooses): a live binding, set once by each entry (and
 * on the daemon's thread, from the configuration handed to it) through `useLocale`.
 */
export let locale: Locale = 'en';

export function useLocale(next: Locale): void {
  locale = next;
}

export const receipts = Object.fromEntries(
  Object.entries(say).map(([code, build]) => [
    code,
    (...args: never[]) =>
      renderPhrase((build as (...a: never[]) => ReturnType<typeof build>)(...args), locale),
  ]),
) as Receipts;
