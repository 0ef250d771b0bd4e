/**
 * KurrentDB orders `$all` by a (commit, prepare) pair of unsigned 64-bit log offsets. The port
 * wants one comparable bigint, so the pair is packed as `commit << 64 | prepare`: ordering the
 * packed value orders by commit first, then prepare — exactly the server's order — and the
 * packing is lossless, so a stored checkpoint decodes back to the server position it came from.
 */
import type { Position } from '@kurrent/kurrentdb-client';

const U64_MAX = (1n << 64n) - 1n;

/** A value that is not a KurrentDB position (negative, or a half beyond 64 bits). */
export class InvalidPositionError extends Error {
  override readonly name = 'InvalidPositionError';
}

export function encodePosition(position: Position): bigint {
  const { commit, prepare } = position;
  if (commit < 0n || commit > U64_MAX || prepare < 0n || prepare > U64_MAX) {
    throw new InvalidPositionError(
      `KurrentDB position out of range: commit ${commit}, prepare ${prepare}`,
    );
  }
  return (commit << 64n) | prepare;
}

export function decodePosition(position: bigint): Position {
  if (position < 0n || position > (U64_MAX << 64n) + U64_MAX) {
    throw new InvalidPositionError(`not an encoded KurrentDB position: ${position}`);
  }
  return { commit: position >> 64n, prepare: position & U64_MAX };
}
