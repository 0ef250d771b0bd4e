import { expect } from 'chai';
import { memoizedJson, RawJson } from '../../projections/shared/raw-json.js';

describe('Pre-serialized JSON bodies', () => {
  describe('When a frozen document is serialized twice', () => {
    it('computes its text once and hands out the same text', () => {
      let calls = 0;
      const json = memoizedJson((doc: { a: number }) => {
        calls++;
        return { a: doc.a };
      });
      const doc = Object.freeze({ a: 1 });
      expect(json(doc)).to.equal('{"a":1}');
      expect(json(doc)).to.equal('{"a":1}');
      expect(calls).to.equal(1);
    });
  });

  describe('When the document is not frozen (it could still change)', () => {
    it('serializes it every time, so a change is never hidden', () => {
      const json = memoizedJson((doc: { a: number }) => ({ a: doc.a }));
      const doc = { a: 1 };
      expect(json(doc)).to.equal('{"a":1}');
      doc.a = 2;
      expect(json(doc)).to.equal('{"a":2}');
    });
  });

  describe('When a RawJson body meets JSON.stringify (the MCP path, response checks)', () => {
    it('stands for the value it encodes', () => {
      const raw = new RawJson<{ items: number[] }>('{"items":[1,2]}');
      expect(raw.toJSON()).to.deep.equal({ items: [1, 2] });
      expect(JSON.stringify({ wrapped: raw })).to.equal('{"wrapped":{"items":[1,2]}}');
    });
  });
});
