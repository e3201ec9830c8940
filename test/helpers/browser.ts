import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (or CHROMIUM_PATH) with the flags every browser test runs it with: no sandbox, no GPU, no phoning home. */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
