package io.p2kv.ycsb;

import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;

/**
 * Not thread-safe (one per YCSB client thread): the record encoding shared by {@link
 * P2kvYcsbClient} and {@link RocksDbYcsbClient}, and the conversion of YCSB keys to store keys.
 *
 * <h2>Record encoding</h2>
 * A YCSB record (field name to bytes) is stored as one value:
 *
 * <pre>
 * record := fieldCount:varint field{fieldCount}
 * field  := nameLength:varint name:UTF-8 valueLength:varint value:bytes
 * varint := unsigned LEB128: 7 bits per byte, least significant group first, high bit set on
 *           every byte but the last (1 byte below 128, 2 below 16384)
 * </pre>
 *
 * Field names are unique within a record; fields are in no particular order. A YCSB record of one
 * 96-byte field named {@code field0} is 1 + 1 + 6 + 1 + 96 = 105 bytes; YCSB's default record (ten
 * 100-byte fields {@code field0..field9}) is 1 + 10 * 108 = 1081 bytes. There is no format
 * version byte: the encoding is fixed for this binding.
 *
 * <h2>Keys</h2>
 * A YCSB key is stored as its UTF-8 bytes, without the table name, so keys order as YCSB's key
 * strings do (for ASCII keys) and a scan from a start key returns the following keys in YCSB's
 * order.
 *
 * <h2>Allocation</h2>
 * The codec reuses its buffers: {@link #key} returns a buffer reused per key length and {@link
 * #encode} a buffer reused while the encoded length stays the same (always, for YCSB's constant
 * field lengths). Both are valid until the next call of the same method on this codec, which is
 * long enough for a synchronous put or get, whose store keeps the arrays only until it returns.
 * Decoding wraps the fields of the record array in {@link ByteArrayByteIterator}s without copying.
 * Field names are cached (up to {@value #MAX_CACHED_NAMES}), so neither direction allocates a
 * string or name array per field.
 */
public final class RecordCodec {
  /** Most field names kept in the name cache; further names are encoded and decoded each time. */
  static final int MAX_CACHED_NAMES = 64;

  /** Longest key whose buffer is reused. */
  private static final int MAX_REUSED_KEY = 128;

  private final byte[][] keyBuffers = new byte[MAX_REUSED_KEY + 1][];

  private final String[] names = new String[MAX_CACHED_NAMES];
  private final byte[][] nameBytes = new byte[MAX_CACHED_NAMES][];
  private int cachedNames;

  // Staging of the fields being written: value bytes copied out of their iterators.
  private byte[] staged = new byte[256];
  private byte[][] stagedNames = new byte[16][];
  private int[] stagedStart = new int[16];
  private int[] stagedLength = new int[16];

  private byte[] encoded = new byte[0];

  // Decoding position within the record being parsed.
  private int pos;

  /**
   * The store key of a YCSB key: its UTF-8 bytes.
   *
   * @param key the YCSB key
   * @return the bytes, in a buffer reused for keys of the same length (valid until the next call)
   */
  public byte[] key(String key) {
    int n = key.length();
    if (n > MAX_REUSED_KEY) {
      return key.getBytes(StandardCharsets.UTF_8);
    }
    byte[] buf = keyBuffers[n];
    if (buf == null) {
      buf = new byte[n];
      keyBuffers[n] = buf;
    }
    for (int i = 0; i < n; i++) {
      char c = key.charAt(i);
      if (c >= 0x80) {
        return key.getBytes(StandardCharsets.UTF_8);
      }
      buf[i] = (byte) c;
    }
    return buf;
  }

  /**
   * Encodes a record. Consumes the iterators.
   *
   * @param values the fields
   * @return the encoded record, in a buffer reused while the length stays the same (valid until
   *     the next {@code encode} or {@code merge})
   */
  public byte[] encode(Map<String, ByteIterator> values) {
    return merge(null, values);
  }

  /**
   * Encodes {@code values} merged into an existing record: fields of {@code values} replace fields
   * of the same name, other fields of {@code record} are kept. Consumes the iterators.
   *
   * @param record an encoded record, or null for none
   * @param values the fields to write
   * @return the encoded result, in a buffer as for {@link #encode}
   * @throws IllegalArgumentException if {@code record} is not a valid encoding
   */
  public byte[] merge(byte[] record, Map<String, ByteIterator> values) {
    int n = stage(values);
    int keptFields = 0;
    int keptBytes = 0;
    int fieldsStart = 0;
    int fieldsEnd = 0;
    if (record != null) {
      pos = 0;
      int oldCount = readLength(record);
      fieldsStart = pos;
      for (int i = 0; i < oldCount; i++) {
        int fieldStart = pos;
        if (!values.containsKey(skipField(record))) {
          keptBytes += pos - fieldStart;
          keptFields++;
        }
      }
      checkEnd(record);
      fieldsEnd = pos;
    }
    int count = keptFields + n;
    int size = varintSize(count) + keptBytes;
    for (int i = 0; i < n; i++) {
      size += varintSize(stagedNames[i].length) + stagedNames[i].length;
      size += varintSize(stagedLength[i]) + stagedLength[i];
    }
    byte[] out = encoded.length == size && encoded != record ? encoded : new byte[size];
    encoded = out;
    int o = writeVarint(out, 0, count);
    if (keptBytes == fieldsEnd - fieldsStart) {
      // No old field replaced (or no old record): one copy.
      System.arraycopy(record == null ? out : record, fieldsStart, out, o, keptBytes);
      o += keptBytes;
    } else if (keptBytes > 0) {
      pos = fieldsStart;
      while (pos < fieldsEnd) {
        int fieldStart = pos;
        if (!values.containsKey(skipField(record))) {
          System.arraycopy(record, fieldStart, out, o, pos - fieldStart);
          o += pos - fieldStart;
        }
      }
    }
    for (int i = 0; i < n; i++) {
      byte[] name = stagedNames[i];
      o = writeVarint(out, o, name.length);
      System.arraycopy(name, 0, out, o, name.length);
      o += name.length;
      o = writeVarint(out, o, stagedLength[i]);
      System.arraycopy(staged, stagedStart[i], out, o, stagedLength[i]);
      o += stagedLength[i];
    }
    return out;
  }

  /** Moves {@link #pos} over one field and returns its name. */
  private String skipField(byte[] record) {
    int nameLength = readLength(record);
    int nameOffset = pos;
    pos += nameLength;
    int valueLength = readLength(record);
    pos += valueLength;
    return name(record, nameOffset, nameLength);
  }

  /**
   * Decodes a record into YCSB's result map.
   *
   * @param record the encoded record; the iterators put into {@code result} read from it
   * @param fields the fields wanted, or null for all
   * @param result where the fields go
   * @throws IllegalArgumentException if {@code record} is not a valid encoding
   */
  public void decode(byte[] record, Set<String> fields, Map<String, ByteIterator> result) {
    pos = 0;
    int count = readLength(record);
    for (int i = 0; i < count; i++) {
      int nameLength = readLength(record);
      int nameOffset = pos;
      pos += nameLength;
      int valueLength = readLength(record);
      int valueOffset = pos;
      pos += valueLength;
      String name = name(record, nameOffset, nameLength);
      if (fields == null || fields.contains(name)) {
        result.put(name, new ByteArrayByteIterator(record, valueOffset, valueLength));
      }
    }
    checkEnd(record);
  }

  // ------------------------------------------------------------------ staging and names

  /** Copies every value out of its iterator into {@link #staged}; returns the field count. */
  private int stage(Map<String, ByteIterator> values) {
    int n = values.size();
    if (stagedNames.length < n) {
      int cap = Math.max(n, stagedNames.length * 2);
      stagedNames = new byte[cap][];
      stagedStart = new int[cap];
      stagedLength = new int[cap];
    }
    int i = 0;
    int p = 0;
    for (Map.Entry<String, ByteIterator> e : values.entrySet()) {
      stagedNames[i] = nameBytes(e.getKey());
      ByteIterator it = e.getValue();
      stagedStart[i] = p;
      long hint = it.bytesLeft();
      if (hint > 0 && p + hint > staged.length && p + hint <= Integer.MAX_VALUE) {
        staged = Arrays.copyOf(staged, (int) Math.max(p + hint, staged.length * 2L));
      }
      byte[] buf = staged;
      while (it.hasNext()) {
        if (p == buf.length) {
          buf = Arrays.copyOf(buf, buf.length * 2);
          staged = buf;
        }
        buf[p++] = it.nextByte();
      }
      stagedLength[i] = p - stagedStart[i];
      i++;
    }
    return i;
  }

  /** The UTF-8 bytes of a field name, cached. */
  private byte[] nameBytes(String name) {
    for (int i = 0; i < cachedNames; i++) {
      String cached = names[i];
      if (cached == name || cached.equals(name)) {
        return nameBytes[i];
      }
    }
    byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
    remember(name, bytes);
    return bytes;
  }

  /** The field name at {@code record[offset, offset + length)}, cached. */
  private String name(byte[] record, int offset, int length) {
    for (int i = 0; i < cachedNames; i++) {
      byte[] cached = nameBytes[i];
      if (Arrays.equals(cached, 0, cached.length, record, offset, offset + length)) {
        return names[i];
      }
    }
    String name = new String(record, offset, length, StandardCharsets.UTF_8);
    remember(name, Arrays.copyOfRange(record, offset, offset + length));
    return name;
  }

  private void remember(String name, byte[] bytes) {
    if (cachedNames < MAX_CACHED_NAMES) {
      names[cachedNames] = name;
      nameBytes[cachedNames] = bytes;
      cachedNames++;
    }
  }

  // ------------------------------------------------------------------ varints

  static int varintSize(int v) {
    int size = 1;
    while ((v & ~0x7F) != 0) {
      v >>>= 7;
      size++;
    }
    return size;
  }

  static int writeVarint(byte[] out, int o, int v) {
    while ((v & ~0x7F) != 0) {
      out[o++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    out[o++] = (byte) v;
    return o;
  }

  /** Reads a varint at {@link #pos} that must be a length within the rest of the record. */
  private int readLength(byte[] record) {
    int v = 0;
    for (int shift = 0; shift < 32; shift += 7) {
      if (pos >= record.length) {
        throw corrupt(record, "truncated length");
      }
      byte b = record[pos++];
      v |= (b & 0x7F) << shift;
      if (b >= 0) {
        if (v < 0 || v > record.length - pos) {
          throw corrupt(record, "length " + Integer.toUnsignedString(v) + " beyond the record");
        }
        return v;
      }
    }
    throw corrupt(record, "varint longer than 5 bytes");
  }

  private void checkEnd(byte[] record) {
    if (pos != record.length) {
      throw corrupt(record, (record.length - pos) + " bytes after the last field");
    }
  }

  private IllegalArgumentException corrupt(byte[] record, String problem) {
    return new IllegalArgumentException(
        "not a YCSB record encoding (" + problem + " at byte " + pos + " of " + record.length + ")");
  }
}
