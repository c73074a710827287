/**
 * The `/` shortcut's request to focus the music search: set from anywhere, taken by the search panel
 * once it is on screen (after the music page opened and showed its Search tab).
 */
import { ref } from 'vue';

export const searchFocusWanted = ref(false);
