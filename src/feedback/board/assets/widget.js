/*
 * The embeddable feedback widget (issue 12 item 4). Plain ES2020, no dependencies, no build:
 *   <script src="{PUBLIC_BASE_URL}/widget.js" data-product="{slug}/{KEY}" async></script>
 * Size: 3551 bytes gzipped (`gzip -c src/feedback/board/assets/widget.js | wc -c`).
 *
 * Everything lives in a shadow root on a host element styled `all: initial !important` inline:
 * page rules cannot reach inside (selectors stop at the shadow boundary, the host inherits
 * nothing) and our rules cannot leak out. Sizes are px, never rem: rem follows the host's <html>.
 * Talks to the capture endpoint only, without credentials; `visitor` goes to localStorage.
 */
(() => {
  const me =
    document.currentScript || document.querySelector('script[data-product][src$="/widget.js"]');
  if (!me?.dataset.product) return;
  const base = me.src.slice(0, me.src.lastIndexOf('/widget.js'));
  const endpoint = `${base}/capture/${me.dataset.product.split('/').map(encodeURIComponent).join('/')}`;
  const VISITOR = 'feedback-widget-visitor';
  const store = (value) => {
    try {
      if (value === undefined) return localStorage.getItem(VISITOR);
      localStorage.setItem(VISITOR, value);
    } catch {
      // storage can be blocked (privacy settings, sandboxed frames): the widget works without
    }
    return null;
  };
  // only http(s) links are ever followed, whatever an answer says
  const safe = (url) => (/^https?:\/\//i.test(url || '') ? url : null);

  const host = document.createElement('feedback-widget');
  host.style.setProperty('all', 'initial', 'important');
  const root = host.attachShadow({ mode: 'open' });
  root.innerHTML = `<style>
.w{--bg:#fff;--fg:#1a1a1a;--mute:#555;--line:#8a8a8a;--accent:#1d4ed8;--on:#fff;--ring:#b45309;
font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg)}
@media (prefers-color-scheme:dark){.w{--bg:#1f2430;--fg:#f1f3f7;--mute:#c3c8d2;--line:#7c8494;
--accent:#93c5fd;--on:#0b1220;--ring:#fbbf24}}
*{box-sizing:border-box;font:inherit;color:inherit;margin:0}
[hidden]{display:none!important}
button,a{cursor:pointer}
.fab,.send{background:var(--accent);color:var(--on);border:0;border-radius:8px;padding:9px 16px;font-weight:600}
.fab{position:fixed;right:16px;bottom:16px;z-index:2147483646;box-shadow:0 2px 8px #0005}
.dlg{position:fixed;right:16px;bottom:68px;z-index:2147483647;width:min(360px,calc(100vw - 32px));
max-height:calc(100vh - 88px);overflow:auto;background:var(--bg);border:1px solid var(--line);
border-radius:12px;padding:16px;box-shadow:0 8px 28px #0006;display:grid;gap:10px}
h2{font-size:16px;font-weight:700;padding-right:28px}
.x{position:absolute;right:10px;top:10px;background:none;border:0;font-size:20px;line-height:1;padding:4px 8px}
form{display:grid;gap:6px}
label{font-weight:600}label span{font-weight:400;color:var(--mute)}
input,textarea{width:100%;padding:7px 9px;border:1px solid var(--line);border-radius:6px;background:var(--bg)}
textarea{min-height:90px;resize:vertical}
.send{justify-self:start;margin-top:4px}.send:disabled{opacity:.7;cursor:wait}
a{color:var(--accent)}
:focus-visible{outline:3px solid var(--ring);outline-offset:2px}
.vh{position:absolute;left:-9999px;width:1px;height:1px;overflow:hidden}
</style><div class="w"><button class="fab" type="button" aria-haspopup="dialog" aria-expanded="false">Feedback</button>
<div class="dlg" role="dialog" aria-modal="true" aria-labelledby="h" hidden>
<h2 id="h" tabindex="-1">Feedback</h2><button class="x" type="button"><span aria-hidden="true">\u00d7</span><span class="vh">Close</span></button>
<form hidden><label for="t">Title <span>(optional)</span></label><input id="t" name="title" maxlength="200">
<label for="b">Your feedback</label><textarea id="b" name="body" required maxlength="5000"></textarea>
<label for="e">E-mail <span>(optional, to hear back)</span></label><input id="e" name="email" type="email" autocomplete="email">
<div class="vh" aria-hidden="true"><label for="w">Website</label><input id="w" name="website" tabindex="-1" autocomplete="off"></div>
<button class="send" type="submit">Send feedback</button></form>
<p class="msg" role="status" aria-live="polite"></p><a class="board" target="_blank" rel="noopener" hidden>See the board</a></div></div>`;
  const $ = (selector) => root.querySelector(selector);
  const fab = $('.fab');
  const dialog = $('.dlg');
  const heading = $('h2');
  const form = $('form');
  const msg = $('.msg');
  const board = $('.board');
  const send = $('.send');
  /** the GET's answer; null until it succeeded (a failed load is tried again on the next open) */
  let info = null;

  const say = (text, link, linkText) => {
    msg.textContent = text;
    if (link) {
      const a = document.createElement('a');
      a.href = link;
      a.target = '_blank';
      a.rel = 'noopener';
      a.textContent = linkText;
      msg.append(' ', a);
    }
  };

  const load = async () => {
    say('Loading\u2026');
    try {
      const res = await fetch(endpoint, { credentials: 'omit' });
      if (res.status === 404) return say('This feedback board is not available.');
      if (!res.ok) throw new Error();
      info = await res.json();
      heading.textContent = `Feedback for ${info.product.name}`;
      board.href = safe(info.boardUrl) || '';
      board.hidden = !safe(info.boardUrl);
      form.hidden = false;
      say('');
      if (root.activeElement === heading) $('#t').focus();
    } catch {
      say('The feedback board cannot be reached right now. Please try again later.');
    }
  };

  const open = () => {
    dialog.hidden = false;
    fab.setAttribute('aria-expanded', 'true');
    if (info && !form.hidden) $('#t').focus();
    else heading.focus();
    if (!info) load();
  };
  const close = () => {
    dialog.hidden = true;
    fab.setAttribute('aria-expanded', 'false');
    fab.focus();
  };

  fab.addEventListener('click', () => (dialog.hidden ? open() : close()));
  $('.x').addEventListener('click', close);
  dialog.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
    } else if (event.key === 'Tab') {
      // aria-modal: Tab cycles inside the dialog
      const stops = [...dialog.querySelectorAll('button,a[href],input,textarea')].filter(
        (el) => el.tabIndex >= 0 && !el.disabled && el.getClientRects().length,
      );
      const first = stops[0];
      const last = stops[stops.length - 1];
      const at = root.activeElement;
      if (event.shiftKey && (at === first || at === heading)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && at === last) {
        event.preventDefault();
        first.focus();
      }
    }
  });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const fields = new FormData(form);
    const data = {
      body: fields.get('body'),
      formToken: info.formToken,
      website: fields.get('website') || '',
    };
    for (const name of ['title', 'email']) if (fields.get(name)) data[name] = fields.get(name);
    const visitor = store();
    if (visitor) data.visitor = visitor;
    send.disabled = true;
    say('Sending\u2026');
    try {
      const res = await fetch(endpoint, {
        method: 'POST',
        credentials: 'omit',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(data),
      });
      const answer = await res.json().catch(() => ({}));
      if (res.ok) {
        if (answer.visitor) store(answer.visitor);
        form.reset();
        form.hidden = true;
        // a fresh form token on the next open
        info = null;
        say('Thank you! Your feedback was filed.', safe(answer.url), 'View it on the board');
        // the focused button just disappeared with the form: keep focus inside the dialog
        heading.focus();
      } else if (res.status === 429) {
        const wait = res.headers.get('Retry-After');
        say(`Too many submissions: try again ${wait ? `in ${wait} s` : 'later'}.`);
      } else {
        say(answer.error || 'Your feedback could not be sent. Please try again.');
      }
    } catch {
      say('The feedback board cannot be reached right now. Please try again later.');
    } finally {
      send.disabled = false;
    }
  });

  (document.body || document.documentElement).append(host);
})();
