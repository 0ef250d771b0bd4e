/**
 * What a value is, as a MongoDB client would send it: a plain object (its prototype Object's or
 * none) is a document; a Date, a RegExp or a class instance is a value of its own, not a document.
 */

/** An object literal (or Object.create(null)): what the driver encodes as a BSON document. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A document whose first key is an operator: `{$gt: 1}` (isExpressionDocument in MongoDB). */
export function isOperatorDocument(value: unknown): value is Record<string, unknown> {
  if (!isPlainObject(value)) return false;
  for (const key in value) return key.charCodeAt(0) === 36 /* $ */;
  return false;
}

/**
 * MongoDB's name for the type a value is stored as (its $type alias), as its messages give it:
 * the driver sends a whole number that fits 32 bits as an int, any other number as a double.
 */
export function bsonTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'number':
      return Number.isInteger(value) && (value | 0) === value && !Object.is(value, -0)
        ? 'int'
        : 'double';
    case 'boolean':
      return 'bool';
    case 'string':
      return 'string';
    default:
      return value instanceof Date ? 'date' : 'object';
  }
}
