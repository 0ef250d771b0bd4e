import { expect } from 'chai';
import { Unauthenticated as AuthUnauthenticated } from '../../src/auth/errors.js';
import {
  AlreadyExists,
  Conflict,
  FailedPrecondition,
  PermissionDenied,
  ResourceExhausted,
} from '../../commands/shared/errors.js';
import { WrongExpectedRevisionError } from '../../src/eventstore/types.js';
import { type ErrorKind, HttpProblem, resolveError } from '../../src/http/errors.js';
import {
  FEEDBACK_ERROR_CODES,
  feedbackEnvelope,
  notesEnvelope,
  PreconditionFailed,
  withResponseHeaders,
} from '../../src/http/registry.js';

const ALL_KINDS: ErrorKind[] = [
  'invalid-argument',
  'unauthenticated',
  'permission-denied',
  'not-found',
  'failed-precondition',
  'already-exists',
  'conflict',
  'resource-exhausted',
  'precondition-failed',
  'unsupported-media-type',
  'payload-too-large',
  'method-not-allowed',
  'route-not-found',
  'internal',
];

describe('Error mapping', () => {
  describe('When domain errors are resolved', () => {
    it('keeps their kind and message, and turns retryAfterSeconds into Retry-After', () => {
      expect(resolveError(new FailedPrecondition('item ABC-1 was merged'))).to.deep.equal({
        kind: 'failed-precondition',
        message: 'item ABC-1 was merged',
        headers: {},
      });
      // spec 000 "Authentication": "a burst from one address gets HTTP 429 with a retry-after header"
      expect(resolveError(new ResourceExhausted('slow down', 12.2)).headers).to.deep.equal({
        'Retry-After': '13',
      });
      expect(resolveError(new PreconditionFailed('stale')).kind).to.equal('precondition-failed');
      expect(resolveError(new Conflict('lost race')).kind).to.equal('conflict');
      // the auth module's error is the shared domain error plus its RFC 6750 code
      expect(resolveError(new AuthUnauthenticated('token revoked'))).to.deep.include({
        kind: 'unauthenticated',
        message: 'token revoked',
      });
      expect(resolveError(new WrongExpectedRevisionError('item-1', 3, 4)).kind).to.equal(
        'conflict',
      );
    });
    // spec 000 rule 2: 403 ... "and header WWW-Authenticate: Bearer error=insufficient_scope"
    it('carries headers attached with withResponseHeaders', () => {
      const err = withResponseHeaders(new PermissionDenied('public scope only'), {
        'WWW-Authenticate': 'Bearer error="insufficient_scope"',
      });
      expect(resolveError(err)).to.deep.include({ kind: 'permission-denied' });
      expect(resolveError(err).headers).to.deep.equal({
        'WWW-Authenticate': 'Bearer error="insufficient_scope"',
      });
    });
  });

  describe('When anything else is thrown', () => {
    it('maps body-parser errors and hides unknown errors as internal', () => {
      const tooLarge = Object.assign(new Error('request entity too large'), {
        status: 413,
        type: 'entity.too.large',
      });
      expect(resolveError(tooLarge).kind).to.equal('payload-too-large');
      const parse = Object.assign(new Error('Unexpected token'), {
        status: 400,
        type: 'entity.parse.failed',
      });
      expect(resolveError(parse)).to.deep.include({
        kind: 'invalid-argument',
        message: 'request body is not valid JSON',
      });
      expect(resolveError(new TypeError('x.y is undefined'))).to.deep.include({
        kind: 'internal',
        message: 'internal error',
      });
      expect(resolveError('a string')).to.deep.include({ kind: 'internal' });
      expect(resolveError(new HttpProblem('route-not-found', 'no route')).kind).to.equal(
        'route-not-found',
      );
    });
  });

  describe('When an envelope renders a kind', () => {
    // spec 000 "Errors": code values are exactly the eight listed.
    it('feedback: every kind gets a listed code and a 4xx/5xx status', () => {
      const envelope = feedbackEnvelope();
      for (const kind of ALL_KINDS) {
        const body = envelope.body(kind, 'm');
        expect(Object.keys(body).sort()).to.deep.equal(['code', 'error']);
        expect(FEEDBACK_ERROR_CODES).to.include(body.code);
        expect(envelope.status(kind)).to.be.within(400, 599);
      }
      expect(envelope.status('already-exists')).to.equal(409);
      expect(envelope.body(new AlreadyExists('x').kind, 'm').code).to.equal('already-exists');
      expect(envelope.status('resource-exhausted')).to.equal(429);
    });
    it('notes: every kind is {error} with the matching status', () => {
      const envelope = notesEnvelope();
      for (const kind of ALL_KINDS) expect(envelope.body(kind, 'm')).to.deep.equal({ error: 'm' });
      expect(envelope.status('conflict')).to.equal(412);
      expect(envelope.status('unsupported-media-type')).to.equal(415);
      expect(envelope.status('payload-too-large')).to.equal(413);
    });
  });
});
