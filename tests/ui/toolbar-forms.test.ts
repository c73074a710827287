/**
 * The one-row forms (a new user, a new API key, saving the queue) on a desktop (1280×800) and a phone
 * (390×844): an error under one field grows its row downwards and moves none of the controls beside
 * it, and a control without a label of its own (the submit button, a checkbox) sits on the row of
 * the inputs, not on their labels' line or under an error.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_VERSIONS } from '../../shared/domain/client-versions';
import { login, setupAdmin } from '../../testkit/accounts';
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

describe('the bot form (a grid of fields) on a desktop', () => {
  it('keeps its fields on their rows when only some of them show an error, the checkbox on its inputs', async () => {
    await desktop.goto(`${ui.baseUrl}/settings/bots`);
    await desktop.getByRole('button', { name: 'Add a bot' }).click();
    const field = (label: string) => desktop.getByLabel(label, { exact: true });
    const middle = async (control: Locator) => {
      const box = (await control.boundingBox())!;
      return Math.round(box.y + box.height / 2);
    };
    // The name is fine; the nickname and the address beside it are in error, with sentences of
    // their own under them.
    await field('Name').fill('Deck');
    await desktop.getByRole('button', { name: 'Create', exact: true }).click();
    await expect.poll(() => fieldError(field('Server address'))).not.toBeNull();
    expect(await fieldError(field('Name'))).toBeNull();
    const row = await Promise.all(
      ['Name', 'Nickname on the server', 'Server address'].map((l) => middle(field(l))),
    );
    expect(Math.max(...row) - Math.min(...row)).toBeLessThanOrEqual(1);
    // The checkbox sits on the inputs' row, centred on it (its label wraps to two lines here, hence a
    // few pixels of give), not on the labels' line above nor at the bottom of a taller cell.
    const checkbox = desktop.locator('form.grid-form .check input');
    const offset = Math.abs((await middle(checkbox)) - (await middle(field('Channel password'))));
    expect(offset).toBeLessThanOrEqual(4);
    await screenshot(desktop, 'toolbar-forms-desktop-bot');
  });
});

describe('the bot form checks what the server would refuse, before sending', () => {
  it('says a short nickname, an address with a port and a name another bot has, beside them', async () => {
    const admin = await login(ui.t, 'owner');
    const taken = await admin.api.POST('/api/bot', {
      body: { name: 'Lounge', nickname: 'Lounge DJ', serverAddress: '127.0.0.1', serverPort: 9987 },
    });
    expect(taken.response.status).toBe(201);
    await desktop.goto(`${ui.baseUrl}/settings/bots`);
    await desktop.getByRole('button', { name: 'Add a bot' }).click();
    const field = (label: string) => desktop.getByLabel(label, { exact: true });
    const requests: string[] = [];
    desktop.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/bot')) requests.push(request.url());
    });
    await field('Name').fill('lounge');
    await desktop.getByText('Another bot already has this name').waitFor();
    await field('Nickname on the server').fill('DJ');
    await field('Server address').fill('ts.example.com:9987');
    await desktop.getByRole('button', { name: 'Create', exact: true }).click();
    await expect
      .poll(() => fieldError(field('Nickname on the server')))
      .toBe('Use 3 to 30 characters for the nickname, as TeamSpeak asks.');
    expect(await fieldError(field('Server address'))).toBe(
      'Give the host alone here; the port has its own field.',
    );
    // A name another bot has is allowed: only said, never refused.
    expect(await fieldError(field('Name'))).toBeNull();
    expect(requests).toEqual([]);
    await screenshot(desktop, 'toolbar-forms-desktop-bot-checks');
  });
});

describe('the bot form sets the TeamSpeak client version', () => {
  it('offers automatic and the signed versions in a select, and saves the choice', async () => {
    const admin = await login(ui.t, 'owner');
    const shelf = (await admin.api.GET('/api/bot')).data!.bots.find((b) => b.name === 'Shelf')!;
    const config = async () =>
      (await admin.api.GET('/api/bot/{id}/config', { params: { path: { id: shelf.id } } })).data!
        .clientVersion;
    expect(await config()).toBe('auto');
    for (const [page, device] of [
      [phone, 'phone'],
      [desktop, 'desktop'],
    ] as const) {
      await page.goto(`${ui.baseUrl}/settings/bots`);
      await page.getByRole('button', { name: 'Edit: Shelf' }).click();
      const select = page.getByRole('combobox', { name: 'TeamSpeak client version' });
      expect(await select.inputValue()).toBe(device === 'phone' ? 'auto' : '5.0.0-beta77-windows');
      expect(await select.locator('option').allTextContents()).toEqual([
        'Automatic (fits the server)',
        ...Object.keys(CLIENT_VERSIONS),
      ]);
      if (device === 'phone') {
        await select.selectOption('5.0.0-beta77-windows');
        await page.getByText('TeamSpeak 6 servers turn away 3.x versions').waitFor();
        // The select fits the phone's width.
        const box = (await select.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(390);
        await screenshot(page, 'toolbar-forms-phone-bot-client-version');
        await page.getByRole('button', { name: 'Save', exact: true }).click();
        await expect.poll(config).toBe('5.0.0-beta77-windows');
      } else {
        await select.selectOption('auto');
        await page.getByRole('button', { name: 'Save', exact: true }).click();
        await expect.poll(config).toBe('auto');
      }
    }
  });
});
