/** Server-rendered sign-in and consent pages. Every interpolated value goes through `esc`. */

export function esc(value: unknown): string {
  return String(value)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#222}
label,input,button{display:block;width:100%;box-sizing:border-box;margin:.4rem 0}input,button{padding:.6rem;font-size:1rem}
.error{color:#b00020}.muted{color:#666;font-size:.9rem}ul{padding-left:1.2rem}form.inline{display:inline}</style>
</head><body>${body}</body></html>`;
}

/** The redirect's host, before the person decides: the client's name is only its own claim. */
const returnsTo = (destination: string | null) =>
  destination
    ? `<p class="muted" id="destination">It will send you back to <strong>${esc(destination)}</strong>. Continue only if you trust that address.</p>`
    : '';

const csrfField = (csrf: string) => `<input type="hidden" name="csrf" value="${esc(csrf)}">`;

export interface SignInView {
  serviceName: string;
  clientName: string;
  /** where the authorization returns (destination.ts); null when the request named none */
  destination: string | null;
  action: string;
  csrf: string;
  error?: string;
  upstream?: { name: string; action: string };
}

export function renderEmailForm(v: SignInView): string {
  const upstream = v.upstream
    ? `<form method="post" action="${esc(v.upstream.action)}">${csrfField(v.csrf)}
<button type="submit" id="upstream">Sign in with ${esc(v.upstream.name)}</button></form><p class="muted">or with your e-mail address:</p>`
    : '';
  return page(
    `Sign in to ${v.serviceName}`,
    `<h1>Sign in to ${esc(v.serviceName)}</h1>
<p><strong>${esc(v.clientName)}</strong> wants to connect to your account.</p>
${returnsTo(v.destination)}
${v.error ? `<p class="error" role="alert">${esc(v.error)}</p>` : ''}${upstream}
<form method="post" action="${esc(v.action)}">${csrfField(v.csrf)}
<label for="email">E-mail address</label><input id="email" name="email" type="email" required autocomplete="email">
<button type="submit">Send me a sign-in code</button></form>`,
  );
}

export function renderCodeForm(v: SignInView & { email: string }): string {
  return page(
    `Enter your code`,
    `<h1>Check your e-mail</h1><p>We sent a 6-digit code to <strong>${esc(v.email)}</strong>. It is valid for 10 minutes.</p>
${v.error ? `<p class="error" role="alert">${esc(v.error)}</p>` : ''}
<form method="post" action="${esc(v.action)}">${csrfField(v.csrf)}
<label for="code">Sign-in code</label><input id="code" name="code" inputmode="numeric" maxlength="100" required autocomplete="one-time-code">
<button type="submit">Sign in</button></form>`,
  );
}

export function renderConsent(v: {
  serviceName: string;
  clientName: string;
  destination: string | null;
  email: string | null;
  scopes: string[];
  approveAction: string;
  denyAction: string;
  csrf: string;
}): string {
  const items = v.scopes.map((s) => `<li>${esc(s)}</li>`).join('');
  return page(
    `Allow ${v.clientName}?`,
    `<h1>Allow <span id="client-name">${esc(v.clientName)}</span> to access ${esc(v.serviceName)}?</h1>
${v.email ? `<p class="muted">Signed in as ${esc(v.email)}</p>` : ''}
<p>It will be able to:</p><ul id="scopes">${items}</ul>
${returnsTo(v.destination)}
<form method="post" action="${esc(v.approveAction)}">${csrfField(v.csrf)}<button type="submit" id="approve">Allow</button></form>
<form method="post" action="${esc(v.denyAction)}">${csrfField(v.csrf)}<button type="submit" id="deny">Deny</button></form>`,
  );
}

export function renderErrorPage(error: string, description: string): string {
  return page(
    'Sign-in problem',
    `<h1>Something went wrong</h1><p class="error">${esc(error)}</p><p>${esc(description)}</p>`,
  );
}

/**
 * An authorization error of a client nobody approved (error-redirects.ts): shown, not redirected,
 * with the way back as a link the person chooses to follow.
 */
export function renderHeldError(
  error: string,
  description: string,
  location: string,
  destination: string,
): string {
  return page(
    'Sign-in problem',
    `<h1>Something went wrong</h1><p class="error">${esc(error)}</p><p>${esc(description)}</p>
<p>The app asked to be sent back to <strong>${esc(destination)}</strong>. No one has approved this app here, so you are not sent there on your own: <a id="back" href="${esc(location)}" rel="noreferrer">go back to the app</a> only if you trust that address.</p>`,
  );
}

/** HTTP 429 page of the sign-in throttles: what happened and when to try again. */
export function renderThrottled(reason: string, retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  const wait = minutes <= 1 ? 'a minute' : `${minutes} minutes`;
  return page(
    'Too many attempts',
    `<h1>Too many attempts</h1><p class="error" role="alert">${esc(reason)}</p>
<p>For your account's safety, sign-in is paused. Try again in ${esc(wait)}.</p>`,
  );
}

export function renderMailbox(
  messages: Array<{ to: string; subject: string; text: string; sentAt: string }>,
): string {
  const rows = messages
    .map(
      (m) =>
        `<li><p><strong>${esc(m.subject)}</strong> to ${esc(m.to)} <span class="muted">${esc(m.sentAt)}</span></p><pre>${esc(m.text)}</pre></li>`,
    )
    .join('');
  return page(
    'Dev mailbox',
    `<h1>Dev mailbox</h1><p class="muted">Messages the service would have e-mailed, newest first.</p><ul>${rows || '<li>No messages yet.</li>'}</ul>`,
  );
}
