/**
 * The app's own confirmation (instead of `window.confirm`): a caller awaits `confirmAction(...)`, the one
 * ConfirmDialog in the app shell shows it as a modal dialog and answers true or false.
 */
import { shallowRef } from 'vue';
import { t } from '../i18n';

export interface ConfirmRequest {
  title: string;
  message: string;
  confirmLabel: string;
  /** A destructive action: the confirm button says so in colour as well as in words. */
  danger?: boolean;
  answer(confirmed: boolean): void;
}

export const pendingConfirm = shallowRef<ConfirmRequest | null>(null);

export function confirmAction(request: Omit<ConfirmRequest, 'answer'>): Promise<boolean> {
  pendingConfirm.value?.answer(false);
  return new Promise((resolve) => {
    pendingConfirm.value = {
      ...request,
      answer(confirmed) {
        pendingConfirm.value = null;
        resolve(confirmed);
      },
    };
  });
}

/** The question before deleting something by name. */
export const confirmDelete = (name: string) =>
  confirmAction({
    title: t('common.confirmDelete', { name }),
    message: t('common.cannotUndo'),
    confirmLabel: t('common.delete'),
    danger: true,
  });
