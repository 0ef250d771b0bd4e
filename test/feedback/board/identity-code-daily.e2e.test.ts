/**
 * The daily bound on codes mailed to one address, over both of the feedback service's sign-in
 * pages (src/auth/interaction/throttle.ts `codesPerAddressPerDay`). README (Security, Sign-in
 * throttles): "| codes sent to one address in a day | 20 per 24 hours, the OAuth sign-in and the
 * board's identity page together |" — 4 here. Without it one address could be sent 5 codes every
 * 15 minutes from each page, from as many IPs as a sender has: a mail bomb in the service's name.
 * A code that could not be sent gives its place back, as it does in the 15-minute count. The whole
 * feedback service over HTTP on 127.0.0.1; each client IP an X-Forwarded-For entry.
 */
import fs from 'node:fs';
import { expect } from 'chai';
import { registerClient } from '../../auth/support/client.js';
import { askForCode } from '../../auth/support/sign-in.js';
import { BoardVisitor, type BoardWorld, field, startBoardWorld } from './support.js';

const HOUR = 60 * 60 * 1000;
const from = (ip: string) => ({ 'x-forwarded-for': ip });

describe('When one address is sent codes from both sign-in pages through a day (e2e)', () => {
  let world: BoardWorld;
  let identity: string;
  before(async () => {
    world = await startBoardWorld({ TRUST_PROXY: 'true', SIGNIN_CODES_PER_ADDRESS_PER_DAY: '4' });
    identity = `${world.boardPath}/identity`;
  });
  after(() => world.fb.stop());

  /** a new board visitor at `ip` asks for a code to `email`: the answer */
  async function onBoard(email: string, ip: string) {
    const visitor = new BoardVisitor(world.fb.url);
    const page = await visitor.get(identity, from(ip));
    return visitor.post(identity, { csrf: field(page.text, 'csrf'), email }, { headers: from(ip) });
  }

  /** a new authorization request at `ip` asks the OAuth sign-in for a code to `email` */
  async function onSignIn(email: string, ip: string) {
    const server = { base: world.fb.url, mailboxPath: world.fb.mailboxPath };
    // a fresh client each time: one nobody approved lives 24 hours on the harness clock
    const { refused } = await askForCode(
      server,
      await registerClient(world.fb.url),
      email,
      from(ip),
    );
    return refused ?? { status: 303, headers: new Headers() };
  }

  /** the mail port fails while `act` runs (the dev mailbox a directory, a mail server down) */
  async function mailDown<T>(act: () => Promise<T>): Promise<T> {
    const mailbox = world.fb.mailboxPath;
    fs.renameSync(mailbox, `${mailbox}.kept`);
    fs.mkdirSync(mailbox);
    try {
      return await act();
    } finally {
      fs.rmdirSync(mailbox);
      fs.renameSync(`${mailbox}.kept`, mailbox);
    }
  }

  it('refuses the 5th code of the day from another IP, on either page, with Retry-After', async () => {
    const email = 'victim@customer.example';
    expect((await onBoard(email, '203.0.113.1')).status).to.equal(303);
    expect((await onSignIn(email, '198.51.100.1')).status).to.equal(303);
    world.fb.clock.advance(HOUR); // out of every 15-minute window, inside the day
    expect((await onBoard(email, '192.0.2.1')).status).to.equal(303);
    expect((await onSignIn(email, '203.0.113.99')).status).to.equal(303);

    const onPage = await onSignIn(email, '198.51.100.77');
    expect(onPage.status).to.equal(429);
    // the wait is until the first code, an hour ago, is a day old
    expect(Number(onPage.headers.get('retry-after'))).to.be.within(22 * 3600, 23 * 3600 + 60);
    const board = await onBoard(email, '192.0.2.77');
    expect(board.status).to.equal(429);
    expect(board.text).to.include('Too many codes; try again in');
    expect(Number(board.headers.get('retry-after'))).to.be.within(22 * 3600, 23 * 3600 + 60);
    // another address is not held back
    expect((await onBoard('someone@customer.example', '192.0.2.77')).status).to.equal(303);

    world.fb.clock.advance(23 * HOUR); // the first two codes are a day old
    expect((await onBoard(email, '203.0.113.5')).status).to.equal(303);
  });

  it("gives a code that could not be sent its place back in the address's day", async () => {
    const email = 'unlucky@customer.example';
    const failed = await mailDown(async () => [
      (await onBoard(email, '203.0.113.11')).status,
      (await onSignIn(email, '198.51.100.11')).status,
      (await onBoard(email, '192.0.2.11')).status,
    ]);
    expect(failed).to.deep.equal([503, 503, 503]);
    world.fb.clock.advance(HOUR);
    const sent = [
      (await onSignIn(email, '203.0.113.12')).status,
      (await onBoard(email, '198.51.100.12')).status,
    ];
    world.fb.clock.advance(HOUR);
    sent.push(
      (await onSignIn(email, '192.0.2.12')).status,
      (await onBoard(email, '192.0.2.13')).status,
    );
    sent.push((await onSignIn(email, '203.0.113.14')).status);
    expect(sent).to.deep.equal([303, 303, 303, 303, 429]);
  });
});
