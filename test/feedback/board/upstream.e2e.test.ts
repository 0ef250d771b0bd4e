/**
 * A board visitor signs in with the upstream OpenID provider (issue 12 item 2: "`google` tier
 * through the upstream OpenID provider when configured") — against a real provider (a second
 * node-oidc-provider on 127.0.0.1), driven over HTTP with one cookie jar per origin.
 */
import { expect } from 'chai';
import {
  Browser,
  startUpstream,
  type Upstream,
  upstreamAction,
} from '../../auth/support/upstream.js';
import type { Api } from '../support/harness.js';
import { type BoardWorld, field, fillTime, startBoardWorld } from './support.js';

const items = '/v1/workspaces/acme-co/products/APP/items';

describe('Board visitors signing in with the upstream provider (e2e)', () => {
  let upstream: Upstream;
  let world: BoardWorld;
  let owner: Api;

  before(async () => {
    upstream = await startUpstream();
    world = await startBoardWorld({
      UPSTREAM_OIDC_ISSUER: upstream.base,
      UPSTREAM_OIDC_CLIENT_ID: 'feedback-board',
      UPSTREAM_OIDC_CLIENT_SECRET: 'upstream-secret',
    });
    await upstream.provide(`${world.fb.url}/_board/upstream/callback`);
    owner = world.fb.api(world.owner.token);
  });
  after(async () => {
    await world.fb.stop();
    await upstream.close();
  });

  /**
   * from the board's identity page through the upstream and back (`stop`: up to the redirect to
   * a URL it picks, not followed)
   */
  async function signIn(login: string, stop?: (url: URL) => boolean) {
    const browser = new Browser();
    const board = `${world.fb.url}${world.boardPath}`;
    const identity = await browser.go(`${board}/identity`);
    const html = await identity.text();
    expect(html).to.include(`Sign in with 127.0.0.1:${new URL(upstream.base).port}`);
    const posted = await browser.go(`${board}/identity/upstream`, { csrf: field(html, 'csrf') });
    let { res, url } = await browser.follow(posted, board);
    expect(new URL(url).origin, 'the button leads to the upstream').to.equal(upstream.base);
    for (let step = 0; step < 4 && new URL(url).origin === upstream.base; step++) {
      const page = await res.text();
      const form: Record<string, string> = page.includes('name="login"')
        ? { prompt: 'login', login, password: 'any' }
        : { prompt: 'consent' };
      const sent = await browser.go(upstreamAction(page, url), form);
      ({ res, url } = await browser.follow(sent, url, stop));
    }
    return { browser, res, url, board, posted };
  }

  it("carries a strict CSP on both of the board's redirects, to the upstream and back", async () => {
    // task: "every redirect kind (301 canonical, 302/303 after forms, sign-in/out) carries the
    // header": Express writes a body under each redirect
    const bare = "default-src 'none'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";
    const callback = (url: URL) => url.pathname === '/_board/upstream/callback';
    const { browser, url, posted } = await signIn('ada', callback);
    expect(posted.status).to.equal(303);
    expect(posted.headers.get('content-security-policy')).to.equal(bare);
    const back = await browser.go(url);
    expect(back.status).to.equal(303);
    expect(back.headers.get('content-security-policy')).to.equal(bare);
  });

  it('files as tier google with the verified upstream address', async () => {
    const { browser, res, url, board } = await signIn('ada');
    expect(url).to.equal(board);
    const page = await res.text();
    expect(page).to.include('ada@upstream.test');
    const formToken = field(page, 'formToken');
    const csrf = field(page, 'csrf');
    fillTime(world);
    const filed = await browser.go(`${world.fb.url}/capture/acme-co/APP`, {
      formToken,
      csrf,
      body: 'Filed after signing in upstream',
    });
    expect(filed.status).to.equal(303);
    const key = filed.headers.get('location')!.split('/').pop()!;
    const item = (await owner.get(`${items}/${key}`)).body;
    expect(item.item.author.tier).to.equal('google');
    const person = (
      await owner.get(`/v1/workspaces/acme-co/people/${item.participants[0].personId}`)
    ).body;
    expect(person.email).to.equal('ada@upstream.test');
  });

  it('refuses an upstream account without a verified address, and a callback nobody started here', async () => {
    const { res } = await signIn('eve');
    expect(res.status).to.equal(400);
    expect(await res.text()).to.include('did not share a verified e-mail address');
    const forged = await fetch(`${world.fb.url}/_board/upstream/callback?code=x&state=forged`, {
      redirect: 'manual',
    });
    expect(forged.status).to.equal(400);
    // the board's 400 page says it as a sentence, capitalized (respond.ts asSentence)
    expect(await forged.text()).to.include('This sign-in has expired');
  });
});
