/** Headless Chromium for the document's browser tests: Debian's binary, no network chatter of its own. */
import { access } from 'node:fs/promises';
import { chromium, type Browser } from 'playwright-core';
import { serviceAvailable } from '../../../runtime/test/support/services.js';
import { CHROMIUM, CHROMIUM_ARGS } from '../../scripts/doc-stats.js';

/** False (with the reason printed) when Chromium is absent; under CI=true an absent Chromium fails. */
export const chromiumAvailable = () => serviceAvailable('Chromium (/usr/bin/chromium; apt-get install -y chromium)', () => access(CHROMIUM));

/** Launches it with the flags this machine needs (background networking off: its connections are refused here). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}
