/**
 * The configuration keys that bound what callers may do: sign-in codes and lockouts, OAuth
 * client registrations and authorizations, search budgets, webhooks and their resends, notes'
 * tags and devices, and the public board's submissions, +1s, searches and codes. Part of
 * configSchema (schema.ts); README's Configuration table names them all.
 */
import { count, whole } from './values.js';

export const limitKeys = {
  SIGNIN_CODES_PER_ADDRESS: count(1000)
    .default(5)
    .describe(
      'sign-in codes sent to one e-mail address per SIGNIN_CODE_WINDOW_MINUTES (sliding); from 1 to 1000',
    ),
  SIGNIN_CODES_PER_IP: count(10000)
    .default(20)
    .describe(
      'sign-in codes requested from one client IP per SIGNIN_CODE_WINDOW_MINUTES (sliding); from 1 to 10000',
    ),
  SIGNIN_CODE_WINDOW_MINUTES: count(24 * 60)
    .default(15)
    .describe('window of the two sign-in code limits above; from 1 to 1440'),
  SIGNIN_CODES_PER_ADDRESS_PER_DAY: count(10000)
    .default(20)
    .describe(
      "sign-in and confirmation codes sent to one e-mail address per 24 hours (sliding), all of one service's sign-in pages together (feedback: the OAuth sign-in and the board's identity page); from 1 to 10000",
    ),
  SIGNIN_WRONG_CODES_PER_ADDRESS: count(1000)
    .default(10)
    .describe(
      'wrong sign-in codes for one address per SIGNIN_WRONG_CODE_WINDOW_MINUTES before a lockout; from 1 to 1000',
    ),
  SIGNIN_WRONG_CODES_PER_IP: count(10000)
    .default(30)
    .describe(
      'wrong sign-in codes from one client IP per SIGNIN_WRONG_CODE_WINDOW_MINUTES before a lockout; from 1 to 10000',
    ),
  SIGNIN_WRONG_CODE_WINDOW_MINUTES: count(7 * 24 * 60)
    .default(60)
    .describe('window of the two wrong-code limits above; from 1 to 10080'),
  SIGNIN_LOCKOUT_MINUTES: count(7 * 24 * 60)
    .default(15)
    .describe(
      'first lockout after too many wrong codes (no code sent or accepted); each further one doubles; from 1 to 10080',
    ),
  SIGNIN_LOCKOUT_MAX_HOURS: count(30 * 24)
    .default(24)
    .describe(
      'longest lockout; a key without a lockout for this long starts again at the first; from 1 to 720',
    ),
  FEEDBACK_REGISTRATIONS_PER_IP: count(100000)
    .default(20)
    .describe(
      'feedback OAuth client registrations per client IP per FEEDBACK_REGISTRATION_WINDOW_MINUTES (sliding); from 1 to 100000',
    ),
  FEEDBACK_REGISTRATION_WINDOW_MINUTES: count(7 * 24 * 60)
    .default(10)
    .describe('window of the feedback registration limit; from 1 to 10080'),
  NOTES_REGISTRATIONS_PER_IP: count(100000)
    .default(30)
    .describe(
      'notes OAuth client registrations per client IP per NOTES_REGISTRATION_WINDOW_MINUTES (spec: 30 per hour); from 1 to 100000',
    ),
  NOTES_REGISTRATION_WINDOW_MINUTES: count(7 * 24 * 60)
    .default(60)
    .describe('window of the notes registration limit; from 1 to 10080'),
  OAUTH_UNUSED_CLIENT_HOURS: count(30 * 24)
    .default(24)
    .describe(
      'hours a dynamically registered OAuth client is kept while nobody has approved it (no grant); an approved client is kept until 30 days after its last grant ends; from 1 to 720',
    ),
  AUTHORIZATION_REQUESTS_PER_IP: count(1000000)
    .default(60)
    .describe(
      'OAuth authorization requests (/oauth/authorize and /oauth/par together) per client IP per AUTHORIZATION_WINDOW_MINUTES (sliding); from 1 to 1000000',
    ),
  AUTHORIZATION_WINDOW_MINUTES: count(7 * 24 * 60)
    .default(10)
    .describe('window of the authorization request limit; from 1 to 10080'),
  SEARCHES_PER_CALLER_BURST: count(100000)
    .default(30)
    .describe(
      'searches one caller (account, token or app) may send at once: search_items, search_people, summarize_feedback, search_notes and their MCP tools; from 1 to 100000',
    ),
  SEARCHES_PER_CALLER_PER_HOUR: count(10000000)
    .default(1200)
    .describe(
      "searches per hour one caller may send after the burst, refilled evenly; a `HEAD` of a search spends none (it answers the GET's status and headers, 200 or its 4xx, 429 once the budget is spent, without running the search), nor does a GET answered 304 for its `If-None-Match: *`; from 1 to 10000000",
    ),
  WEBHOOKS_PER_WORKSPACE: whole(1, 1000)
    .default(20)
    .describe(
      'most webhooks one workspace may have (every message fans out to each); create_webhook answers 409 past it; from 1 to 1000',
    ),
  NOTES_TAGS_PER_USER: whole(1, 100000)
    .default(1000)
    .describe(
      'most active tags one notes user may have (list_tags answers them all at once); creating another, by create_tag or by a note naming a new tag, answers 409 past it; deleted tags do not count; from 1 to 100000',
    ),
  NOTES_DEVICES_PER_USER: whole(1, 100000)
    .default(1000)
    .describe(
      'most devices one notes user may have (list_devices answers them all at once); registering another, by register_device or by a note naming a new device, answers 409 past it; from 1 to 100000',
    ),
  WEBHOOK_TESTS_PER_WEBHOOK_PER_MINUTE: whole(1, 1000)
    .default(5)
    .describe(
      'send_test_webhook and redeliver_webhook calls one webhook takes in any minute (sliding); past it 429 with Retry-After (the delivery log shows the first KB of what the target answers); from 1 to 1000',
    ),
  WEBHOOK_TESTS_PER_WORKSPACE_PER_MINUTE: whole(1, 10000)
    .default(20)
    .describe(
      'send_test_webhook and redeliver_webhook calls one workspace takes in any minute, over all its webhooks; and one account, over all its workspaces; from 1 to 10000',
    ),
  WEBHOOK_RECOVERED_PER_WEBHOOK_PER_MINUTE: whole(1, 10000)
    .default(100)
    .describe(
      'deliveries recover_webhook queues again for one webhook in any minute (sliding); past it a recover queues the oldest that fit and leaves the rest failed (`left`), and with no room answers 429 with Retry-After; from 1 to 10000',
    ),
  WEBHOOK_RECOVERED_PER_WORKSPACE_PER_MINUTE: whole(1, 100000)
    .default(200)
    .describe(
      'deliveries recover_webhook queues again for one workspace in any minute, over all its webhooks; and for one account, over all its workspaces; from 1 to 100000',
    ),
  CAPTURE_IP_BURST: count(100000)
    .default(10)
    .describe(
      'submissions from the board, the capture endpoint and the widget one client IP may send at once (submit_feedback counts per caller instead); from 1 to 100000',
    ),
  CAPTURE_IP_PER_HOUR: count(1000000)
    .default(60)
    .describe(
      'submissions per hour one client IP may send after its burst, refilled evenly (token bucket in the store, shared by every API process); from 1 to 1000000',
    ),
  CAPTURE_PERSON_BURST: count(100000)
    .default(5)
    .describe(
      'public submissions one visitor, or one submit_feedback caller outside the workspace, may send at once; from 1 to 100000',
    ),
  CAPTURE_PERSON_PER_HOUR: count(1000000)
    .default(30)
    .describe(
      'public submissions per hour one visitor or caller may send after the burst; from 1 to 1000000',
    ),
  CAPTURE_PRODUCT_BURST: count(1000000)
    .default(300)
    .describe(
      'public submissions one product takes at once from everyone together; from 1 to 1000000',
    ),
  CAPTURE_PRODUCT_PER_HOUR: count(10000000)
    .default(3000)
    .describe('public submissions per hour one product takes after the burst; from 1 to 10000000'),
  CAPTURE_MIN_FILL_SECONDS: whole(0, 600)
    .default(3)
    .describe(
      'a board or widget form sent sooner than this after it was shown is refused (bots; counted from the end of the second the form was made in, so up to one second more); from 0 to 600',
    ),
  CAPTURE_MAX_LINKS: whole(0, 100)
    .default(3)
    .describe('most links a public submission may hold; from 0 to 100'),
  PLUS_ONES_PER_IP_PER_HOUR: count(1000000)
    .default(300)
    .describe(
      'public board +1 toggles per client IP per hour (bursts of a tenth of it); from 1 to 1000000',
    ),
  PLUS_ONES_PER_IP_PER_ITEM_PER_DAY: count(100000)
    .default(10)
    .describe(
      'public board +1s one client IP may add to one item per day from visitors without a confirmed e-mail address (at once, then spread over the day); withdrawing and confirmed visitors take none; from 1 to 100000',
    ),
  BOARD_SEARCHES_PER_IP_BURST: count(100000)
    .default(60)
    .describe(
      "public board searches (a board page's ?q=, the suggestions while a title is typed) one client IP may send at once; each embeds its query; from 1 to 100000",
    ),
  BOARD_SEARCHES_PER_IP_PER_HOUR: count(1000000)
    .default(600)
    .describe(
      'public board searches per hour one client IP may send after its burst; from 1 to 1000000',
    ),
  BOARD_CODES_PER_VISITOR_BURST: count(1000)
    .default(3)
    .describe(
      'confirmation codes one board visitor may ask for at once on the identity page (the sign-in code limits per address and per IP apply too); from 1 to 1000',
    ),
  BOARD_CODES_PER_VISITOR_PER_HOUR: count(10000)
    .default(6)
    .describe(
      'confirmation codes per hour one board visitor may ask for after the burst; from 1 to 10000',
    ),
};
