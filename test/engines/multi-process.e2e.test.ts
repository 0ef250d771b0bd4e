/**
 * Issue 13: "A multi-process suite (child processes over real HTTP, 127.0.0.1): 2 API processes +
 * 1 projector + 1 webhook worker on the stand-ins" — the production shape over KurrentDB
 * (EVENTSTORE_URL) and MongoDB (MONGODB_URL): `start:api` twice, `start:projector`,
 * `start:webhooks`, each its own process. Runs only when both URLs are set (`npm run
 * test:engines`); skipped with the reason printed otherwise.
 */
import { type ChildProcess, execSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { MongoClient } from 'mongodb';
import { removeDir } from '../cli/support.js';
import { type Api as ApiClient, apiClient } from '../feedback/support/api.js';
import { FEEDBACK_LISTENING, STARTED, seedWithCli, startScript } from '../support/processes.js';
import { tempDir } from '../support/stores.js';

const eventStoreUrl = process.env.EVENTSTORE_URL;
const mongoUrl = process.env.MONGODB_URL;
// a KurrentDB keeps its log between runs: each run has its own workspace and maker
const RUN = randomUUID().slice(0, 8);
const SLUG = `engines-${RUN}`;
const EMAIL = `max-${RUN}@engines.example`;
const SUBMIT = `/v1/public/${SLUG}/APP/feedback`;
const ITEMS = `/v1/workspaces/${SLUG}/products/APP/items`;
const HOOKS = `/v1/workspaces/${SLUG}/webhooks`;
const MOST_WEBHOOKS = 3;

if (!eventStoreUrl || !mongoUrl) {
  describe('The production shape over KurrentDB and MongoDB (e2e, many processes)', () => {
    it('EVENTSTORE_URL and MONGODB_URL not both set: the multi-process suite is skipped', function () {
      console.log('    EVENTSTORE_URL and MONGODB_URL not both set: multi-process suite skipped');
      this.skip();
    });
  });
} else {
  describe('The production shape over KurrentDB and MongoDB (e2e, many processes)', function () {
    this.timeout(300_000);
    const database = `engines_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
    const dir = tempDir('engines-procs-');
    const env = {
      DATA_DIR: dir,
      EVENTSTORE_URL: eventStoreUrl,
      MONGODB_URL: mongoUrl,
      MONGODB_DATABASE: database,
      FEEDBACK_PORT: '0',
      NOTES_PORT: '0',
      LOG_LEVEL: 'info',
      DEV_MODE: 'true',
      // every process of a split deployment signs and seals with the same secret
      APP_SECRET: 'a-test-secret-shared-by-every-process-0123456789',
      PROJECTION_WAIT_MS: '2000',
      PROJECTOR_LEASE_MS: '3000',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOKS_PER_WORKSPACE: String(MOST_WEBHOOKS),
    };
    const children = new Set<ChildProcess>();
    let projector: ChildProcess;
    let a: ApiClient;
    let b: ApiClient;
    let killA: () => void;
    let itemKey: string;
    /** B's log lines that name a correlation id, so a failure shows what the server saw */
    let logOfB: (correlationId: string) => string;

    const startProjector = async () => {
      const child = await startScript('src/processes/projector.ts', env, STARTED);
      children.add(child);
      return child;
    };
    const startApi = async () => {
      const child = await startScript('src/processes/api.ts', env, FEEDBACK_LISTENING);
      children.add(child);
      return { child, url: FEEDBACK_LISTENING.exec(child.output)![1]! };
    };
    const allItems = async (api: ApiClient) => {
      const res = await api.get(`${ITEMS}?pageSize=200`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.items as { id: string; title: string }[];
    };

    before(async () => {
      const token = await seedWithCli(env, { email: EMAIL, slug: SLUG });
      projector = await startProjector();
      const [first, second] = await Promise.all([startApi(), startApi()]);
      children.add(await startScript('src/processes/webhooks.ts', env, /webhook worker/));
      a = apiClient(first.url, token);
      b = apiClient(second.url, token);
      killA = () => first.child.kill('SIGKILL');
      logOfB = (correlationId) =>
        second.child.output
          .split('\n')
          .filter((line) => line.includes(correlationId))
          .join('\n');
    });
    after(async () => {
      for (const child of children) child.kill('SIGKILL');
      const client = new MongoClient(mongoUrl);
      try {
        await client.db(database).dropDatabase();
      } finally {
        await client.close();
      }
      removeDir(dir);
    });

    it('shows a write answered by API process A at once through API process B', async () => {
      const created = await a.post(SUBMIT, { title: 'Across processes', body: 'Seen at once?' });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      itemKey = created.body.itemId;
      const seen = await b.get(`${ITEMS}/${created.body.itemId}`);
      expect(seen.status, JSON.stringify(seen.body)).to.equal(200);
      expect(seen.body.item.title).to.equal('Across processes');
      const moved = await a.post(`${ITEMS}/${created.body.itemId}/status`, { status: 'planned' });
      expect(moved.status).to.equal(200);
      expect((await b.get(`${ITEMS}/${created.body.itemId}`)).body.item.status).to.equal('planned');
    });

    it('holds the webhook limit and the same-body fold while both API processes write at once', async () => {
      // the rules span streams: each process's read models lag the other's writes, so they are
      // serialised through a stream of the store (the webhook roster, the product)
      const via = (i: number) => (i % 2 === 0 ? a : b);
      const made = await Promise.all(
        Array.from({ length: 8 }, (_, i) => via(i).post(HOOKS, { url: `http://127.0.0.1:9/${i}` })),
      );
      const created = made.filter((res) => res.status === 200);
      expect(made.map((res) => res.status).sort()).to.eql([200, 200, 200, 409, 409, 409, 409, 409]);
      for (const res of created) {
        expect((await a.del(`${HOOKS}/${res.body.webhook.id}`)).status).to.equal(204);
      }
      const sent = await Promise.all(
        Array.from({ length: 6 }, (_, i) => via(i).post(SUBMIT, { body: 'Sent through A and B' })),
      );
      expect(sent.map((res) => res.status)).to.eql([200, 200, 200, 200, 200, 200]);
      expect(new Set(sent.map((res) => res.body.itemId)).size).to.equal(1);
    });

    it('answers a clear 503 while the projector is down, and loses nothing once it is back', async () => {
      const before = (await allItems(b)).length;
      projector.kill('SIGKILL');
      await new Promise((resolve) => projector.once('exit', resolve));
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await b.post(SUBMIT, { body: `While down ${i}` }));
      for (const res of answers) {
        // the write is in the log; only its read-your-writes wait ran out (PROJECTION_WAIT_MS)
        expect([200, 503], JSON.stringify(res.body)).to.include(res.status);
        if (res.status === 503) expect(res.body.code).to.equal('resource-exhausted');
      }
      projector = await startProjector();
      const deadline = Date.now() + 60_000;
      let items = await allItems(b);
      while (items.length < before + 3 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        items = await allItems(b);
      }
      // nothing lost, nothing applied twice: one item per submission, keys dense and unique
      expect(items).to.have.length(before + 3);
      const numbers = items.map((item) => Number(item.id.split('-')[1])).sort((x, y) => x - y);
      expect(numbers).to.deep.equal(numbers.map((_, i) => i + 1));
    });

    it('keeps a second projector standing by, and lets it take over within seconds of a kill -9', async () => {
      // issue 13: "a second projector started beside the first stands by (a lease in the store)
      // and takes over within a few seconds when the first is killed; never two active at once"
      const standby = await startScript('src/processes/projector.ts', env, /"msg":"standing by/);
      children.add(standby);
      const visible = async (api: ApiClient, title: string, timeoutMs: number) => {
        const deadline = Date.now() + timeoutMs;
        while (Date.now() < deadline) {
          if ((await allItems(api)).some((item) => item.title === title)) return true;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        return false;
      };
      // the first still applies; the standby has taken nothing
      expect(
        (await b.post(SUBMIT, { title: 'Before the kill', body: 'first projector' })).status,
      ).to.equal(200);
      expect(await visible(a, 'Before the kill', 5_000)).to.equal(true);
      expect(standby.output).to.not.include('projector lease taken');
      const replies = async () =>
        (await b.get(`${ITEMS}/${itemKey}`)).body.item.replyCount as number;
      const repliesBefore = await replies();

      projector.kill('SIGKILL');
      await new Promise((resolve) => projector.once('exit', resolve));
      const killedAt = Date.now();
      const during = await b.post(SUBMIT, { title: 'After the kill', body: 'standby takes over' });
      expect(during.status, JSON.stringify(during.body)).to.be.oneOf([200, 503]);
      expect(await visible(b, 'After the kill', 15_000), 'the standby applies the write').to.equal(
        true,
      );
      const tookOver = Date.now() - killedAt;
      console.log(`      the standby applied the first write ${tookOver} ms after the kill`);
      expect(tookOver, 'takeover within the lease and a few seconds').to.be.below(3_000 + 6_000);
      expect(standby.output).to.include('projector lease taken');
      projector = standby;
      // nothing applied twice: one reply more is one more on the count
      expect(
        (await a.post(`${ITEMS}/${itemKey}/replies`, { body: 'counted once' })).status,
      ).to.equal(200);
      expect(await replies()).to.equal(repliesBefore + 1);
      const items = await allItems(a);
      expect(new Set(items.map((i) => i.id)).size).to.equal(items.length);
    });

    it('keeps serving on B when A is killed under load, with no acknowledged write lost', async () => {
      // replies, not submissions: submit_feedback is limited per caller (30 a minute)
      const acknowledged: string[] = [];
      let acknowledgedByA = 0;
      let failuresOnB = 0;
      const writer = async (api: ApiClient, n: number, onB: boolean) => {
        for (let i = 0; i < n; i++) {
          try {
            const res = await api.post(`${ITEMS}/${itemKey}/replies`, {
              body: `Load ${onB ? 'B' : 'A'} ${i}`,
            });
            if (res.status === 200) {
              acknowledged.push(res.body.replyId);
              if (!onB) acknowledgedByA++;
            } else if (onB) failuresOnB++;
          } catch (error) {
            if (onB) throw error; // A's connections die with it; B's must not
          }
        }
      };
      const load = Promise.all([
        writer(a, 40, false),
        writer(a, 40, false),
        writer(b, 40, true),
        writer(b, 40, true),
      ]);
      // A dies mid-load, once it has acknowledged writes: a fixed 500 ms was too short for its
      // first answer on a loaded machine (load average 19 on 2 cores), and the test then had no
      // write of A to check
      const deadline = Date.now() + 20_000;
      while (acknowledgedByA < 5 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      killA();
      await load;
      expect(failuresOnB).to.equal(0);
      const replies = await b.get(`${ITEMS}/${itemKey}/replies`);
      expect(replies.status).to.equal(200);
      const ids = new Set((replies.body.items as { id: string }[]).map((reply) => reply.id));
      expect(acknowledgedByA, 'writes A acknowledged before its kill').to.be.at.least(5);
      for (const id of acknowledged) expect(ids.has(id), id).to.equal(true);
    });

    // the stand-ins' MongoDB side is restarted by commands the operator gives (they need root):
    // e.g. MONGODB_STOP_CMD='kill $(cat /tmp/engines/mongo-gateway.pid)' and
    // MONGODB_START_CMD='bash ../shared/engines/up.sh'
    const stopCmd = process.env.MONGODB_STOP_CMD;
    const startCmd = process.env.MONGODB_START_CMD;
    it('reconnects by itself when the MongoDB side restarts under load: 200 or 503 meanwhile, never a 500, nothing acknowledged lost', async function () {
      // issue 13: "the stand-ins restarted (MongoDB side) under load: the processes reconnect by
      // themselves and resume"
      if (!stopCmd || !startCmd) {
        console.log('      MONGODB_STOP_CMD / MONGODB_START_CMD not set: restart case skipped');
        this.skip();
      }
      const acknowledged: string[] = [];
      const statuses: number[] = [];
      let running = true;
      const writer = async (n: number) => {
        for (let i = 0; running; i++) {
          const res = await b
            .post(`${ITEMS}/${itemKey}/replies`, { body: `Restart ${n}.${i}` })
            .catch(() => null);
          if (!res) continue;
          statuses.push(res.status);
          if (res.status === 200) acknowledged.push(res.body.replyId);
          else {
            const said = String(res.body.error ?? '').match(/correlation id (\S+) /)?.[1];
            expect(
              res.body.code,
              `${JSON.stringify(res.body)}\n${said ? logOfB(said) : ''}`,
            ).to.equal('resource-exhausted');
          }
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      const load = Promise.all([writer(1), writer(2), writer(3)]);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      execSync(stopCmd!, { stdio: 'ignore', shell: '/bin/bash' });
      // the outage is real: a client of its own cannot reach MongoDB now
      const probe = new MongoClient(mongoUrl, { serverSelectionTimeoutMS: 1_000 });
      const reached = await probe
        .db('admin')
        .command({ ping: 1 })
        .then(
          () => true,
          () => false,
        )
        .finally(() => probe.close());
      expect(reached, 'MongoDB still answered after MONGODB_STOP_CMD').to.equal(false);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      execSync(startCmd!, { stdio: 'ignore', shell: '/bin/bash' });
      const okBefore = acknowledged.length;
      const deadline = Date.now() + 60_000;
      while (acknowledged.length < okBefore + 10 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      running = false;
      await load;
      // every answer during the outage was 200 (the driver waits for the server up to its selection
      // timeout, so a request may outlast a short outage) or 503 (resource-exhausted, Retry-After)
      // — never 500
      expect(statuses.filter((status) => status !== 200 && status !== 503)).to.deep.equal([]);
      expect(acknowledged.length, 'writes succeed again after the restart').to.be.at.least(
        okBefore + 10,
      );
      const replies = await b.get(`${ITEMS}/${itemKey}/replies`);
      const ids = new Set((replies.body.items as { id: string }[]).map((reply) => reply.id));
      for (const id of acknowledged) expect(ids.has(id), id).to.equal(true);
    });
  });
}
