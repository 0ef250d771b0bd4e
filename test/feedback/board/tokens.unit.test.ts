/**
 * The board's signed values (src/feedback/board/tokens.ts): issue 12 items 2, 5 and 6 — a
 * visitor identity nobody can forge or edit, a CSRF token bound to the visitor, and a form token
 * whose time is never earlier than the form was really shown (the minimum fill time holds).
 */
import { expect } from 'chai';
import { createBoardTokens } from '../../../src/feedback/board/tokens.js';

describe('Board tokens (unit)', () => {
  let now = 1_700_000_000_123;
  const tokens = createBoardTokens('a'.repeat(32), () => now);
  const other = createBoardTokens('b'.repeat(32), () => now);

  it('opens a visitor it sealed, and nothing edited, forged or sealed under another secret', () => {
    const visitor = { id: 'v1', email: 'kim@customer.example' };
    const sealed = tokens.sealVisitor(visitor);
    expect(tokens.openVisitor(sealed)).to.deep.equal(visitor);
    const [payload, signature] = sealed.split('.');
    const claimed = Buffer.from(JSON.stringify({ v: 'v1', e: 'boss@acme.io' })).toString(
      'base64url',
    );
    expect(tokens.openVisitor(`${claimed}.${signature}`)).to.equal(null);
    expect(tokens.openVisitor(`${payload}.${signature}x`)).to.equal(null);
    expect(other.openVisitor(sealed)).to.equal(null);
    expect(tokens.openVisitor(undefined)).to.equal(null);
    expect(tokens.openVisitor('x'.repeat(5000))).to.equal(null);
  });

  it('binds the CSRF token to one visitor', () => {
    const a = tokens.newVisitor();
    const b = tokens.newVisitor();
    expect(a.id).to.not.equal(b.id);
    expect(tokens.checkCsrf(a, tokens.csrf(a))).to.equal(true);
    expect(tokens.checkCsrf(a, tokens.csrf(b))).to.equal(false);
    expect(tokens.checkCsrf(a, undefined)).to.equal(false);
  });

  it('stamps a form no earlier than it was shown, for one product and one source', () => {
    const form = tokens.form('board', 'ws1.APP');
    const stamp = tokens.openForm(form, 'ws1.APP')!;
    expect(stamp.source).to.equal('board');
    // signed once a second, stamped with the second's last millisecond: never more lenient
    expect(stamp.issuedAt).to.be.at.least(now);
    expect(stamp.issuedAt - now).to.be.below(1000);
    expect(tokens.openForm(form, 'ws1.SEC')).to.equal(null);
    // the token is in public pages: it names the product without its workspace's internal id
    const payload = Buffer.from(form.split('.')[0]!, 'base64url').toString('utf8');
    expect(payload).to.not.include('ws1');
    now += 1500;
    const later = tokens.openForm(tokens.form('widget', 'ws1.APP'), 'ws1.APP')!;
    expect(later.source).to.equal('widget');
    expect(later.issuedAt).to.be.at.least(now);
  });
});
