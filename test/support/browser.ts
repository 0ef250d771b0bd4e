/// <reference lib="dom" />
/**
 * Browser tests with `playwright-core` and Debian's chromium (issue 12, "Must show"). No browser
 * is downloaded: the suite uses `CHROMIUM_PATH` or /usr/bin/chromium, and without one it skips
 * visibly, printing why, like the engine suites do when their server is not set.
 *
 *   describeInBrowser('The widget (e2e)', (browser) => {
 *     it('…', async () => {
 *       const page = await browser().newPage();
 *       expectAccessible(await axe(page));
 *       await screenshot(page, 'widget-open', { schemes: ['light', 'dark'] });
 *     });
 *   });
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import axeCore from 'axe-core';
import { expect } from 'chai';
import { type Browser, chromium, type Page } from 'playwright-core';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** where the screenshots go: git-ignored (`test-output/`), kept after the run for a look */
export const SCREENSHOT_DIR = join(process.cwd(), 'test-output', 'screenshots');

/** The chromium to drive, or null when there is none on this machine. */
export function chromiumPath(): string | null {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) return existsSync(configured) ? configured : null;
  return CANDIDATES.find((path) => existsSync(path)) ?? null;
}

export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath, headless: true, args: ['--no-sandbox'] });
}

/**
 * A mocha suite with one shared browser. Without chromium the suite is a single skipped test
 * named after the reason, which the run prints: a missing browser is never a silent pass.
 * A chromium that is present but cannot start fails the suite.
 */
export function describeInBrowser(title: string, suite: (browser: () => Browser) => void): void {
  const path = chromiumPath();
  if (!path) {
    const reason = process.env.CHROMIUM_PATH
      ? `CHROMIUM_PATH not found: ${process.env.CHROMIUM_PATH}: browser tests skipped`
      : `CHROMIUM_PATH not set: and no ${CANDIDATES.join(' or ')}: browser tests skipped`;
    describe(title, () => {
      it(reason, function () {
        console.log(`      ${reason}`);
        this.skip();
      });
    });
    return;
  }
  describe(title, () => {
    let browser: Browser | undefined;
    before(async () => {
      browser = await launchChromium(path);
    });
    after(async () => {
      await browser?.close();
    });
    suite(() => {
      if (!browser) throw new Error('chromium not launched');
      return browser;
    });
  });
}

export interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  /** axe's selector of each failing node; a node in a shadow tree is [host, …, inner] */
  targets: unknown[];
}

/**
 * Runs axe-core in the page and answers its serious and critical violations. `include` limits
 * the run to a part of the page (a selector; a shadow host includes its shadow tree).
 */
export async function axe(page: Page, options: { include?: string } = {}): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  // evaluated over the devtools protocol, not as a <script>: the board's strict CSP
  // (script-src 'self') would refuse an inline script tag, and the test must not loosen it
  if (!loaded) await page.evaluate(`${axeCore.source}\n;0`);
  return page.evaluate(async (include) => {
    const run = (window as unknown as { axe: typeof axeCore }).axe.run;
    const context = include ? { include: [include] } : document;
    const results = await run(context, { resultTypes: ['violations'] });
    return results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact ?? '',
        help: v.help,
        targets: v.nodes.map((node) => node.target),
      }));
  }, options.include);
}

/** Fails with each violation spelled out: rule, impact, what to fix and where. */
export function expectAccessible(violations: AxeViolation[]): void {
  const report = violations
    .map((v) => `${v.impact} ${v.id}: ${v.help} at ${JSON.stringify(v.targets)}`)
    .join('\n');
  expect(violations, `axe found serious or critical violations:\n${report}`).to.deep.equal([]);
}

export type ColorScheme = 'light' | 'dark';

/**
 * Saves `test-output/screenshots/<name>.png`, or `<name>-light.png` and `<name>-dark.png` when
 * schemes are asked for (the page is switched with `prefers-color-scheme` and left in the last).
 */
export async function screenshot(
  page: Page,
  name: string,
  options: { schemes?: ColorScheme[]; fullPage?: boolean } = {},
): Promise<string[]> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const shots: string[] = [];
  const take = async (file: string) => {
    const path = join(SCREENSHOT_DIR, file);
    await page.screenshot({ path, fullPage: options.fullPage ?? false });
    shots.push(path);
  };
  if (!options.schemes?.length) await take(`${name}.png`);
  for (const colorScheme of options.schemes ?? []) {
    await page.emulateMedia({ colorScheme });
    await take(`${name}-${colorScheme}.png`);
  }
  return shots;
}
