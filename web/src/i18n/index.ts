/**
 * The locale catalog: every text the UI shows goes through `t(key, params)`. English is the reference
 * catalog; the Chinese one must have every key (a missing key is a type error).
 */
import { AUTOPLAY_LABEL, GUEST_LABEL } from '@shared/domain/constants';
import { type PhraseData, renderPhrase } from '@shared/i18n/phrases';
import { ref } from 'vue';
import { en, type MessageKey } from './en';
import { zh } from './zh';

export type { MessageKey };
export const LOCALES = { en: 'English', zh: '中文' } as const;
export type Locale = keyof typeof LOCALES;

const catalogs: Record<Locale, Record<MessageKey, string>> = { en, zh };
const STORAGE_KEY = 'tsmb.locale';

function initialLocale(): Locale {
  const stored = localStorage.getItem(STORAGE_KEY);
  if (stored === 'en' || stored === 'zh') return stored;
  return navigator.language.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

export const locale = ref<Locale>(initialLocale());

export function setLocale(next: Locale): void {
  locale.value = next;
  localStorage.setItem(STORAGE_KEY, next);
  document.documentElement.lang = next === 'zh' ? 'zh-CN' : 'en';
}
setLocale(locale.value);

/**
 * The text of `key` in the current locale, with `{name}` placeholders filled from `params`. A text
 * written `one|other` is a plural: the first form when `params.count` is 1, the second otherwise.
 */
export function t(key: MessageKey, params: Record<string, string | number> = {}): string {
  const forms = catalogs[locale.value][key].split('|');
  const text = (params.count === 1 ? forms[0] : forms.at(-1)) ?? '';
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/**
 * A sentence the server sent as a phrase (`code`, `params`), worded from the shared catalog
 * (shared/i18n/phrases.ts) in the current locale; a code this page does not know keeps `fallback`,
 * the text the server worded.
 */
export const tPhrase = (phrase: PhraseData, fallback: string): string =>
  renderPhrase(phrase, locale.value, fallback) || fallback;

const percentFormats: Record<Locale, Intl.NumberFormat> = {
  en: new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 0 }),
  zh: new Intl.NumberFormat('zh-CN', { style: 'percent', maximumFractionDigits: 0 }),
};

/**
 * A share from 0 to 1 as the current locale writes a whole percentage ("42%"): every percentage the UI
 * shows (volumes, upload progress) goes through here, so no two places write it apart.
 */
export const formatPercent = (share: number): string => percentFormats[locale.value].format(share);

/** Who asked for a song: a username as it is, the guest label in the current language. */
/** Who asked for a song, worded: the guest and autoplay labels in the reader's language. */
export const requesterName = (name: string): string =>
  name === GUEST_LABEL ? t('player.guest') : name === AUTOPLAY_LABEL ? t('player.autoplay.requester') : name;
