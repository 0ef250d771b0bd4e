/**
 * Operands MongoDB's parser refuses before matching anything, that mingo takes: it reads
 * `{$size: -1}` or `{$type: 'nosuch'}` as matching nothing and meets `{$expr: {$nosuch: 1}}` only
 * when a document reaches it, so on an empty collection they would pass. MongoDB refuses them
 * with BadValue (code 2: mongo src/mongo/db/matcher/expression_parser.cpp parseSize, parseType,
 * parseMOD, parseRegexElement) or, for an expression it does not know, InvalidPipelineOperator
 * (code 168: src/mongo/db/pipeline/expression.cpp parseExpression, "Unrecognized expression").
 */
import * as accumulatorOperators from 'mingo/operators/accumulator';
import * as expressionOperators from 'mingo/operators/expression';
import { InvalidFilterError } from './errors.js';
import { isPlainObject } from './objects.js';

/** Accumulators MongoDB also takes as expressions (`$sum: ['$a', '$b']`); not $push and alike. */
const ACCUMULATING_EXPRESSIONS = [
  '$sum',
  '$avg',
  '$max',
  '$min',
  '$stdDevPop',
  '$stdDevSamp',
  '$firstN',
  '$lastN',
  '$maxN',
  '$minN',
  '$median',
  '$percentile',
  '$mergeObjects',
];

/** The expression operators mingo evaluates; one it does not know, MongoDB may not either. */
const EXPRESSIONS = new Set([
  ...Object.keys(expressionOperators),
  ...ACCUMULATING_EXPRESSIONS.filter((op) => Object.hasOwn(accumulatorOperators, op)),
]);

/** MongoDB's $type aliases (src/mongo/bson/bsontypes.cpp) and their numbers, with 'number'. */
const TYPE_NAMES = new Set([
  'double',
  'string',
  'object',
  'array',
  'binData',
  'undefined',
  'objectId',
  'bool',
  'date',
  'null',
  'regex',
  'dbPointer',
  'javascript',
  'symbol',
  'javascriptWithScope',
  'int',
  'timestamp',
  'long',
  'decimal',
  'minKey',
  'maxKey',
  'number',
]);
const TYPE_CODES = new Set([-1, 127, ...Array.from({ length: 19 }, (_, i) => i + 1)]);

/** Refuse the operand of `op` in `condition` (a field's operators) where MongoDB's parser does. */
export function refuseMalformedOperand(
  op: string,
  arg: unknown,
  condition: Record<string, unknown>,
): void {
  switch (op) {
    case '$size':
      if (typeof arg !== 'number') throw new InvalidFilterError('$size needs a number');
      if (!Number.isInteger(arg)) throw new InvalidFilterError('$size must be a whole number');
      if (arg < 0) throw new InvalidFilterError('$size may not be negative');
      return;
    case '$regex':
      if (typeof arg !== 'string' && !(arg instanceof RegExp)) {
        throw new InvalidFilterError('$regex has to be a string');
      }
      return;
    case '$options':
      if (typeof arg !== 'string') throw new InvalidFilterError('$options has to be a string');
      if (!Object.hasOwn(condition, '$regex')) {
        throw new InvalidFilterError('$options needs a $regex');
      }
      return;
    case '$type':
      for (const type of Array.isArray(arg) ? arg : [arg]) refuseUnknownType(type);
      return;
    case '$mod':
      refuseMalformedMod(arg);
      return;
    default:
      return;
  }
}

function refuseUnknownType(type: unknown): void {
  if (typeof type === 'string') {
    if (!TYPE_NAMES.has(type)) throw new InvalidFilterError(`Unknown type name alias: ${type}`);
  } else if (typeof type === 'number') {
    if (!TYPE_CODES.has(type)) throw new InvalidFilterError(`Invalid numerical type code: ${type}`);
  } else {
    throw new InvalidFilterError('type must be represented as a number or a string');
  }
}

function refuseMalformedMod(arg: unknown): void {
  if (!Array.isArray(arg)) throw new InvalidFilterError('malformed mod, needs to be an array');
  if (arg.length < 2) throw new InvalidFilterError('malformed mod, not enough elements');
  if (arg.length > 2) throw new InvalidFilterError('malformed mod, too many elements');
  const [divisor, remainder] = arg;
  if (typeof divisor !== 'number') {
    throw new InvalidFilterError('malformed mod, divisor not a number');
  }
  if (typeof remainder !== 'number') {
    throw new InvalidFilterError('malformed mod, remainder not a number');
  }
  if (!Number.isFinite(divisor) || !Number.isFinite(remainder)) {
    const which = Number.isFinite(divisor) ? 'remainder' : 'divisor';
    throw new InvalidFilterError(`malformed mod, ${which} value is invalid`);
  }
  if (Math.trunc(divisor) === 0) throw new InvalidFilterError('divisor cannot be 0');
}

/**
 * Refuse an aggregation expression ($expr's operand) naming an operator mingo does not know, or
 * an operator object with more than one key, at any depth; a `$literal` is not looked into.
 */
export function refuseUnknownExpressions(expression: unknown): void {
  if (Array.isArray(expression)) {
    for (const item of expression) refuseUnknownExpressions(item);
    return;
  }
  if (!isPlainObject(expression)) return;
  const keys = Object.keys(expression);
  const first = keys[0];
  if (first === undefined || first.charCodeAt(0) !== 36 /* $ */) {
    for (const key of keys) refuseUnknownExpressions(expression[key]);
    return;
  }
  if (keys.length > 1) {
    throw new InvalidFilterError(
      `an expression specification must contain exactly one field, the name of the expression. Found ${keys.length} fields in ${JSON.stringify(expression)}`,
    );
  }
  if (!EXPRESSIONS.has(first)) throw new InvalidFilterError(`Unrecognized expression '${first}'`);
  if (first !== '$literal') refuseUnknownExpressions(expression[first]);
}
