/**
 * A schema-less protobuf walk: the top-level fields of one message, or null when the bytes are not
 * a well-formed message (so a failed walk is evidence the bytes are something else).
 */
export interface ProtobufField {
  field: number;
  wire: 0 | 1 | 2 | 5;
  /** Varints as bigint; fixed32/64 and length-delimited values as their bytes. */
  value: bigint | Uint8Array;
}

function readVarint(bytes: Uint8Array, at: number): { value: bigint; next: number } | null {
  let value = 0n;
  for (let shift = 0n, i = at; i < bytes.length && shift < 70n; i++, shift += 7n) {
    const byte = bytes[i]!;
    value |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return { value, next: i + 1 };
  }
  return null;
}

export function protobufFields(bytes: Uint8Array): ProtobufField[] | null {
  const fields: ProtobufField[] = [];
  let at = 0;
  while (at < bytes.length) {
    const tag = readVarint(bytes, at);
    if (tag === null) return null;
    const field = Number(tag.value >> 3n);
    const wire = Number(tag.value & 7n);
    if (field < 1 || field > 536_870_911) return null;
    at = tag.next;
    if (wire === 0) {
      const varint = readVarint(bytes, at);
      if (varint === null) return null;
      fields.push({ field, wire, value: varint.value });
      at = varint.next;
    } else if (wire === 1 || wire === 5) {
      const size = wire === 1 ? 8 : 4;
      if (at + size > bytes.length) return null;
      fields.push({ field, wire, value: bytes.subarray(at, at + size) });
      at += size;
    } else if (wire === 2) {
      const length = readVarint(bytes, at);
      if (length === null || length.value > BigInt(bytes.length - length.next)) return null;
      const end = length.next + Number(length.value);
      fields.push({ field, wire, value: bytes.subarray(length.next, end) });
      at = end;
    } else {
      return null;
    }
  }
  return fields;
}

/** The length-delimited values of `field`, in order. */
export function bytesFields(fields: readonly ProtobufField[], field: number): Uint8Array[] {
  return fields.filter((f) => f.field === field && f.wire === 2).map((f) => f.value as Uint8Array);
}
