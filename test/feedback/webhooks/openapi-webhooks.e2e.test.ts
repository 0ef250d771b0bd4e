/**
 * README (Webhooks, "What you receive"): "`/v1/openapi.json` describes each type under
 * `webhooks`, OpenAPI 3.1's place for the requests a service sends: these headers and the
 * `WebhookMessage` schema". A receiver written from the document finds every message type there,
 * and what the service sends matches it: every header it lists, and a body its schema accepts,
 * the signature verifying with the `standardwebhooks` package. (The document's `webhooks` was
 * empty: to a receiver generated from it, the service sent nothing.)
 */
import Ajv2020 from 'ajv/dist/2020.js';
import { expect } from 'chai';
import { WEBHOOK_EVENT_TYPES } from '../../../commands/webhook/index.js';
import { verify } from './support/receiver.js';
import {
  hook,
  item,
  type Receiver,
  startWorldWith,
  stopWorld,
  submit,
  subscribe,
  type World,
} from './support/world.js';

interface HeaderParameter {
  name: string;
  in: string;
  required?: boolean;
  schema: { pattern?: string };
}

describe('The OpenAPI document describes the webhook messages a receiver gets (e2e)', () => {
  let world: World;
  let receiver: Receiver;
  let secret: string;
  let doc: any;

  before(async () => {
    [world, receiver] = await startWorldWith(1);
    const created = await subscribe(world, receiver);
    secret = created.secret;
    doc = (await world.fb.api().get('/v1/openapi.json')).body;
    const api = world.fb.api(world.owner.token);
    const key = await submit(world, 'Described by the document');
    expect((await api.post(`${item(key)}/status`, { status: 'planned' })).status).to.equal(200);
    expect((await api.post(`${item(key)}/replies`, { body: 'Planned' })).status).to.equal(200);
    expect((await api.post(`${hook(created.id)}/test`, {})).status).to.equal(200);
    await receiver.until(4);
  });
  after(() => stopWorld(world, receiver));

  it('lists every message type under webhooks, each a POST with a JSON body', () => {
    expect(Object.keys(doc.webhooks ?? {})).to.have.members([...WEBHOOK_EVENT_TYPES]);
    for (const type of WEBHOOK_EVENT_TYPES) {
      const post = doc.webhooks[type].post;
      expect(post.requestBody.content['application/json'].schema, type).to.deep.equal({
        $ref: '#/components/schemas/WebhookMessage',
      });
    }
  });

  it('sends each documented header and a body the documented schema accepts, verifying', () => {
    const ajv = new Ajv2020.default({ strict: false });
    ajv.addSchema({ $id: 'openapi.json', components: doc.components });
    for (const request of receiver.received) {
      const message = verify(secret, request);
      const post = doc.webhooks?.[message.type]?.post;
      expect(post, `webhooks["${message.type}"]`).to.not.equal(undefined);
      const validate = ajv.compile({
        $ref: `openapi.json${post.requestBody.content['application/json'].schema.$ref}`,
      });
      expect(validate(message), JSON.stringify(validate.errors)).to.equal(true);
      for (const header of (post.parameters as HeaderParameter[]).filter(
        (p) => p.in === 'header',
      )) {
        const value = request.headers[header.name];
        if (!header.required && value === undefined) continue;
        expect(value, header.name).to.be.a('string');
        if (header.schema.pattern) expect(value).to.match(new RegExp(header.schema.pattern));
      }
    }
  });
});
