/// <reference lib="dom" />
/**
 * The embeddable widget in a real browser (issue 12 item 4 and "Must show"): a host page served
 * from a second local port — another origin — with CSS written to break embedded widgets, the
 * widget script from the feedback service, and the item checked over the API afterwards.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { type Board, items, product, startBoard } from '../triage/board.js';
import { axe, describeInBrowser, expectAccessible, screenshot } from '../../support/browser.js';

/** issue 12 item 5: "a minimum fill time (signed form token)" — 3 s in the capture contract */
const MIN_FILL_MS = 3_000;
const VISITOR_KEY = 'feedback-widget-visitor';

/** Everything a careless or hostile host stylesheet does to third-party markup. */
const AGGRESSIVE_CSS = `
  html { font-size: 2px; }
  * { box-sizing: content-box !important; transition: none !important; }
  button, input, textarea, select { all: unset; display: none !important; }
  body * { font-size: 2px !important; color: red !important; font-family: serif !important; }
  body > :not(main) { display: none !important; opacity: 0 !important; pointer-events: none !important; }
  div, section, p, h1, h2 { background: yellow !important; margin: 40px !important; }
  [role="dialog"], [aria-modal] { display: none !important; }
  :focus { outline: none !important; }
  *::before, *::after { content: "X" !important; }
  a { text-decoration: none !important; }
`;

const hostPage = (script: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Host shop</title>
<style>${AGGRESSIVE_CSS}</style></head>
<body><main>
  <h1 id="host-title">Host shop</h1>
  <p id="host-text">The host's own text.</p>
  <a id="host-link" href="#top">A host link</a>
  <button id="host-button" type="button">A host button</button>
</main>
${script}
</body></html>`;

/** A second origin: `/` embeds APP, `/private` embeds SEC, `/plain` has no widget. */
async function startHost(feedbackUrl: string): Promise<{ url: string; server: Server }> {
  const tag = (product: string) =>
    `<script src="${feedbackUrl}/widget.js" data-product="${product}" async></script>`;
  const pages: Record<string, string> = {
    '/': hostPage(tag('acme-co/APP')),
    '/private': hostPage(tag('acme-co/SEC')),
    '/plain': hostPage(''),
  };
  const server = createServer((req, res) => {
    const html = pages[req.url ?? ''];
    res.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server };
}

/** What the host set on its own elements, as the browser computes it. */
function hostStyles(page: Page) {
  return page.evaluate(() =>
    ['html', 'body', 'main', '#host-title', '#host-text', '#host-link', '#host-button'].map(
      (selector) => {
        const style = getComputedStyle(document.querySelector(selector)!);
        return {
          selector,
          display: style.display,
          fontSize: style.fontSize,
          fontFamily: style.fontFamily,
          color: style.color,
          background: style.backgroundColor,
          margin: style.margin,
          position: style.position,
          overflow: style.overflow,
        };
      },
    ),
  );
}

const widgetOf = (page: Page) => {
  const host = page.locator('feedback-widget');
  return {
    host,
    button: host.getByRole('button', { name: 'Feedback', exact: true }),
    dialog: host.getByRole('dialog'),
    status: host.getByRole('status'),
    body: host.getByLabel('Your feedback'),
  };
};

/** the status region once it says something other than a progress note */
async function settledStatus(status: Locator): Promise<string> {
  await status
    .page()
    .waitForFunction(
      (el) => !['', 'Loading…', 'Sending…'].includes(el?.textContent ?? ''),
      await status.elementHandle(),
    );
  return (await status.textContent()) ?? '';
}

/** which element of the widget has focus: its class, or null when focus is elsewhere */
const focusedInWidget = (page: Page) =>
  page.evaluate(() => {
    const host = document.querySelector('feedback-widget');
    if (!host || document.activeElement !== host) return null;
    const inner = host.shadowRoot?.activeElement;
    return inner ? inner.className || inner.id || inner.tagName.toLowerCase() : null;
  });

describeInBrowser('The embeddable widget (e2e)', (browser) => {
  let board: Board;
  let host: { url: string; server: Server };
  let context: BrowserContext;

  before(async function () {
    this.timeout(60_000);
    board = await startBoard();
    host = await startHost(board.fb.url);
  });
  after(async () => {
    if (host) {
      host.server.closeAllConnections();
      await new Promise((resolve) => host.server.close(resolve));
    }
    await board?.fb.stop();
  });
  beforeEach(async () => {
    context = await browser().newContext({ viewport: { width: 900, height: 700 } });
    // a missing element fails in seconds with its selector, not at mocha's timeout
    context.setDefaultTimeout(8_000);
  });
  afterEach(() => context.close());

  const openWidget = async (path = '/') => {
    const page = await context.newPage();
    await page.goto(`${host.url}${path}`);
    const widget = widgetOf(page);
    await widget.button.click();
    await widget.dialog.waitFor({ state: 'visible' });
    return { page, widget };
  };

  describe('When a visitor files feedback through the widget on another origin', () => {
    it('files an item with via "widget", telling a too-fast submit apart and linking the item', async function () {
      this.timeout(30_000);
      // issue 12: "The widget on a page served from another origin (a second local port) files
      // an item with `via: widget`; the host page's aggressive CSS … does not break it."
      const { page, widget } = await openWidget();
      await widget.body.waitFor({ state: 'visible' });
      expect(await widget.host.getByRole('heading').textContent()).to.equal(
        'Feedback for Acme App',
      );
      const boardLink = widget.host.getByRole('link', { name: 'See the board' });
      expect(await boardLink.getAttribute('href')).to.include('/acme-co/APP');

      await widget.host.getByLabel('Title').fill('Export to CSV');
      await widget.body.fill('Please let me export the board as CSV from the widget.');
      const answer = page.waitForResponse(
        (res) => res.request().method() === 'POST' && res.url().includes('/capture/'),
      );
      await widget.host.getByRole('button', { name: 'Send feedback' }).click();
      // contract: "a submit sooner than 3 s after the formToken was issued is refused (400) —
      // the widget must not hide that: show the message"
      const tooFast = await answer;
      expect(tooFast.status()).to.equal(400);
      const envelope = await tooFast.json();
      expect(envelope.code).to.equal('invalid-argument');
      expect(await settledStatus(widget.status)).to.equal(envelope.error);
      const owner = board.fb.api(board.owner.token);
      const before = await owner.get(items());
      expect(before.body.items.map((i: { body: string }) => i.body)).to.not.include(
        'Please let me export the board as CSV from the widget.',
      );

      board.fb.clock.advance(MIN_FILL_MS + 1_000);
      await widget.host.getByRole('button', { name: 'Send feedback' }).click();
      expect(await settledStatus(widget.status)).to.match(/^Thank you/);

      const listed = await owner.get(items());
      expect(listed.status, JSON.stringify(listed.body)).to.equal(200);
      const filed = listed.body.items.find(
        (i: { body: string }) =>
          i.body === 'Please let me export the board as CSV from the widget.',
      );
      expect(filed, JSON.stringify(listed.body.items)).to.include({
        title: 'Export to CSV',
        status: 'new',
        via: 'widget',
      });
      const itemLink = widget.status.getByRole('link', { name: 'View it on the board' });
      expect(await itemLink.getAttribute('href')).to.include(filed.id);
      // the visitor token comes back on the next submission, from the host page's storage
      const visitor = await page.evaluate((key) => localStorage.getItem(key), VISITOR_KEY);
      expect(visitor).to.be.a('string').and.not.equal('');
    });

    it('keeps its own look inside the hostile page, and leaves the host looking as the host set it', async () => {
      const plain = await context.newPage();
      await plain.goto(`${host.url}/plain`);
      const untouched = await hostStyles(plain);
      const { page, widget } = await openWidget();
      await widget.body.waitFor({ state: 'visible' });
      expect(await hostStyles(page)).to.deep.equal(untouched);
      const look = (locator: Locator) =>
        locator.evaluate((el) => {
          const style = getComputedStyle(el);
          return { display: style.display, fontSize: style.fontSize, color: style.color };
        });
      const button = await look(widget.button);
      expect(button.display).to.not.equal('none');
      expect(button.fontSize).to.equal('14px');
      expect(button.color).to.not.equal('rgb(255, 0, 0)');
      expect((await look(widget.body)).fontSize).to.equal('14px');
      expect(await widget.host.getByRole('button', { name: 'Send feedback' }).isVisible()).to.equal(
        true,
      );
    });
  });

  describe('When the dialog is open, in the light and the dark theme', () => {
    it('has no serious or critical axe violation and is photographed in both', async function () {
      this.timeout(30_000);
      // issue 12: "axe-core run in the browser on every page reports no serious or critical violation"
      const { page, widget } = await openWidget();
      await widget.body.waitFor({ state: 'visible' });
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        expectAccessible(await axe(page, { include: 'feedback-widget' }));
      }
      const shots = await screenshot(page, 'widget-open', { schemes: ['light', 'dark'] });
      expect(shots.map((s) => s.split('/').pop())).to.deep.equal([
        'widget-open-light.png',
        'widget-open-dark.png',
      ]);
    });
  });

  describe('When a visitor uses only the keyboard', () => {
    it('reaches the button with Tab, opens with Enter, stays in the dialog, and Escape returns focus', async () => {
      const page = await context.newPage();
      await page.goto(`${host.url}/`);
      const widget = widgetOf(page);
      await widget.button.waitFor();
      let presses = 0;
      while ((await focusedInWidget(page)) !== 'fab' && presses++ < 8)
        await page.keyboard.press('Tab');
      expect(await focusedInWidget(page)).to.equal('fab');

      await page.keyboard.press('Enter');
      await widget.body.waitFor({ state: 'visible' });
      // focus moves into the dialog, onto the first field once the form is there
      await page.waitForFunction(() => {
        const inner = document.querySelector('feedback-widget')?.shadowRoot?.activeElement;
        return inner?.id === 't';
      });
      // aria-modal: Tab cycles inside the dialog (title → close → last stop, backwards)
      await page.keyboard.press('Shift+Tab');
      expect(await focusedInWidget(page)).to.equal('x');
      await page.keyboard.press('Shift+Tab');
      expect(await focusedInWidget(page)).to.equal('board');
      await page.keyboard.press('Tab');
      expect(await focusedInWidget(page)).to.equal('x');

      await page.keyboard.press('Escape');
      await widget.dialog.waitFor({ state: 'hidden' });
      expect(await focusedInWidget(page)).to.equal('fab');
      expect(await widget.button.getAttribute('aria-expanded')).to.equal('false');
    });
  });

  describe('When the capture endpoint refuses with 429', () => {
    it('tells the visitor how long to wait, from Retry-After', async () => {
      // the answer is stood in by the browser (the service's own limits have their own tests):
      // what is checked here is that the widget reads the header across origins and says it
      const { page, widget } = await openWidget();
      await widget.body.waitFor({ state: 'visible' });
      await page.route(`${board.fb.url}/capture/**`, (route) =>
        route.request().method() === 'POST'
          ? route.fulfill({
              status: 429,
              headers: {
                'content-type': 'application/json',
                'retry-after': '42',
                'access-control-allow-origin': '*',
                'access-control-expose-headers': 'Retry-After',
              },
              body: JSON.stringify({ error: 'too many submissions', code: 'resource-exhausted' }),
            })
          : route.continue(),
      );
      await widget.body.fill('One more thing');
      await widget.host.getByRole('button', { name: 'Send feedback' }).click();
      expect(await settledStatus(widget.status)).to.equal(
        'Too many submissions: try again in 42 s.',
      );
      // the form stays, with what the visitor typed, for when the wait is over
      expect(await widget.body.inputValue()).to.equal('One more thing');
    });
  });

  describe('When the product is private', () => {
    it('says the board is not available and offers no form', async () => {
      // issue 12: "Private product: every page, the capture endpoint, the widget … answer 404"
      const { widget } = await openWidget('/private');
      expect(await settledStatus(widget.status)).to.equal('This feedback board is not available.');
      expect(await widget.body.isVisible()).to.equal(false);
      expect(await widget.host.getByRole('link', { name: 'See the board' }).isVisible()).to.equal(
        false,
      );
    });

    it('offers the form again once the product is back to public', async () => {
      // issue 12: "Private product: … the widget … answer 404; back to public restores them"
      const owner = board.fb.api(board.owner.token);
      const visibility = (value: string) => owner.patch(product('SEC'), { visibility: value });
      expect((await visibility('public')).status).to.equal(200);
      try {
        const { widget } = await openWidget('/private');
        await widget.body.waitFor({ state: 'visible' });
        expect(await widget.host.getByRole('heading').textContent()).to.equal(
          'Feedback for Secret',
        );
      } finally {
        expect((await visibility('private')).status).to.equal(200);
      }
    });
  });
});
