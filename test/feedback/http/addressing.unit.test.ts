/**
 * Spec 000 "Addressing": the formats of workspace slugs, product keys and item keys, at and past
 * their bounds. The HTTP layer validates every path with these schemas (400 invalid-argument).
 */
import { expect } from 'chai';
import { ItemKey, ProductKey, Slug } from '../../../src/feedback/http/schemas.js';

const ok = (schema: { safeParse(v: unknown): { success: boolean } }, value: string) =>
  expect(schema.safeParse(value).success, `${value} should be accepted`).to.equal(true);
const bad = (schema: { safeParse(v: unknown): { success: boolean } }, value: string) =>
  expect(schema.safeParse(value).success, `${value} should be refused`).to.equal(false);

describe('Feedback addressing formats', () => {
  describe('When a workspace slug is checked', () => {
    // "5 to 20 lowercase letters, digits, hyphens; no leading, trailing or doubled hyphen"
    it('accepts 5 and 20 characters, single inner hyphens and digits', () => {
      for (const slug of ['acme1', 'a'.repeat(20), 'acme-co', 'a-b-c-d', '12345']) ok(Slug, slug);
    });
    it('refuses 4 or 21 characters, capitals, and leading, trailing or doubled hyphens', () => {
      for (const slug of ['acme', 'a'.repeat(21), 'Acme-co', '-acme', 'acme-', 'ac--me', 'acme_co'])
        bad(Slug, slug);
    });
  });

  describe('When a product key is checked', () => {
    // "3 to 5 uppercase letters"
    it('accepts 3 to 5 uppercase letters only', () => {
      for (const key of ['APP', 'ABCDE']) ok(ProductKey, key);
      for (const key of ['AP', 'ABCDEF', 'App', 'AP1']) bad(ProductKey, key);
    });
  });

  describe('When an item key is checked', () => {
    // "product key, hyphen, positive integer without leading zero"
    it('accepts KEY-n with n >= 1 and no leading zero', () => {
      for (const key of ['APP-1', 'ABCDE-9007199254740991', 'APP-10']) ok(ItemKey, key);
      for (const key of ['APP-0', 'APP-01', 'APP1', 'AP-1', 'APP--1', 'app-1', 'APP-1a'])
        bad(ItemKey, key);
    });
  });
});
