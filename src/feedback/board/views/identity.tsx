/**
 * Confirming an e-mail address (issue 12 item 2): the visitor gives an address, a 6-digit code
 * is sent to it, and only the right code makes the visitor tier `email`. Typing an address
 * proves nothing.
 */
import { type BoardNav, Layout } from './layout.js';
import { Alert, CsrfField, type FormAuth } from './parts.js';

export function EmailForm(v: {
  nav: BoardNav;
  action: string;
  auth: FormAuth;
  error?: string;
  /** what the visitor typed, when the address was refused */
  typed?: string;
  /** the upstream OpenID provider's name, when one is configured */
  upstream?: string | null;
  /** the address the visitor already confirmed, which they may drop (sign out) */
  confirmed?: string | null;
  signOutAction: string;
}) {
  return (
    <Layout title="Confirm your e-mail address" nav={v.nav}>
      <h1>Confirm your e-mail address</h1>
      {/* what a confirmed address changes, and what it does not: the board shows an item's
          author by the display name given with it, or "Anonymous" (views/item.tsx), never an
          address (README "Visitors") */}
      <p>
        We send a code to the address; once you enter it, you hear when your feedback ships. The
        board never shows your address: your feedback is shown with the name you give when you post
        it, or as “Anonymous”.
      </p>
      <Alert message={v.error} />
      {v.confirmed ? (
        <form method="post" action={v.signOutAction}>
          <CsrfField auth={v.auth} />
          <p>
            Confirmed as <strong>{v.confirmed}</strong> (only you see it).{' '}
            <button type="submit">Sign out</button>
          </p>
        </form>
      ) : null}
      {v.upstream ? (
        <>
          <form method="post" action={`${v.action}/upstream`}>
            <CsrfField auth={v.auth} />
            <button type="submit">Sign in with {v.upstream}</button>
          </form>
          <p class="muted">or confirm an address with a code:</p>
        </>
      ) : null}
      <form method="post" action={v.action}>
        <CsrfField auth={v.auth} />
        <label for="email">E-mail address</label>
        <input
          id="email"
          name="email"
          type="email"
          required
          maxLength={254}
          autocomplete="email"
          value={v.typed}
        />
        <button type="submit">Send me a code</button>
      </form>
    </Layout>
  );
}

export function CodeForm(v: {
  nav: BoardNav;
  action: string;
  auth: FormAuth;
  email: string;
  /** the address form again, to send a code to another address */
  anotherUrl: string;
  error?: string;
}) {
  return (
    <Layout title="Enter your code" nav={v.nav}>
      <h1>Check your e-mail</h1>
      <p>
        We sent a 6-digit code to <strong>{v.email}</strong>. It is valid for 10 minutes.
      </p>
      <Alert message={v.error} />
      <form method="post" action={v.action}>
        <CsrfField auth={v.auth} />
        <label for="code">Code</label>
        {/* no pattern and no 6-character cut (auth/interaction/email-code.ts codeDigits) */}
        <input
          id="code"
          name="code"
          inputMode="numeric"
          maxLength={100}
          required
          autocomplete="one-time-code"
        />
        <button type="submit">Confirm</button>
      </form>
      <p class="muted">
        Wrong address, or no code? <a href={v.anotherUrl}>Ask for a new code</a>
      </p>
    </Layout>
  );
}
