// Debian's Chromium for the kit's browser tests (the docs pages, the contract run's report.html): where it is, why a
// test skips without it, and the flags every launch uses (headless, no sandbox, nothing fetched in the background).
import { existsSync } from 'node:fs';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const chromiumMissingReason = existsSync(CHROMIUM_PATH)
  ? undefined
  : `${CHROMIUM_PATH} not found: install Debian's chromium (apt-get install -y chromium) to run the browser test`;

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];
