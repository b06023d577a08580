package io.p2kv.internal.engine.rocksdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2kv.Durability;
import io.p2kv.TestSeeds;
import io.p2kv.internal.engine.Engine;
import io.p2kv.internal.engine.EngineAdmin;
import io.p2kv.internal.engine.EngineBatch;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link RocksDbCheckpoint}: a copy holds exactly the writes made before {@code beginCheckpoint},
 * those already in table files and those only in the write-ahead log (or, without a log, in the
 * memtable, which it then flushes), and none made after it, also when they reach the same log
 * and a flush writes them to new files before the copy is written; and so on a {@code SYNC} DB,
 * which recycles its logs, where a log at the cut is an old file written over in place.
 */
class RocksDbCheckpointTest {
  @TempDir Path tmp;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @ParameterizedTest
  @EnumSource(Durability.class)
  void shouldCopyExactlyTheStateAtBeginWhileTheEngineRunsOn(Durability durability) {
    Path copy = tmp.resolve("copy");
    try (RocksDbEngineFactory factory = new RocksDbEngineFactory(1, 64L << 20, durability, null);
        Engine engine = factory.open(0, tmp.resolve("db"), true)) {
      engine.put(b("flushed"), b("1"));
      engine.admin().flush();
      engine.put(b("logged"), b("2")); // only in the WAL and the memtable
      engine.putMeta(b("m"), b("meta"));
      try (EngineAdmin.Checkpoint checkpoint = engine.admin().beginCheckpoint()) {
        engine.put(b("after"), b("3")); // the same WAL, after the size the copy takes
        engine.put(b("logged"), b("changed"));
        engine.admin().flush(); // new files, a new WAL; the old ones kept for the copy
        engine.admin().compact();
        checkpoint.writeTo(copy);
      }
    }
    try (RocksDbEngineFactory factory = new RocksDbEngineFactory(1, 64L << 20, durability, null);
        Engine opened = factory.open(0, copy, false)) {
      assertArrayEquals(b("1"), opened.get(b("flushed")));
      assertArrayEquals(b("2"), opened.get(b("logged")));
      assertNull(opened.get(b("after")));
      assertArrayEquals(b("meta"), opened.scanMeta(b("m")).get(0)[1]);
    }
  }

  /**
   * A {@code SYNC} DB recycles its logs, so at the cut its newest log is an old file written over:
   * past the writes before the cut lie those after it, then the stale records of the file's
   * previous life. Batches of up to 200 KB span several 32 KiB log blocks.
   */
  @Test
  void shouldCutARecycledLogAtTheCutsLastWrite() {
    TestSeeds.run(getClass(), "recycled", seed -> cutRecycledLog(new Random(seed)));
  }

  private void cutRecycledLog(Random random) throws IOException {
    Path db = tmp.resolve("db");
    Path copy = tmp.resolve("copy");
    Map<String, byte[]> model = new HashMap<>();
    Map<String, Long> logsAtCut;
    try (RocksDbEngineFactory factory = new RocksDbEngineFactory(1, 64L << 20, Durability.SYNC, null);
        Engine engine = factory.open(0, db, true)) {
      // Each flush switches to a new log and leaves the one it ended for recycling: the first
      // flush to a new file, the second to the first log's file (1.2 MB), written over from here.
      for (int round = 0; round < 2; round++) {
        for (int i = 0; i < (round == 0 ? 600 : 20); i++) {
          write(engine, model, "k" + random.nextInt(300), random, round == 0 ? 2000 : 300);
        }
        engine.admin().flush();
      }
      for (int i = 0; i < 30; i++) {
        write(engine, model, "k" + random.nextInt(300), random, i % 10 == 9 ? 200_000 : 100);
      }
      EngineBatch noWal = engine.newBatch(); // a batch's own NO_WAL: logged on a recycling DB
      noWal.put(b("unlogged?"), b("logged"));
      engine.write(noWal, Durability.NO_WAL);
      model.put("unlogged?", b("logged"));
      logsAtCut = logSizes(db);
      try (EngineAdmin.Checkpoint checkpoint = engine.admin().beginCheckpoint()) {
        for (int i = 0; i < 30; i++) { // the same recycled log, then a new one after the flush
          engine.put(b("k" + random.nextInt(300)), bytes(random, i % 10 == 9 ? 200_000 : 100));
          engine.put(b("after" + i), b("x"));
        }
        engine.admin().flush();
        engine.put(b("after-flush"), b("y"));
        checkpoint.writeTo(copy);
      }
    }
    Map<String, Long> copied = logSizes(copy);
    assertTrue(
        copied.entrySet().stream().anyMatch(e -> e.getValue() < logsAtCut.getOrDefault(e.getKey(), 0L)),
        "no copied log was shorter than its file at the cut, so no recycled log was cut: " + copied + " / " + logsAtCut);
    try (RocksDbEngineFactory factory = new RocksDbEngineFactory(1, 64L << 20, Durability.SYNC, null);
        Engine opened = factory.open(0, copy, false)) {
      for (Map.Entry<String, byte[]> e : model.entrySet()) {
        assertArrayEquals(e.getValue(), opened.get(b(e.getKey())), e.getKey());
      }
      for (int i = 0; i < 300; i++) {
        if (!model.containsKey("k" + i)) {
          assertNull(opened.get(b("k" + i)), "k" + i);
        }
      }
      for (int i = 0; i < 30; i++) {
        assertNull(opened.get(b("after" + i)));
      }
      assertNull(opened.get(b("after-flush")));
    }
  }

  @Test
  void shouldRefuseRecycledLogsOnAStoreWithoutALog() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> {
              try (RocksDbEngineFactory factory =
                      new RocksDbEngineFactory(1, 64L << 20, Durability.NO_WAL, (shard, options) -> options.setRecycleLogFileNum(2));
                  Engine engine = factory.open(0, tmp.resolve("db"), true)) {
                engine.put(b("k"), b("v"));
              }
            });
    assertTrue(e.getMessage().contains("recycle_log_file_num") && e.getMessage().contains("NO_WAL"), e.getMessage());
  }

  private static void write(Engine engine, Map<String, byte[]> model, String key, Random random, int valueBytes) {
    byte[] value = bytes(random, valueBytes);
    engine.put(b(key), value);
    model.put(key, value);
  }

  private static byte[] bytes(Random random, int n) {
    byte[] value = new byte[n];
    random.nextBytes(value);
    return value;
  }

  private static Map<String, Long> logSizes(Path dir) throws IOException {
    Map<String, Long> sizes = new HashMap<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        if (f.getFileName().toString().endsWith(".log")) {
          sizes.put(f.getFileName().toString(), Files.size(f));
        }
      }
    }
    assertFalse(sizes.isEmpty(), "no log files in " + dir);
    return sizes;
  }
}
