/**
 * Just enough protocol-buffers encoding to write an ONNX ModelProto by hand (no Python `onnx`
 * package on this machine): varints, length-delimited fields, nested messages.
 */

type Field = Uint8Array;

function varint(value: number | bigint): Uint8Array {
  let v = BigInt(value);
  if (v < 0n) v += 1n << 64n; // two's complement, as protobuf does for negative int64
  const bytes: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v !== 0n) byte |= 0x80;
    bytes.push(byte);
  } while (v !== 0n);
  return Uint8Array.from(bytes);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const tag = (field: number, wireType: 0 | 2) => varint((field << 3) | wireType);

export const pb = {
  int: (field: number, value: number | bigint): Field => concat([tag(field, 0), varint(value)]),
  bytes: (field: number, value: Uint8Array): Field =>
    concat([tag(field, 2), varint(value.length), value]),
  string: (field: number, value: string): Field => pb.bytes(field, new TextEncoder().encode(value)),
  message: (field: number, ...fields: Field[]): Field => pb.bytes(field, concat(fields)),
  concat,
};
