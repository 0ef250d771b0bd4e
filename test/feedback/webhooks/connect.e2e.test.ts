/**
 * Where an attempt goes and what it presents. README: "the attempt connects to the address that
 * was checked (DNS rebinding cannot redirect it)"; sender.ts: "POST the signed body to the
 * address the target check approved (Host and TLS SNI keep the URL's name …)"; README: "The URL
 * is kept as it will be called". The name below resolves only through the service's resolver,
 * so an attempt that looked it up again itself would not arrive.
 */
import { expect } from 'chai';
import { verify } from './support/receiver.js';
import {
  type Receiver,
  startReceiver,
  startWorld,
  stopWorld,
  submit,
  subscribe,
  type World,
} from './support/world.js';

const NAME = 'receiver.example.test';

describe('When a webhook’s URL names its receiver by a host name (e2e)', () => {
  let world: World;
  let receiver: Receiver;

  before(async () => {
    receiver = await startReceiver();
    world = await startWorld({
      webhooks: {
        resolve: async (host: string) => {
          if (host !== NAME) throw new Error('ENOTFOUND');
          return ['127.0.0.1'];
        },
      },
    });
  });
  after(() => stopWorld(world, receiver));

  it('POSTs to the address the name resolved to, under the URL’s name, path and query, the whole body verifying', async () => {
    const path = '/hooks/in?team=a%20b&x=1';
    const { secret } = await subscribe(world, `http://${NAME}:${receiver.port}${path}`);
    // multi-byte characters: the body's length in bytes is not its length in characters
    const text = 'Crème brûlée ☕ for naïve users';
    await submit(world, text);
    const [request] = await receiver.until(1);
    expect(request!.method).to.equal('POST');
    expect(request!.path).to.equal(path);
    expect(request!.headers.host).to.equal(`${NAME}:${receiver.port}`);
    expect(verify(secret, request!).data.item.body).to.equal(text);
  });
});
