package io.p2kv.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/**
 * {@code p2kv.valueseparation} reaches the store of both bindings: after a load and a flush, blob
 * files exist exactly when the policy separates the loaded records, and every record still reads
 * back whole.
 */
class ValueSeparationPropertyTest {
  private static final int RECORDS = 300;
  /** One field of 2,000 bytes: a ~2 KB record. */
  private static final int FIELD_BYTES = 2000;

  @TempDir Path tmp;

  @ParameterizedTest(name = "{0} with p2kv.valueseparation={1}")
  @CsvSource({
    "io.p2kv.ycsb.P2kvYcsbClient, none, false",
    "io.p2kv.ycsb.P2kvYcsbClient, all, true",
    "io.p2kv.ycsb.P2kvYcsbClient, 1024, true",
    "io.p2kv.ycsb.P2kvYcsbClient, 4096, false",
    "io.p2kv.ycsb.P2kvYcsbClient, sizeaware-fixed, true",
    "io.p2kv.ycsb.RocksDbYcsbClient, none, false",
    "io.p2kv.ycsb.RocksDbYcsbClient, all, true",
    "io.p2kv.ycsb.RocksDbYcsbClient, 1024, true",
    "io.p2kv.ycsb.RocksDbYcsbClient, 4096, false",
    "io.p2kv.ycsb.RocksDbYcsbClient, sizeaware-fixed, true",
  })
  void shouldSeparateValuesExactlyAsThePolicySays(String binding, String policy, boolean separated)
      throws Exception {
    Path dir = tmp.resolve("store");
    Properties props = new Properties();
    props.setProperty("p2kv.dir", dir.toString());
    props.setProperty("p2kv.valueseparation", policy);
    props.setProperty("p2kv.memorybudgetmb", "32");

    DB db = (DB) Class.forName(binding).getDeclaredConstructor().newInstance();
    db.setProperties(props);
    db.init();
    try {
      for (int i = 0; i < RECORDS; i++) {
        assertEquals(Status.OK, db.insert("usertable", key(i), record(i)));
      }
    } finally {
      db.cleanup();
    }
    // Settle opens the store as the binding does (same properties), flushes and closes it.
    Settle.main(
        new String[] {binding, "p2kv.dir=" + dir, "p2kv.valueseparation=" + policy, "p2kv.memorybudgetmb=32"});
    assertEquals(separated, blobFiles(dir) > 0, "blob files under " + dir);

    db = (DB) Class.forName(binding).getDeclaredConstructor().newInstance();
    db.setProperties(props);
    db.init();
    try {
      for (int i = 0; i < RECORDS; i++) {
        Map<String, ByteIterator> out = new HashMap<>();
        assertEquals(Status.OK, db.read("usertable", key(i), null, out));
        assertEquals(StringByteIterator.getStringMap(record(i)), StringByteIterator.getStringMap(out));
      }
    } finally {
      db.cleanup();
    }
  }

  private static String key(int i) {
    return "user" + i;
  }

  private static Map<String, ByteIterator> record(int i) {
    StringBuilder v = new StringBuilder(FIELD_BYTES);
    for (int j = 0; j < FIELD_BYTES; j++) {
      v.append((char) ('a' + (i * 31 + j * 7) % 26));
    }
    Map<String, String> m = new HashMap<>();
    m.put("field0", v.toString());
    return StringByteIterator.getByteIteratorMap(m);
  }

  private static long blobFiles(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".blob")).count();
    }
  }
}
