/** Pieces several board pages share: status badges, the +1 button, the capture form. */
import type { ItemStatus } from '../../../../commands/item/index.js';

export const STATUS_LABEL: Record<ItemStatus, string> = {
  new: 'New',
  planned: 'Planned',
  'in-progress': 'In progress',
  shipped: 'Shipped',
  declined: 'Declined',
};

export function Status(props: { status: ItemStatus }) {
  return <span class={`status status-${props.status}`}>{STATUS_LABEL[props.status]}</span>;
}

/**
 * A moment as every board page shows it: its date in UTC, and said to be UTC — a page is the
 * same for every visitor (cached for all who have no cookie), so the server cannot know their
 * time zone, and a bare UTC date is a day off for half the world. board.js rewrites it in the
 * visitor's own time zone and locale; the `datetime` attribute keeps the exact instant.
 */
export function DateShown(props: { ms: number }) {
  const iso = new Date(props.ms).toISOString();
  return <time dateTime={iso}>{iso.slice(0, 10)} UTC</time>;
}

/** What a form posted with the visitor's cookie carries (CSRF, issue 12 item 6). */
export interface FormAuth {
  csrf: string;
}

/** The visitor's CSRF token, in every cookie-authenticated form. */
export function CsrfField(props: { auth: FormAuth }) {
  return <input type="hidden" name="csrf" value={props.auth.csrf} />;
}

/** A refusal shown on a form page (read out at once). */
export function Alert(props: { message?: string }) {
  return props.message ? (
    <p class="error" role="alert">
      {props.message}
    </p>
  ) : null;
}

export function PlusOneButton(props: {
  action: string;
  count: number;
  given: boolean;
  /** the visitor submitted the item: their request already counts, so there is no button */
  own: boolean;
  title: string;
  auth: FormAuth;
  /** where a form without JavaScript returns: the board, or the item page */
  back: 'board' | 'item';
  /** the board's query string to return to (`back: board`) */
  query?: string;
}) {
  const { count, given } = props;
  const votes = (
    <>
      <span aria-hidden="true">▲</span> <span class="count">{count}</span>
      <span class="visually-hidden"> {count === 1 ? 'vote' : 'votes'}</span>
    </>
  );
  if (props.own) {
    return (
      <p class="plus-one own">
        <span class="votes">{votes}</span>
        <span class="own-label">Your feedback</span>
      </p>
    );
  }
  return (
    <form method="post" action={props.action} class="plus-one" data-plus-one="">
      <CsrfField auth={props.auth} />
      <input type="hidden" name="back" value={props.back} />
      {props.query ? <input type="hidden" name="query" value={props.query} /> : null}
      {/* what the button shows, so a press from an older page does what it shows (board.js
          sends its aria-pressed instead) */}
      <input type="hidden" name="given" value={given ? 'true' : 'false'} />
      <button type="submit" aria-pressed={given ? 'true' : 'false'}>
        <span class="visually-hidden">+1 {props.title}: </span>
        {votes}
      </button>
    </form>
  );
}

/** What the visitor typed into a capture form the board refused, shown again with the reason. */
export interface CaptureRefusal {
  /** the kind of refusal ("Slow down a little") */
  headline: string;
  message: string;
  title: string;
  body: string;
  displayName: string;
}

export interface CaptureFormProps {
  action: string;
  auth: FormAuth;
  formToken: string;
  /**
   * the address the visitor proved, shown in the box. The box asks for no address of its own: a
   * typed one is never written to (README "Visitors") and would file the item as another person
   * than the visitor's cookie, whose own item and +1s the board then could not tell apart
   */
  visitorEmail: string | null;
  identityUrl: string;
  /** where the suggestions come from while a title is typed (board.js) */
  suggestUrl: string;
  refusal?: CaptureRefusal;
}

export function CaptureForm(props: CaptureFormProps) {
  const typed = props.refusal;
  return (
    <form
      method="post"
      action={props.action}
      class="capture"
      data-capture=""
      data-suggest={props.suggestUrl}
    >
      <h2 id="capture-heading">Share an idea or a problem</h2>
      <Alert message={typed?.message} />
      <CsrfField auth={props.auth} />
      <input type="hidden" name="formToken" value={props.formToken} />
      <label for="capture-title">Title</label>
      {/* aria-describedby is set by board.js only while suggestions are shown */}
      <input
        id="capture-title"
        name="title"
        maxLength={200}
        autocomplete="off"
        dir="auto"
        value={typed?.title}
      />
      <section class="suggestions" aria-labelledby="suggestions-heading" hidden>
        <h3 id="suggestions-heading">Already asked? Add your +1 instead</h3>
        <ul />
      </section>
      <label for="capture-body">Details</label>
      <textarea id="capture-body" name="body" required maxLength={5000} rows={4} dir="auto">
        {typed?.body}
      </textarea>
      <div class="hp" aria-hidden="true">
        <label for="capture-website">Leave this empty</label>
        <input id="capture-website" name="website" tabIndex={-1} autocomplete="off" />
      </div>
      <label for="capture-name">Your name (optional)</label>
      <input
        id="capture-name"
        name="displayName"
        maxLength={100}
        autocomplete="name"
        dir="auto"
        value={typed?.displayName}
      />
      {props.visitorEmail ? (
        <p class="muted">
          Confirmed as <strong>{props.visitorEmail}</strong>: you hear when it ships; the board
          shows your name above, or “Anonymous”, never your address.{' '}
          <a href={props.identityUrl}>Not you? Sign out</a>
        </p>
      ) : (
        <p class="muted">
          Posting anonymously. <a href={props.identityUrl}>Confirm your e-mail address</a> to be
          told when it ships.
        </p>
      )}
      <button type="submit">Post feedback</button>
      <p class="form-status" role="status" />
    </form>
  );
}
