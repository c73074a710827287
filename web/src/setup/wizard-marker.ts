/** This browser's "setup wizard in progress" marker (see shared/setup-wizard.ts). */
import { SETUP_WIZARD_COOKIE, SETUP_WIZARD_SECONDS } from '@shared/setup-wizard';
import { basePath } from '../base';

const write = (value: string, maxAge: number) => {
  // biome-ignore lint/suspicious/noDocumentCookie: a plain cookie the server reads on a page load too; the async Cookie Store API is not in every browser this UI supports.
  document.cookie = `${SETUP_WIZARD_COOKIE}=${value}; Path=${basePath || '/'}; Max-Age=${maxAge}; SameSite=Lax`;
};

export const markWizardStarted = () => write('1', SETUP_WIZARD_SECONDS);
export const markWizardFinished = () => write('', 0);
export const wizardInProgress = () =>
  document.cookie.split(/;\s*/).some((pair) => pair === `${SETUP_WIZARD_COOKIE}=1`);
