/**
 * Audio quality names (DECISIONS.md): standard 128k, higher 192k, exhigh 320k (the default), then
 * lossless, hires, master; `direct` (the original file, unconverted) is a media server's own default.
 * Apart from constants.ts so a platform's facts can name its qualities without importing the platform
 * lists that are built from those facts.
 */
export const QUALITIES = ['standard', 'higher', 'exhigh', 'lossless', 'hires', 'master', 'direct'] as const;
export type Quality = (typeof QUALITIES)[number];
