/** Whether the full-screen lyrics are open: the bar's button and the `l` key both toggle it. */
import { ref } from 'vue';

export const lyricsOpen = ref(false);

/** Smooth scrolling, unless the user asked the system for less motion. */
export const scrollBehavior = (): ScrollBehavior =>
  matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth';
