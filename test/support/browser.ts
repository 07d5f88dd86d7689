import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { repoRoot } from './shared-fixtures.js';

/**
 * Debian's Chromium, driven by playwright-core (no browser download). `.ci/run` installs it;
 * locally a missing one skips the browser suite with a named reason. `KASA_CHROMIUM` points
 * elsewhere.
 */
export const CHROMIUM = process.env.KASA_CHROMIUM ?? '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM);
export const NO_CHROMIUM_REASON = `skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set KASA_CHROMIUM; .ci/run installs it)`;

/** Where the suite writes its screenshots (kept out of git). */
export const OUTPUT_DIR = join(repoRoot, 'test-output', 'admin');
/** With KASA_DOCS_SCREENSHOTS=1 the screenshots docs/admin.md shows are written again. */
export const DOCS_DIR =
  process.env.KASA_DOCS_SCREENSHOTS === '1' ? join(repoRoot, 'docs', 'admin') : undefined;

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // No sandbox inside containers and CI runners; no GPU, no first-run noise.
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  });
}

/** Every uncaught error of a page, to fail the test that caused it. */
export function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

/** Opens a view of the admin page and waits until it has drawn. */
export async function openView(page: Page, base: string, view: string): Promise<void> {
  await page.goto(`${base}/#${view}`);
  await page.waitForSelector(`#view[data-ready="${view}"]`, { timeout: 20_000 });
}

/** Screenshot into the test output folder (and into docs/admin/ when asked). */
export async function screenshot(page: Page, name: string, forDocs = false): Promise<void> {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  await page.screenshot({ path: join(OUTPUT_DIR, `${name}.png`), fullPage: true });
  if (forDocs && DOCS_DIR !== undefined) {
    mkdirSync(DOCS_DIR, { recursive: true });
    await page.screenshot({ path: join(DOCS_DIR, `${name}.png`), fullPage: true });
  }
}

/** How wide the page is against the viewport (wider: it scrolls sideways). */
export async function scrollsSideways(page: Page): Promise<{ scrollWidth: number; clientWidth: number }> {
  // Page code as text: the tests are compiled without the DOM's types.
  return page.evaluate(
    '({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth })',
  );
}
