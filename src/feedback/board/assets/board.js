// The board without reloads: the capture box and the +1 buttons post with fetch, and while a
// title is typed the closest existing items are suggested. Without this script the same forms
// post and redirect. No dependencies; served from the board's origin (the CSP allows no other).
(() => {
  // a date comes as its UTC day (the page is the same for everyone): shown in the visitor's own
  for (const time of document.querySelectorAll('time[datetime]')) {
    const at = new Date(time.dateTime);
    if (at.getTime()) time.textContent = at.toLocaleDateString(undefined, { dateStyle: 'medium' });
  }
  const announce = (text) => {
    const region = document.getElementById('announce');
    if (region) region.textContent = text;
  };
  // a refusal is shown, not only announced: a sighted visitor must see why nothing happened
  const notify = (text) => {
    const notice = document.getElementById('notice');
    if (!notice) return announce(text);
    notice.textContent = text;
    notice.hidden = !text;
  };
  // the notice is fixed to the window's foot: the page keeps its height free below, and focus
  // scrolls clear of it (WCAG 2.2 SC 2.4.11 Focus Not Obscured; board.css --notice-room)
  const notice = document.getElementById('notice');
  if (notice && window.ResizeObserver) {
    new ResizeObserver(() => {
      const room = notice.hidden ? '' : `${innerHeight - notice.getBoundingClientRect().top}px`;
      document.documentElement.style.setProperty('--notice-room', room);
    }).observe(notice);
  }
  const setCsrf = (csrf) => {
    if (!csrf) return;
    for (const input of document.querySelectorAll('input[name="csrf"]')) input.value = csrf;
  };
  // a busy button is aria-disabled, not disabled: a disabled button drops the keyboard focus
  const busy = (button, on) => {
    if (on) button.setAttribute('aria-disabled', 'true');
    else button.removeAttribute('aria-disabled');
  };
  const isBusy = (button) => button.getAttribute('aria-disabled') === 'true';
  const failure = async (res) => {
    let message = 'That did not work; try again.';
    try {
      message = (await res.json()).error || message;
    } catch {}
    // a sentence of its own here (the service's start in lower case)
    message = message[0].toUpperCase() + message.slice(1);
    const wait = res.headers.get('Retry-After');
    return wait && !/\d+ s\b/.test(message) ? `${message} (try again in ${wait} s)` : message;
  };
  // this page read again (its address without the query): its forms as the server gives them now
  const readPage = async () => {
    const res = await fetch(location.pathname, {
      headers: { Accept: 'text/html' },
      cache: 'no-store',
    });
    return new DOMParser().parseFromString(res.ok ? await res.text() : '', 'text/html');
  };
  // 403: the visitor's cookie was made or changed in another tab (a +1, a confirmed address)
  // after this page was shown, so its CSRF token is not theirs; with their token read again, the
  // request (which changed nothing) is sent once more
  const post = async (send) => {
    const res = await send();
    if (res.status !== 403) return res;
    const csrf = (await readPage()).querySelector('input[name="csrf"]')?.value;
    if (!csrf) return res;
    setCsrf(csrf);
    return send();
  };

  for (const form of document.querySelectorAll('form[data-plus-one]')) {
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const button = form.querySelector('button');
      if (isBusy(button)) return;
      busy(button, true);
      const was = button.getAttribute('aria-pressed') === 'true';
      try {
        const res = await post(() =>
          fetch(form.action, {
            method: 'POST',
            headers: { Accept: 'application/json' },
            body: new URLSearchParams({
              ...Object.fromEntries(new FormData(form)),
              given: button.getAttribute('aria-pressed'),
            }),
          }),
        );
        if (!res.ok) return notify(await failure(res));
        notify('');
        const answer = await res.json();
        setCsrf(answer.csrf);
        button.setAttribute('aria-pressed', String(answer.plusOned));
        button.querySelector('.count').textContent = String(answer.plusOneCount);
        const unit = button.querySelector('.count + .visually-hidden');
        if (unit) unit.textContent = answer.plusOneCount === 1 ? ' vote' : ' votes';
        // only what happened is said
        if (answer.plusOned === was) announce('Nothing changed');
        else announce(answer.plusOned ? '+1 added' : '+1 withdrawn');
      } catch {
        notify('No connection; try again.');
      } finally {
        busy(button, false);
      }
    });
  }

  const capture = document.querySelector('form[data-capture]');
  if (!capture) return;
  const status = capture.querySelector('.form-status');
  const say = (text) => {
    status.textContent = text;
  };
  const title = capture.querySelector('#capture-title');
  const box = capture.querySelector('.suggestions');
  const list = box.querySelector('ul');
  let timer = 0;
  let asked = '';
  // the title is described by the suggestions only while they are shown
  const show = (on) => {
    box.hidden = !on;
    if (on) title.setAttribute('aria-describedby', 'suggestions-heading');
    else title.removeAttribute('aria-describedby');
  };
  // a form token is good for 2 days: in a board left open longer, the visitor starting on the
  // form gets fresh tokens (the board's own page, read again), before they send what they type
  let renewedAt = Date.now();
  let renewing = false;
  const renew = async () => {
    if (renewing || Date.now() - renewedAt < 864e5) return;
    renewing = true;
    try {
      const page = await readPage();
      const token = page.querySelector('form[data-capture] input[name="formToken"]');
      if (!token) return;
      capture.querySelector('input[name="formToken"]').value = token.value;
      setCsrf(page.querySelector('input[name="csrf"]').value);
      renewedAt = Date.now();
    } catch {
    } finally {
      renewing = false;
    }
  };
  capture.addEventListener('focusin', renew);
  capture.addEventListener('input', renew);
  capture.addEventListener('submit', async (event) => {
    event.preventDefault();
    const button = capture.querySelector('button[type="submit"]');
    if (isBusy(button)) return;
    busy(button, true);
    try {
      const res = await post(() =>
        fetch(capture.action, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
          body: JSON.stringify(Object.fromEntries(new FormData(capture))),
        }),
      );
      if (!res.ok) return say(await failure(res));
      const answer = await res.json();
      setCsrf(answer.csrf);
      title.value = '';
      capture.querySelector('#capture-body').value = '';
      // the suggestions were for the title just posted: gone with it
      clearTimeout(timer);
      asked = '';
      show(false);
      status.textContent = 'Thanks! Your feedback is posted: ';
      const link = document.createElement('a');
      link.href = answer.url;
      link.textContent = answer.title;
      link.dir = 'auto';
      status.append(link);
    } catch {
      say('No connection; try again.');
    } finally {
      busy(button, false);
    }
  });

  title.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const q = title.value.trim();
      if (q === asked) return;
      asked = q;
      if (q.length < 3) {
        show(false);
        return;
      }
      try {
        const res = await fetch(`${capture.dataset.suggest}?q=${encodeURIComponent(q)}`, {
          headers: { Accept: 'application/json' },
        });
        if (!res.ok || q !== asked) return;
        const { items } = await res.json();
        list.replaceChildren(
          ...items.map((item) => {
            const li = document.createElement('li');
            const a = document.createElement('a');
            a.href = item.url;
            a.textContent = item.title;
            a.dir = 'auto';
            // the ▲ is drawn, not read out: "3 votes", as on the +1 buttons
            const arrow = document.createElement('span');
            arrow.ariaHidden = 'true';
            arrow.textContent = '▲';
            const unit = document.createElement('span');
            unit.className = 'visually-hidden';
            unit.textContent = item.plusOneCount === 1 ? ' vote' : ' votes';
            li.append(a, ` (${item.statusLabel}, `, arrow, ` ${item.plusOneCount}`, unit, ')');
            return li;
          }),
        );
        show(items.length > 0);
        if (items.length)
          announce(`${items.length} similar ${items.length === 1 ? 'item' : 'items'} found`);
      } catch {}
    }, 250);
  });
})();
