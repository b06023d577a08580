package io.p2kv.ycsb;

import io.p2kv.TestSeeds;
import static io.p2kv.ycsb.RecordCodecTest.fields;
import static io.p2kv.ycsb.RecordCodecTest.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.Vector;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * The YCSB DB contract, run against every binding (one subclass per binding and configuration).
 */
abstract class YcsbClientContract {
  static final String TABLE = "usertable";

  @TempDir Path tmp;
  Path dir;
  private final List<DB> open = new ArrayList<>();
  DB db;

  /** A new, uninitialised client of the binding under test. */
  abstract DB newClient();

  /** The registry the binding keeps its open stores in. */
  abstract SharedStores registry();

  /** Properties of the configuration under test, besides p2kv.dir. */
  Properties extraProperties() {
    return new Properties();
  }

  @BeforeEach
  void openClient() throws DBException {
    dir = tmp.resolve("store");
    db = client();
  }

  @AfterEach
  void cleanupClients() throws DBException {
    for (DB d : open) {
      d.cleanup();
    }
    assertEquals(0, registry().users(dir), "the store must be closed after every cleanup");
  }

  DB client() throws DBException {
    return client(new Properties());
  }

  DB client(Properties overrides) throws DBException {
    DB d = newClient();
    Properties p = new Properties();
    p.putAll(extraProperties());
    p.setProperty("p2kv.dir", dir.toString());
    p.putAll(overrides);
    d.setProperties(p);
    d.init();
    open.add(d);
    return d;
  }

  void cleanup(DB d) throws DBException {
    open.remove(d);
    d.cleanup();
  }

  Map<String, String> read(DB d, String key, Set<String> fields) {
    Map<String, ByteIterator> out = new HashMap<>();
    Status s = d.read(TABLE, key, fields, out);
    assertEquals(Status.OK, s, "read " + key);
    return strings(out);
  }

  static String key(int i) {
    return String.format("user%06d", i);
  }

  @Test
  void shouldReadEveryFieldOfAnInsertedRecord() {
    assertEquals(Status.OK, db.insert(TABLE, "user1", fields("field0", "a", "field1", "bb")));
    assertEquals(Map.of("field0", "a", "field1", "bb"), read(db, "user1", null));
  }

  @Test
  void shouldReadOnlyTheRequestedFields() {
    db.insert(TABLE, "user1", fields("field0", "a", "field1", "bb", "field2", "ccc"));
    assertEquals(Map.of("field1", "bb"), read(db, "user1", Set.of("field1", "field9")));
  }

  @Test
  void shouldReturnNotFoundForAnAbsentKey() {
    Map<String, ByteIterator> out = new HashMap<>();
    assertEquals(Status.NOT_FOUND, db.read(TABLE, "nobody", null, out));
    assertTrue(out.isEmpty());
  }

  @Test
  void shouldReplaceTheWholeRecordOnInsert() {
    db.insert(TABLE, "user1", fields("field0", "a", "field1", "b"));
    db.insert(TABLE, "user1", fields("field2", "c"));
    assertEquals(Map.of("field2", "c"), read(db, "user1", null));
  }

  @Test
  void shouldMergeFieldsIntoTheRecordOnUpdate() {
    db.insert(TABLE, "user1", fields("field0", "a", "field1", "b"));
    assertEquals(Status.OK, db.update(TABLE, "user1", fields("field1", "B", "field2", "C")));
    assertEquals(Map.of("field0", "a", "field1", "B", "field2", "C"), read(db, "user1", null));
  }

  @Test
  void shouldNotCreateARecordOnUpdateOfAnAbsentKey() {
    assertEquals(Status.NOT_FOUND, db.update(TABLE, "user1", fields("field0", "a")));
    assertEquals(Status.NOT_FOUND, db.read(TABLE, "user1", null, new HashMap<>()));
  }

  @Test
  void shouldDeleteAndTreatAnAbsentKeyAsDeleted() {
    db.insert(TABLE, "user1", fields("field0", "a"));
    assertEquals(Status.OK, db.delete(TABLE, "user1"));
    assertEquals(Status.NOT_FOUND, db.read(TABLE, "user1", null, new HashMap<>()));
    assertEquals(Status.OK, db.delete(TABLE, "user1"));
  }

  @Test
  void shouldScanRecordsFromTheStartKeyInKeyOrder() {
    for (int i = 0; i < 200; i += 2) {
      db.insert(TABLE, key(i), fields("field0", "v" + i, "field1", "w" + i));
    }
    Vector<HashMap<String, ByteIterator>> result = new Vector<>();
    assertEquals(Status.OK, db.scan(TABLE, key(51), 10, null, result));
    List<String> values = new ArrayList<>();
    for (HashMap<String, ByteIterator> r : result) {
      assertEquals(Set.of("field0", "field1"), r.keySet());
      values.add(r.get("field0").toString());
    }
    assertEquals(List.of("v52", "v54", "v56", "v58", "v60", "v62", "v64", "v66", "v68", "v70"), values);
  }

  @Test
  void shouldScanFieldSubsetsAndStopAtTheEndOfTheKeySpace() {
    for (int i = 0; i < 20; i++) {
      db.insert(TABLE, key(i), fields("field0", "v" + i, "field1", "w" + i));
    }
    Vector<HashMap<String, ByteIterator>> result = new Vector<>();
    assertEquals(Status.OK, db.scan(TABLE, key(15), 100, Set.of("field1"), result));
    List<Map<String, String>> got = new ArrayList<>();
    result.forEach(r -> got.add(strings(r)));
    assertEquals(
        List.of(Map.of("field1", "w15"), Map.of("field1", "w16"), Map.of("field1", "w17"), Map.of("field1", "w18"), Map.of("field1", "w19")),
        got);
    result.clear();
    assertEquals(Status.OK, db.scan(TABLE, "zzz", 10, null, result));
    assertTrue(result.isEmpty());
    assertEquals(Status.OK, db.scan(TABLE, key(0), 0, null, result));
    assertTrue(result.isEmpty());
  }

  @Test
  void shouldScanEveryRecordInOrderAcrossTheWholeStore() {
    TestSeeds.run(getClass(), "shouldScanEveryRecordInOrderAcrossTheWholeStore",
        this::shouldScanEveryRecordInOrderAcrossTheWholeStore);
  }

  private void shouldScanEveryRecordInOrderAcrossTheWholeStore(long seed) {
    TreeMap<String, String> model = new TreeMap<>();
    java.util.Random rnd = new java.util.Random(seed);
    for (int i = 0; i < 500; i++) {
      String k = "user" + rnd.nextInt(1_000_000);
      model.put(k, "v" + i);
      db.insert(TABLE, k, fields("field0", "v" + i));
    }
    for (int probe = 0; probe < 50; probe++) {
      String start = "user" + rnd.nextInt(1_000_000);
      int n = 1 + rnd.nextInt(100);
      Vector<HashMap<String, ByteIterator>> result = new Vector<>();
      assertEquals(Status.OK, db.scan(TABLE, start, n, null, result));
      List<String> expected = new ArrayList<>(model.tailMap(start, true).values()).subList(0, Math.min(n, model.tailMap(start, true).size()));
      List<String> got = new ArrayList<>();
      result.forEach(r -> got.add(r.get("field0").toString()));
      assertEquals(expected, got, "scan from " + start + " for " + n);
    }
  }

  @Test
  void shouldShareOneStorePerDirectoryUntilTheLastCleanup() throws DBException {
    DB second = client();
    assertEquals(2, registry().users(dir));
    db.insert(TABLE, "user1", fields("field0", "a"));
    assertEquals(Map.of("field0", "a"), read(second, "user1", null));
    cleanup(db);
    assertEquals(1, registry().users(dir));
    assertEquals(Map.of("field0", "a"), read(second, "user1", null));
    cleanup(second);
    assertEquals(0, registry().users(dir));
    DB reopened = client();
    assertEquals(Map.of("field0", "a"), read(reopened, "user1", null));
  }

  @Test
  void shouldFailInitOnAnUnknownP2kvProperty() {
    DB d = newClient();
    Properties p = new Properties();
    p.setProperty("p2kv.dir", dir.toString());
    p.setProperty("p2kv.shardz", "2");
    d.setProperties(p);
    DBException e = assertThrows(DBException.class, d::init);
    assertTrue(e.getMessage().contains("p2kv.shardz"), e.getMessage());
    assertEquals(1, registry().users(dir));
  }

  @Test
  void shouldFailInitWhenTheDirectoryIsOpenWithOtherProperties() {
    Properties other = new Properties();
    other.setProperty("p2kv.memorybudgetmb", "64");
    assertThrows(DBException.class, () -> client(other));
    assertEquals(1, registry().users(dir));
  }

  @Test
  void shouldRefuseASecondTableInsteadOfMixingKeys() {
    db.insert(TABLE, "user1", fields("field0", "a"));
    assertEquals(Status.BAD_REQUEST, db.insert("othertable", "user1", fields("field0", "b")));
    assertEquals(Status.BAD_REQUEST, db.read("othertable", "user1", null, new HashMap<>()));
    assertEquals(Map.of("field0", "a"), read(db, "user1", null));
  }

  @Test
  void shouldNotLoseFieldsWhenThreadsUpdateOneRecordConcurrently() throws Exception {
    int threads = 4;
    int rounds = 300;
    db.insert(TABLE, "hot", fields("base", "0"));
    List<DB> clients = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      clients.add(client());
    }
    CyclicBarrier start = new CyclicBarrier(threads);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        DB c = clients.get(t);
        String field = "t" + t;
        done.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int r = 0; r < rounds; r++) {
                    assertEquals(Status.OK, c.update(TABLE, "hot", fields(field, Integer.toString(r))));
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    Map<String, String> expected = new TreeMap<>(Map.of("base", "0"));
    for (int t = 0; t < threads; t++) {
      expected.put("t" + t, Integer.toString(rounds - 1));
    }
    assertEquals(expected, read(db, "hot", null));
  }

  @Test
  void shouldKeepRecordsAcrossReopen() throws DBException {
    TreeSet<String> keys = new TreeSet<>();
    for (int i = 0; i < 100; i++) {
      db.insert(TABLE, key(i), fields("field0", "v" + i));
      keys.add(key(i));
    }
    cleanup(db);
    db = client();
    Vector<HashMap<String, ByteIterator>> result = new Vector<>();
    assertEquals(Status.OK, db.scan(TABLE, "", 1000, null, result));
    assertEquals(100, result.size());
    assertEquals(Map.of("field0", "v42"), read(db, key(42), null));
  }
}
