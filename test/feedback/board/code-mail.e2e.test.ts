/**
 * The board's confirmation-code mail goes to any address a visitor types, so its subject is the
 * service's own words whatever a maker named the product (src/feedback/board/code-mail.ts), as
 * the sign-in mail's is ("Your Feedback board sign-in code: …"). Before, the subject was "Your
 * code for <product name> feedback": a product named "Your bank account is locked — call …" put
 * a maker's sentence in the subject of mail the service sends. The product's name is in the body
 * only: quoted, on one line, without bidirectional marks, at most 60 characters. The whole
 * feedback service over HTTP on 127.0.0.1, its dev mailbox read as sent.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { BoardVisitor, type BoardWorld, field, startBoardWorld } from './support.js';

/** accepted as a product name: no control characters, but a line separator and a bidi mark */
const LURE =
  'Your bank account is locked\u2028call +1 555 0100 now, or it closes today\u200F for good';

describe("The board's confirmation-code mail (e2e)", () => {
  let world: BoardWorld;
  before(async () => {
    world = await startBoardWorld();
    await world.fb.createProduct(world.ws, { key: 'BANK', name: LURE, visibility: 'public' });
  });
  after(() => world.fb.stop());

  /** asks for a code on the board of `key` and answers the mail sent */
  async function codeMailOf(key: string, email: string) {
    const identity = `/acme-co/${key}/identity`;
    const v = new BoardVisitor(world.fb.url);
    const form = await v.get(identity);
    const sent = await v.post(identity, { csrf: field(form.text, 'csrf'), email });
    expect(sent.status, sent.text).to.equal(303);
    const mails = readFileSync(world.fb.mailboxPath, 'utf8').trim().split('\n');
    const mail = mails
      .map((line) => JSON.parse(line) as { to: string; subject: string; text: string })
      .findLast((m) => m.to === email);
    expect(mail, `a mail to ${email}`).to.not.equal(undefined);
    return mail!;
  }

  it("says the service's words in the subject, whatever the product is called", async () => {
    for (const [key, email] of [
      ['BANK', 'lured@customer.example'],
      ['APP', 'plain@customer.example'],
    ]) {
      const mail = await codeMailOf(key!, email!);
      const code = /\b(\d{6})\b/.exec(mail.text)![1];
      expect(mail.subject, key).to.equal(`Your Feedback board confirmation code: ${code}`);
    }
  });

  it('names the product in the body only, quoted on one line and cut at 60 characters', async () => {
    const mail = await codeMailOf('BANK', 'body@customer.example');
    expect(mail.text).to.match(/^Your code is \d{6}\. It is valid for 10 minutes\.\n\n/);
    expect(mail.text).to.include(
      'on the feedback board of the product named “Your bank account is locked call +1 555 0100 now, or it clos…”.',
    );
    expect(mail.text).to.not.match(/[\u2028\u2029\u200E\u200F\u202A-\u202E\u2066-\u2069]/);
    expect(mail.text).to.not.include('for good');
  });
});
