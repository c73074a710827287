/**
 * The controls issue 24 adds to the UI, against the real service, daemon and TS3 test server.
 * The player bar's vote to skip: a member who may read the bot but not skip it votes from the bar, the
 * live tally ("1 of 2") shows to them and, while the vote runs, to the admin too; a `!skip` typed by a
 * voice client in the bot's channel completes the vote and the song changes. In Chinese, on a
 * phone-sized page, and without serious axe findings. The admin's switch for
 * `streamAllowPrivateHosts` in the behaviour settings: its risk explained beside it, and it persists.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ts3Client } from '../../daemon/ts3';
import type { Song } from '../../shared/domain/schemas';
import { createMember, type Session, setupAdmin } from '../../testkit/accounts';
import { addNamedTones } from '../../testkit/tone-uploads';
import { makeClient } from '../ts3/helpers';
import {
  connectedBot,
  screenshot,
  seriousViolations,
  signedInPage,
  startUiHarness,
  type UiHarness,
} from './ui-harness';

let ui: UiHarness;
let admin: Session;
let botId = '';
let memberPage: Page;
let adminPage: Page;
const songs: Song[] = [];
const voices: Ts3Client[] = [];

const status = async () => (await admin.api.GET('/api/bot/{id}', { params: { path: { id: botId } } })).data!;
const bar = (page: Page) => page.locator('.player-bar');

beforeAll(async () => {
  ui = await startUiHarness();
  admin = await setupAdmin(ui.t, 'owner');
  const tones = [
    ['Alpha', 440],
    ['Beta', 660],
    ['Gamma', 880],
  ] as const;
  songs.push(...(await addNamedTones(ui.t.db, ui.t.dataDir, tones, 60)));
  botId = await connectedBot(ui, admin, 'Jukebox');
  const path = { params: { path: { botId } } };
  expect(
    (await admin.api.POST('/api/player/{botId}/play-song', { ...path, body: { song: songs[0]! } })).response
      .status,
  ).toBe(200);
  for (const song of songs.slice(1))
    await admin.api.POST('/api/player/{botId}/add-song', { ...path, body: { song } });
  // Two people in the bot's channel; a web voter makes three, so a vote passes with two.
  for (const nickname of ['Ann', 'Ben']) {
    const client = makeClient(ui.server.port, ui.server.rootPublicKey, { nickname });
    await client.connect();
    voices.push(client);
  }
  const member = await createMember(ui.t, admin, { capabilities: [], bots: [botId] });
  memberPage = await signedInPage(ui, member.username);
  adminPage = await signedInPage(ui, 'owner');
}, 90_000);

afterAll(async () => {
  for (const client of voices) await client.disconnect().catch(() => undefined);
  await ui?.close();
});

describe('vote to skip in the player bar', () => {
  it('is offered to a reader who may not skip, and not to the admin while no vote runs', async () => {
    // Two people in the channel: one vote would do until a web voter joins them.
    await expect
      .poll(async () => (await status()).skipVotes, { timeout: 10_000 })
      .toEqual({ votes: 0, needed: 1 });
    const vote = bar(memberPage).getByRole('button', { name: 'Vote to skip', exact: true });
    await vote.waitFor();
    expect(await vote.textContent()).toContain('Vote');
    expect(await bar(memberPage).getByRole('button', { name: 'Next song' }).count()).toBe(0);
    await bar(adminPage).getByRole('button', { name: 'Next song' }).waitFor();
    expect(
      await bar(adminPage)
        .getByRole('button', { name: /^Vote to skip/ })
        .count(),
    ).toBe(0);
  });

  it('counts the vote and shows the live tally to the voter and to the admin, who may join', async () => {
    await bar(memberPage).getByRole('button', { name: 'Vote to skip', exact: true }).click();
    await expect.poll(async () => (await status()).skipVotes).toEqual({ votes: 1, needed: 2 });
    const running = bar(memberPage).getByRole('button', { name: 'Vote to skip: 1 of 2 votes' });
    await running.waitFor();
    expect((await running.textContent())?.trim()).toBe('1 of 2');
    await memberPage.locator('.toast').filter({ hasText: 'Skip: 1 of 2 votes' }).waitFor();
    // The admin's bar follows the push: the vote under way is shown so they can join it.
    await bar(adminPage).getByRole('button', { name: 'Vote to skip: 1 of 2 votes' }).waitFor();
    expect(await seriousViolations(memberPage)).toEqual([]);
    await screenshot(memberPage, 'radio-controls-01-vote-running');

    // A second click is the same person again: no second vote.
    await running.click();
    await memberPage
      .locator('.toast')
      .filter({ hasText: 'You have already voted. Skip: 1 of 2 votes' })
      .waitFor();
    expect((await status()).skipVotes).toEqual({ votes: 1, needed: 2 });
  });

  it("skips when a `!skip` in the bot's channel completes the vote, and the bar starts over", async () => {
    await voices[0]!.sendChannelText('!skip');
    await bar(memberPage).getByRole('link', { name: 'Beta Tone' }).waitFor();
    expect((await status()).currentSong?.name).toBe('Beta Tone');
    await bar(memberPage).getByRole('button', { name: 'Vote to skip', exact: true }).waitFor();
    await expect
      .poll(() =>
        bar(adminPage)
          .getByRole('button', { name: /^Vote to skip/ })
          .count(),
      )
      .toBe(0);
  });

  it('fits a phone-sized bar, in Chinese, with the tally beside its icon', async () => {
    const phone = await ui.phonePage(memberPage);
    await phone.goto(ui.baseUrl);
    await phone.evaluate(() => localStorage.setItem('tsmb.locale', 'zh'));
    await phone.reload();
    const vote = bar(phone).getByRole('button', { name: '投票跳过', exact: true });
    await vote.waitFor();
    await vote.click();
    const running = bar(phone).getByRole('button', { name: '投票跳过：1/2 票' });
    await running.waitFor();
    expect((await running.textContent())?.trim()).toBe('1/2');
    const box = (await running.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(box.height).toBeGreaterThanOrEqual(24);
    expect(await seriousViolations(phone)).toEqual([]);
    await screenshot(phone, 'radio-controls-02-vote-phone-zh');
    await phone.context().close();
  });
});

describe('the switch that lets internet radio reach the local network', () => {
  const label = 'Internet radio may reach addresses on the local network';
  const stored = async () => (await admin.api.GET('/api/bot/settings')).data!.streamAllowPrivateHosts;

  it('is off by default, explains its risk, and persists when the admin turns it on and off', async () => {
    await adminPage.goto(`${ui.baseUrl}/settings/behaviour`);
    const toggle = adminPage.getByRole('switch', { name: label });
    await toggle.waitFor();
    expect(await toggle.isChecked()).toBe(false);
    const describedBy = (await toggle.getAttribute('aria-describedby'))!;
    expect(await adminPage.locator(`[id="${describedBy}"]`).textContent()).toMatch(
      /make this server fetch from its own network/,
    );
    await toggle.check();
    await adminPage.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(stored).toBe(true);
    await adminPage.reload();
    expect(await adminPage.getByRole('switch', { name: label }).isChecked()).toBe(true);
    expect(await seriousViolations(adminPage)).toEqual([]);
    await screenshot(adminPage, 'radio-controls-03-private-hosts');

    await adminPage.getByRole('switch', { name: label }).uncheck();
    await adminPage.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(stored).toBe(false);
  });

  it('is shown but cannot be changed by a member without the right to manage bots', async () => {
    await memberPage.goto(`${ui.baseUrl}/settings/behaviour`);
    const toggle = memberPage.getByRole('switch', { name: label });
    await toggle.waitFor();
    expect(await toggle.isDisabled()).toBe(true);
    expect(await memberPage.getByRole('button', { name: 'Save', exact: true }).count()).toBe(0);
  });
});
