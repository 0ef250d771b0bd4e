/**
 * Reading a board form: JSON (the widget, board.js, in-app capture boxes, at most 32 kB) or
 * application/x-www-form-urlencoded (a plain HTML form, without JavaScript, at most 64 kB), then
 * checked with a zod schema. Anything else is a 400 in the service's envelope, never a 500.
 */
import express, { type Request, type Response } from 'express';
import { jsonBody } from '../../http/json-body.js';
import { z } from 'zod';
import { InvalidArgument } from '../../../commands/shared/errors.js';
import { cutAt } from '../../../commands/shared/text.js';
import { describeIssues } from '../../http/validation.js';

const json = jsonBody({ limit: '32kb' });
/**
 * A browser percent-encodes each UTF-8 byte of a form: a character of most scripts (CJK, Indic,
 * Thai) takes 3 bytes, so 9 once encoded. The capture box full to its fields' maxlength (200 +
 * 5,000 + 100 UTF-16 units) in such a script is about 48 kB with its tokens; 32 kB refused a
 * 3,700-character body the box had let the visitor type, and lost it all.
 */
const form = express.urlencoded({ extended: false, limit: '64kb', parameterLimit: 50 });

export async function readForm<T extends z.ZodType>(
  req: Request,
  res: Response,
  schema: T,
): Promise<z.infer<T>> {
  const parser = req.is('application/json')
    ? json
    : req.is('application/x-www-form-urlencoded')
      ? form
      : null;
  if (!parser) {
    throw new InvalidArgument(
      'send the form as application/json or application/x-www-form-urlencoded',
    );
  }
  await new Promise<void>((resolve, reject) => {
    parser(req, res, (error?: unknown) => (error ? reject(error) : resolve()));
  });
  const raw: unknown = req.body;
  const parsed = schema.safeParse(raw && typeof raw === 'object' && !Array.isArray(raw) ? raw : {});
  if (!parsed.success) {
    throw new InvalidArgument(
      sentence(describeIssues(parsed.error, raw, 'body', { labels: LABELS })),
    );
  }
  return parsed.data;
}

/** a form that carries nothing but the visitor's CSRF token (sign-out, "sign in with …") */
export const CsrfOnlyBody = z.object({ csrf: z.string().max(200).optional() });

/** The board's fields as its pages label them: messages are read by visitors, not developers. */
const LABELS = {
  title: 'The title',
  body: 'Your feedback',
  displayName: 'Your name',
  email: 'The e-mail address',
  code: 'The code',
};

/** "The title must be at most 200 characters long." */
const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;

/** A query parameter as trimmed text of at most `max` characters ('' when absent or repeated). */
export const queryText = (value: unknown, max: number): string =>
  typeof value === 'string' ? cutAt(value.trim(), max) : '';
