/**
 * Listening along in this browser, shared by the toggle (which owns the stream's audio element) and the
 * level slider, which sits under the bot's volume in the bar (in the queue drawer on a phone): the two
 * live in different places, so what they share lives here. The level is kept in this browser.
 */
import { ref, watch } from 'vue';

const VOLUME_KEY = 'tsmb.listenVolume';
const DEFAULT_VOLUME = 80;
const storedVolume = (): number => {
  const raw = localStorage.getItem(VOLUME_KEY);
  const value = raw === null ? Number.NaN : Number(raw);
  return value >= 0 && value <= 100 ? value : DEFAULT_VOLUME;
};

/** Whether this page is playing the bot's stream. */
export const listening = ref(false);
/** The level of that stream in this browser, 0–100: your own ears, not the bot's volume. */
export const listenVolume = ref(storedVolume());

watch(listenVolume, (value) => localStorage.setItem(VOLUME_KEY, String(value)));
