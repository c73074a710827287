/**
 * The one-row forms (a new user, a new API key, saving the queue) on a desktop (1280×800) and a phone
 * (390×844): an error under one field grows its row downwards and moves none of the controls beside
 * it, and a control without a label of its own (the submit button, a checkbox) sits on the row of
 * the inputs, not on their labels' line or under an error.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupAdmin } from '../helpers/accounts';
import { fieldError, screenshot, signedInPage, startUiHarness, type UiHarness } from './ui-harness';

let ui: UiHarness;
let desktop: Page;
let phone: Page;

beforeAll(async () => {
  ui = await startUiHarness();
  const admin = await setupAdmin(ui.t, 'owner');
  await admin.api.POST('/api/bot/settings', { body: { savedQueuesEnabled: true } });
  await admin.api.POST('/api/bot', {
    body: { name: 'Shelf', nickname: 'DJ Shelf', serverAddress: '127.0.0.1', serverPort: ui.server.port },
  });
  desktop = await signedInPage(ui, 'owner');
  await desktop.setViewportSize({ width: 1280, height: 800 });
  phone = await ui.phonePage(desktop);
}, 90_000);

afterAll(async () => {
  await ui?.close();
});

/** The middle of each control of the form (its inputs, select, button and checkbox), in whole pixels. */
const controlMiddles = (form: Locator) =>
  form.evaluate((element) =>
    [...element.querySelectorAll('input, select, button, .check')].map((control) => {
      const { y, height } = control.getBoundingClientRect();
      return Math.round(y + height / 2);
    }),
  );

interface ToolbarForm {
  name: string;
  path: string;
  /** Opens the form on the page (a tab), when the path alone does not. */
  open?: (page: Page) => Promise<void>;
  /** The field put in error: on a phone, one that shares its row with another control. */
  field: string;
  value: string;
  submit: string;
  error: string;
}

const FORMS: ToolbarForm[] = [
  {
    name: 'users',
    path: '/settings/users',
    // Beside the role on a phone; the user name left blank is in error too, on the row above.
    field: 'Password',
    value: 'short',
    submit: 'Add the user',
    error: 'Enter a password of 8 to 256 characters.',
  },
  {
    name: 'keys',
    path: '/settings/keys',
    field: 'Key name',
    value: '   ',
    submit: 'Create a key',
    error: 'Give the key a name of 1 to 64 characters.',
  },
  {
    name: 'saved-queues',
    path: '/music',
    open: (page) => page.getByRole('tab', { name: 'Saved queues' }).click(),
    field: 'Save the current queue as',
    value: '   ',
    submit: 'Save the queue',
    error: 'Give the queue a name of 1 to 64 characters.',
  },
];

/** On a phone the queue's name has a row of its own: its checkbox and button wrap below it. */
const PHONE_FORMS = FORMS.filter((form) => form.name !== 'saved-queues');

describe.each([
  ['desktop', () => desktop, FORMS],
  ['phone', () => phone, PHONE_FORMS],
] as const)('toolbar forms on a %s', (device, page, forms) => {
  it.each(forms)('$name: an error under a field moves no control beside it', async (form) => {
    await page().goto(`${ui.baseUrl}${form.path}`);
    await form.open?.(page());
    const field = page().getByLabel(form.field, { exact: true });
    const toolbar = page().locator('form.toolbar').filter({ has: field });
    /** How far each control on the field's row sits from the middle of the field's input. */
    const offsets = async (row: number[]) => {
      const box = (await field.boundingBox())!;
      const middles = await controlMiddles(toolbar);
      return row.map((i) => Math.abs(middles[i]! - Math.round(box.y + box.height / 2)));
    };
    // The field's row: the controls less than an input's height from its middle (on a phone the
    // others wrap to rows of their own).
    const all = (await controlMiddles(toolbar)).map((_, i) => i);
    const row = (await offsets(all)).flatMap((offset, i) => (offset < 30 ? [i] : []));
    expect(row.length).toBeGreaterThan(1);
    for (const offset of await offsets(row)) expect(offset).toBeLessThanOrEqual(1);

    await field.fill(form.value);
    await toolbar.getByRole('button', { name: form.submit }).click();
    await expect.poll(() => fieldError(field)).toBe(form.error);
    for (const offset of await offsets(row)) expect(offset).toBeLessThanOrEqual(1);
    await screenshot(page(), `toolbar-forms-${device}-${form.name}`);
  });
});
