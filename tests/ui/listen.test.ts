/**
 * Listening along in Chromium: the player's Listen toggle plays the bot's stream in the page, the media
 * element's time advances, a Web Audio analyser on it finds the tone the bot plays, and switching off
 * closes the stream (the bot stops counting the page as a listener).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Session, setupAdmin } from '../../testkit/accounts';
import { addToneUpload } from '../../testkit/tone-uploads';
import { connectedBot, screenshot, signedInPage, startUiHarness, type UiHarness } from './ui-harness';

const TONE_HZ = 660;

let ui: UiHarness;
let admin: Session;
let page: Page;
let botId: string;
const listeners = async () =>
  (await admin.api.GET('/api/bot/{id}', { params: { path: { id: botId } } })).data?.listeners;

beforeAll(async () => {
  ui = await startUiHarness();
  admin = await setupAdmin(ui.t, 'owner');
  botId = await connectedBot(ui, admin, 'Lounge');
  const song = await addToneUpload(ui.t.db, ui.t.dataDir, 'Lounge Tone', [
    { frequencyHz: TONE_HZ, seconds: 60 },
  ]);
  await admin.api.POST('/api/player/{botId}/play-song', { params: { path: { botId } }, body: { song } });
  page = await signedInPage(ui, 'owner');
  page.setDefaultTimeout(8000);
}, 90_000);

afterAll(async () => {
  await ui?.close();
});

describe('the Listen toggle', () => {
  it('plays the bot in the page: time advances and an analyser hears the tone', async () => {
    await page.goto(`${ui.baseUrl}/player/${botId}`);
    const toggle = page.getByRole('button', { name: 'Listen', exact: true });
    await toggle.waitFor();
    // The analyser is made inside the click, a user gesture, so its AudioContext may run.
    await page.evaluate(() => {
      const probe = window as unknown as { analyser?: AnalyserNode; sampleRate?: number };
      document.addEventListener(
        'click',
        () => {
          const audio = document.querySelector<HTMLAudioElement>('.listen-toggle audio')!;
          const context = new AudioContext();
          const analyser = context.createAnalyser();
          analyser.fftSize = 8192;
          context.createMediaElementSource(audio).connect(analyser).connect(context.destination);
          probe.analyser = analyser;
          probe.sampleRate = context.sampleRate;
        },
        { capture: true, once: true },
      );
    });
    await toggle.click();
    await page.getByRole('button', { name: 'Stop listening' }).waitFor();
    await expect.poll(listeners, { timeout: 8000 }).toBe(1);
    const currentTime = () =>
      page.evaluate(() => document.querySelector<HTMLAudioElement>('.listen-toggle audio')!.currentTime);
    await expect.poll(currentTime, { timeout: 10_000 }).toBeGreaterThan(0.5);
    const before = await currentTime();
    await page.waitForTimeout(1500);
    expect((await currentTime()) - before).toBeGreaterThan(1);
    const peakHz = () =>
      page.evaluate(() => {
        const probe = window as unknown as { analyser: AnalyserNode; sampleRate: number };
        const bins = new Float32Array(probe.analyser.frequencyBinCount);
        probe.analyser.getFloatFrequencyData(bins);
        let peak = 0;
        for (let i = 1; i < bins.length; i++) if (bins[i]! > bins[peak]!) peak = i;
        return (peak * probe.sampleRate) / probe.analyser.fftSize;
      });
    await expect.poll(async () => Math.abs((await peakHz()) - TONE_HZ), { timeout: 5000 }).toBeLessThan(15);
    await screenshot(page, 'listen-on');
    await page.getByRole('button', { name: 'Stop listening' }).click();
    await expect.poll(listeners, { timeout: 8000 }).toBe(0);
  });
});
