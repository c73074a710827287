/**
 * Short notices (receipts, errors) shown in one polite live region, so screen readers hear them too.
 * Errors stay until dismissed; receipts fade after a few seconds.
 */
import { reactive } from 'vue';
import type { CallResult } from '../api/client';

export interface Toast {
  id: number;
  kind: 'info' | 'error';
  text: string;
}

const RECEIPT_MS = 3500;
const MAX_SHOWN = 3;
let nextId = 1;

export const toasts = reactive<Toast[]>([]);

export function dismiss(id: number): void {
  const index = toasts.findIndex((toast) => toast.id === id);
  if (index >= 0) toasts.splice(index, 1);
}

export function notify(text: string, kind: Toast['kind'] = 'info'): void {
  const id = nextId++;
  toasts.push({ id, kind, text });
  if (toasts.length > MAX_SHOWN) toasts.shift();
  if (kind === 'info') setTimeout(() => dismiss(id), RECEIPT_MS);
}

/** Shows a call's outcome: its error in words, or the receipt `message` the API answered with. */
export function report<T>(result: CallResult<T>): result is { ok: true; value: T } {
  if (!result.ok) {
    notify(result.error, 'error');
    return false;
  }
  const message = (result.value as { message?: unknown } | undefined)?.message;
  if (typeof message === 'string' && message) notify(message);
  return true;
}
