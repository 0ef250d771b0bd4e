/** list_products and update_product over real HTTP. */
import { expect } from 'chai';
import type { Api } from '../support/harness.js';
import { type Board, chars, expect400, expect404, product, products, startBoard } from './board.js';

const PRODUCT_FIELDS = ['id', 'name', 'visibility', 'itemCount', 'nextItemNumber', 'createdAt'];

describe('Products (e2e)', () => {
  let board: Board;
  let admin: Api;

  before(async () => {
    board = await startBoard();
    admin = board.fb.api(board.owner.token);
    await board.fb.submit(board.ws, 'APP', { body: 'one', email: 'ann@x.io' });
  });
  after(() => board.fb.stop());

  describe('When a member lists the products', () => {
    it('answers every product with exactly the spec fields and nextCursor null', async () => {
      // spec list_products: "{items: [Product], nextCursor: null} always (everything in one response)"
      // spec Product: "All fields are always present; no additional fields."
      const res = await board.fb.api(board.member.token).get(products());
      expect(res.status).to.equal(200);
      expect(res.body.nextCursor).to.equal(null);
      expect(res.body.items.map((p: { id: string }) => p.id)).to.deep.equal(['APP', 'SEC']);
      for (const p of res.body.items) expect(p).to.have.all.keys(PRODUCT_FIELDS);
      expect(res.body.items[0]).to.include({
        name: 'Acme App',
        visibility: 'public',
        itemCount: 1,
        nextItemNumber: 2,
      });
    });
  });

  describe('When an admin updates a product', () => {
    it('renames it and the next GET shows the new name', async () => {
      // spec update_product: "partial: name (string 1 to 200), visibility" -> {product: Product}
      const res = await admin.patch(product(), { name: 'Renamed App' });
      expect(res.status).to.equal(200);
      expect(res.body.product).to.have.all.keys(PRODUCT_FIELDS);
      expect(res.body.product).to.include({ id: 'APP', name: 'Renamed App', visibility: 'public' });
      const listed = await admin.get(products());
      expect(listed.body.items[0].name).to.equal('Renamed App');
    });

    for (const visibility of ['private', 'public'] as const) {
      it(`sets visibility ${visibility} (read back at once)`, async () => {
        // spec: visibility is `private` or `public`; "nothing is deleted"
        const res = await admin.patch(product(), { visibility });
        expect(res.status).to.equal(200);
        expect(res.body.product).to.include({ visibility, itemCount: 1 });
        const listed = await admin.get(products());
        expect(listed.body.items[0].visibility).to.equal(visibility);
      });
    }

    it('accepts names of 1 and 200 characters and refuses 0 and 201 (400)', async () => {
      // spec Limits: "product name: 1 to 200 chars"
      expect((await admin.patch(product(), { name: chars(1) })).body.product.name).to.equal('x');
      expect((await admin.patch(product(), { name: chars(200) })).body.product.name).to.have.length(
        200,
      );
      expect400(await admin.patch(product(), { name: '' }));
      expect400(await admin.patch(product(), { name: chars(201) }));
    });

    it('refuses other fields, including the key, and unknown visibilities (400)', async () => {
      // spec: "no other fields allowed"; "The product key cannot be changed"
      expect400(await admin.patch(product(), { id: 'NEW' }));
      expect400(await admin.patch(product(), { name: 'ok', itemCount: 0 }));
      expect400(await admin.patch(product(), { visibility: 'secret' }));
      expect((await admin.get(products())).body.items[0].id).to.equal('APP');
    });

    it('answers an empty object with the product unchanged', async () => {
      // our rule (update_product is partial): `{}` changes nothing and answers the product as is
      const before = (await admin.get(products())).body.items[0];
      const res = await admin.patch(product(), {});
      expect(res.status).to.equal(200);
      expect(res.body.product).to.deep.equal(before);
    });

    it('answers 404 for an unknown product and for a malformed key', async () => {
      // spec: "unknown item; unknown or unreachable workspace" -> 404; key regex `^[A-Z]{3,5}$`
      // issue 10 item 12: a key outside the format names no product, so it is not there either
      expect404(await admin.patch(product('NOPE'), { name: 'x' }));
      expect404(await admin.patch(product('no'), { name: 'x' }));
    });
  });
});
