/**
 * What an account's name and password must be, in one place: the API's schemas enforce it and the
 * browser checks it before sending, so both say the same thing.
 */
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 32;
/** Letters (any script), digits, `_`, `.` and `-`. */
export const USERNAME_PATTERN = /^[\p{L}\p{N}_.-]+$/u;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

/** Whether `name` (surrounding spaces aside, as the API trims them) is a valid username. */
export function validUsername(name: string): boolean {
  const trimmed = name.trim();
  return trimmed.length >= USERNAME_MIN && trimmed.length <= USERNAME_MAX && USERNAME_PATTERN.test(trimmed);
}

export const validNewPassword = (password: string): boolean =>
  password.length >= PASSWORD_MIN && password.length <= PASSWORD_MAX;
