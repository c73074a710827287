/**
 * The first-run wizard runs on after the admin exists (language, first bot, platforms), but once it is
 * finished `/setup` must not open again. What tells the two apart is this browser's marker cookie, set
 * by the wizard when it creates the admin and cleared on its last step: the server (a page load of
 * `/setup`) and the UI's router (a navigation) both send a browser without it to the dashboard.
 * It is not a credential: it only keeps a half-walked wizard reachable, e.g. across a reload.
 */
export const SETUP_WIZARD_COOKIE = 'tsmb_setup_wizard';
/** How long a started wizard stays reachable in its browser. */
export const SETUP_WIZARD_SECONDS = 60 * 60;
