import type { Browser } from 'playwright-core';
import { isExecutable } from '../../src/temporal/cliLocator';
import { assertMet, skippable } from './requirements';

/** Debian's Chromium (`apt-get install chromium`), or `SITECHAT_CHROMIUM`: playwright-core drives it, nothing is downloaded. */
export function chromiumPath(): { path?: string; reason?: string } {
  const path = process.env.SITECHAT_CHROMIUM || '/usr/bin/chromium';
  return isExecutable(path) ? { path } : { reason: `no Chromium at ${path} (apt-get install chromium, or set SITECHAT_CHROMIUM)` };
}

/** True when the browser tests are to be skipped here (never in CI, where a missing Chromium fails them). */
export function skipWithoutChromium(): boolean {
  return skippable(chromiumPath().reason);
}

export async function launchChromium(): Promise<Browser> {
  const { path, reason } = chromiumPath();
  assertMet(reason);
  const { chromium } = await import('playwright-core');
  // As root (CI containers) Chromium refuses to start with its sandbox on.
  const args = process.getuid?.() === 0 ? ['--no-sandbox'] : [];
  return chromium.launch({ executablePath: path, args });
}
