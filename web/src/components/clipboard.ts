/** Copies text for the user and says whether it worked; `failed` says what to do instead. */
import { t } from '../i18n';
import { notify } from '../stores/toasts';

export async function copyText(text: string, failed: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    notify(t('common.copied'));
  } catch {
    notify(failed, 'error');
  }
}
