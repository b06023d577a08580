package io.p2kv.ycsb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import site.ycsb.ByteIterator;
import site.ycsb.RandomByteIterator;
import site.ycsb.StringByteIterator;

class RecordCodecTest {
  private final RecordCodec codec = new RecordCodec();

  static Map<String, ByteIterator> fields(String... nameValue) {
    Map<String, ByteIterator> m = new LinkedHashMap<>();
    for (int i = 0; i < nameValue.length; i += 2) {
      m.put(nameValue[i], new StringByteIterator(nameValue[i + 1]));
    }
    return m;
  }

  static Map<String, String> strings(Map<String, ByteIterator> m) {
    Map<String, String> out = new TreeMap<>();
    m.forEach((k, v) -> out.put(k, v.toString()));
    return out;
  }

  private Map<String, String> decode(byte[] record, Set<String> fields) {
    Map<String, ByteIterator> out = new HashMap<>();
    codec.decode(record, fields, out);
    return strings(out);
  }

  @Test
  void shouldEncodeOneFieldInTheDocumentedLayout() {
    byte[] record = codec.encode(fields("field0", "abc")).clone();
    byte[] expected = {1, 6, 'f', 'i', 'e', 'l', 'd', '0', 3, 'a', 'b', 'c'};
    assertArrayEquals(expected, record);
  }

  @Test
  void shouldUseTwoByteVarintsForLengthsFrom128() {
    String value = "x".repeat(300);
    byte[] record = codec.encode(fields("f", value)).clone();
    // 300 = 0b10_0101100: low group 0x2C with the continuation bit, then 0x02.
    assertArrayEquals(new byte[] {1, 1, 'f', (byte) 0xAC, 0x02}, Arrays.copyOf(record, 5));
    assertEquals(5 + 300, record.length);
    assertEquals(Map.of("f", value), decode(record, null));
  }

  @Test
  void shouldRoundTripEveryFieldWhenFieldsIsNull() {
    Map<String, String> expected = new TreeMap<>();
    String[] nv = new String[20];
    for (int i = 0; i < 10; i++) {
      nv[2 * i] = "field" + i;
      nv[2 * i + 1] = "value-" + i + "-" + "v".repeat(i * 20);
      expected.put(nv[2 * i], nv[2 * i + 1]);
    }
    byte[] record = codec.encode(fields(nv)).clone();
    assertEquals(expected, decode(record, null));
  }

  @Test
  void shouldReturnOnlyRequestedFieldsThatExist() {
    byte[] record = codec.encode(fields("a", "1", "b", "2", "c", "3")).clone();
    assertEquals(Map.of("a", "1", "c", "3"), decode(record, Set.of("a", "c", "missing")));
    assertEquals(Map.of(), decode(record, Set.of()));
  }

  @Test
  void shouldReplaceNamedFieldsAndKeepOthersWhenMerging() {
    byte[] record = codec.encode(fields("a", "1", "b", "2", "c", "3")).clone();
    byte[] merged = codec.merge(record, fields("b", "two", "d", "4")).clone();
    assertEquals(Map.of("a", "1", "b", "two", "c", "3", "d", "4"), decode(merged, null));
    byte[] all = codec.merge(merged, fields("a", "x", "b", "y", "c", "z", "d", "w")).clone();
    assertEquals(Map.of("a", "x", "b", "y", "c", "z", "d", "w"), decode(all, null));
    byte[] none = codec.merge(all, fields()).clone();
    assertArrayEquals(all, none);
  }

  @Test
  void shouldMergeIntoItsOwnOutputBuffer() {
    byte[] record = codec.encode(fields("a", "1", "b", "2"));
    byte[] merged = codec.merge(record, fields("a", "9"));
    assertEquals(Map.of("a", "9", "b", "2"), decode(merged, null));
  }

  // Not seeded: YCSB's RandomByteIterator draws from ThreadLocalRandom, which cannot be seeded,
  // and only the lengths are checked, which do not depend on the bytes drawn.
  @Test
  void shouldCopyRandomValuesByteForByte() {
    Map<String, ByteIterator> values = new HashMap<>();
    values.put("field0", new RandomByteIterator(96));
    values.put("field1", new RandomByteIterator(1000));
    byte[] record = codec.encode(values).clone();
    assertEquals(1 + (1 + 6 + 1 + 96) + (1 + 6 + 2 + 1000), record.length);
    Map<String, ByteIterator> out = new HashMap<>();
    codec.decode(record, null, out);
    assertEquals(96, out.get("field0").bytesLeft());
    assertEquals(1000, out.get("field1").bytesLeft());
  }

  @Test
  void shouldDecodeValuesWithoutCopyingTheRecord() {
    byte[] record = codec.encode(fields("a", "hello")).clone();
    Map<String, ByteIterator> out = new HashMap<>();
    codec.decode(record, null, out);
    record[record.length - 1] = 'O';
    assertEquals("hellO", out.get("a").toString());
  }

  @Test
  void shouldRejectRecordsThatAreNotThisEncoding() {
    byte[] good = codec.encode(fields("a", "hello")).clone();
    assertThrows(IllegalArgumentException.class, () -> decode(Arrays.copyOf(good, good.length - 1), null));
    assertThrows(IllegalArgumentException.class, () -> decode(Arrays.copyOf(good, good.length + 1), null));
    assertThrows(IllegalArgumentException.class, () -> decode(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF}, null));
    assertThrows(IllegalArgumentException.class, () -> decode(new byte[0], null));
    assertThrows(IllegalArgumentException.class, () -> codec.merge(new byte[] {2, 1, 'a', 0}, fields("b", "1")));
  }

  @Test
  void shouldEncodeKeysAsUtf8() {
    assertArrayEquals("user123".getBytes(StandardCharsets.UTF_8), codec.key("user123"));
    assertArrayEquals("clé-ü".getBytes(StandardCharsets.UTF_8), codec.key("clé-ü"));
    String longKey = "k".repeat(500);
    assertArrayEquals(longKey.getBytes(StandardCharsets.UTF_8), codec.key(longKey));
    assertArrayEquals(new byte[0], codec.key(""));
  }

  @Test
  void shouldDecodeManyDistinctFieldNamesBeyondTheNameCache() {
    String[] nv = new String[2 * (RecordCodec.MAX_CACHED_NAMES + 10)];
    Map<String, String> expected = new TreeMap<>();
    for (int i = 0; i < nv.length / 2; i++) {
      nv[2 * i] = "name" + i;
      nv[2 * i + 1] = "v" + i;
      expected.put(nv[2 * i], nv[2 * i + 1]);
    }
    byte[] record = codec.encode(fields(nv)).clone();
    assertEquals(expected, decode(record, null));
    assertEquals(expected, decode(record, null));
  }
}
