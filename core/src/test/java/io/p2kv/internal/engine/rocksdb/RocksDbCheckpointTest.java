package io.p2kv.internal.engine.rocksdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.p2kv.Durability;
import io.p2kv.internal.engine.Engine;
import io.p2kv.internal.engine.EngineAdmin;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link RocksDbCheckpoint}: a copy holds exactly the writes made before {@code beginCheckpoint},
 * those already in table files and those only in the write-ahead log (or, without a log, in the
 * memtable, which it then flushes), and none made after it, also when they reach the same log
 * and a flush writes them to new files before the copy is written.
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
}
