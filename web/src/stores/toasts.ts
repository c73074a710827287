/**
 * Short notices (receipts, errors) shown in one polite live region, so screen readers hear them too.
 * Receipts fade after a few seconds (longer when they offer an action, such as Undo); errors stay until
 * dismissed, the next page or sign-out. A notice on a topic already shown replaces that one (ten volume
 * steps leave one toast, with the last volume).
 */
import { reactive } from 'vue';
import { type CallResult, receiptText } from '../api/client';

export interface Toast {
  id: number;
  kind: 'info' | 'error';
  text: string;
  /** Notices on one topic coalesce; by default the topic is the text itself. */
  topic: string;
  /** A button beside the text (Undo); using it dismisses the notice. */
  action?: ToastAction;
}

export interface ToastAction {
  label: string;
  run: () => void;
}

const RECEIPT_MS = 3500;
/** Long enough to read the receipt, find the button and press it. */
const ACTION_MS = 10_000;
const MAX_SHOWN = 3;
let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();

export const toasts = reactive<Toast[]>([]);

export function dismiss(id: number): void {
  clearTimeout(timers.get(id));
  timers.delete(id);
  const index = toasts.findIndex((toast) => toast.id === id);
  if (index >= 0) toasts.splice(index, 1);
}

export function notify(text: string, kind: Toast['kind'] = 'info', topic = text, action?: ToastAction): void {
  for (const old of toasts.filter((toast) => toast.topic === topic)) dismiss(old.id);
  const id = nextId++;
  toasts.push({ id, kind, text, topic, ...(action && { action }) });
  if (toasts.length > MAX_SHOWN) dismiss(toasts[0]!.id);
  if (kind === 'info')
    timers.set(
      id,
      setTimeout(() => dismiss(id), action ? ACTION_MS : RECEIPT_MS),
    );
}

/** Runs a notice's action once and takes the notice away. */
export function act(toast: Toast): void {
  dismiss(toast.id);
  toast.action?.run();
}

/** Errors belong to the page they happened on: leaving it clears them. */
export function clearErrors(): void {
  for (const toast of toasts.filter((each) => each.kind === 'error')) dismiss(toast.id);
}

/** Signing out (or in as someone else) leaves nothing of the last session on screen. */
export function clearToasts(): void {
  for (const toast of [...toasts]) dismiss(toast.id);
}

/**
 * Shows a call's outcome: its error in words, or the receipt `message` the API answered with.
 * `topic` coalesces repeated outcomes of one control (each volume step replaces the last).
 */
export function report<T>(result: CallResult<T>, topic?: string): result is { ok: true; value: T } {
  if (!result.ok) {
    notify(result.error, 'error', topic);
    return false;
  }
  const message = receiptText(result.value);
  if (message) notify(message, 'info', topic);
  return true;
}
