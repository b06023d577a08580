package io.p2kv.internal.engine.rocksdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2kv.Durability;
import io.p2kv.internal.engine.Engine;
import io.p2kv.rocksdb.RocksDbConfigurer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;

/**
 * A metadata put asked to be at least as durable as a given level is (the commit record of a
 * cross-shard batch written with a durability of its own): fsynced on a store whose writes are
 * not, logged on a store whose writes are not; and no more than the store's writes otherwise.
 * Checked through RocksDB's own counters of WAL syncs and WAL bytes.
 */
class MetaDurabilityTest {
  @TempDir Path tmp;

  /** Options whose RocksDB counts into {@code stats}. */
  private static RocksDbConfigurer counting(Statistics stats) {
    return (shard, options) -> options.setStatistics(stats);
  }

  @Test
  void shouldFsyncAMetaPutThatAsksForSyncOnAStoreThatDoesNotSync() {
    try (Statistics stats = new Statistics();
        RocksDbEngineFactory factory = new RocksDbEngineFactory(1, 64L << 20, Durability.WAL, counting(stats))) {
      Engine engine = factory.open(0, tmp.resolve("wal"), true);
      try {
        long synced = stats.getTickerCount(TickerType.WAL_FILE_SYNCED);
        engine.putMeta(new byte[] {'c', 1}, new byte[0]);
        engine.putMeta(new byte[] {'c', 2}, new byte[0], null);
        engine.putMeta(new byte[] {'c', 3}, new byte[0], Durability.WAL);
        engine.putMeta(new byte[] {'c', 4}, new byte[0], Durability.NO_WAL);
        assertEquals(synced, stats.getTickerCount(TickerType.WAL_FILE_SYNCED), "the store's durability: no fsync");
        engine.putMeta(new byte[] {'c', 5}, new byte[0], Durability.SYNC);
        assertEquals(synced + 1, stats.getTickerCount(TickerType.WAL_FILE_SYNCED), "SYNC asked for: one fsync");
      } finally {
        engine.close();
      }
    }
  }

  @Test
  void shouldLogAMetaPutThatAsksForTheLogOnAStoreThatWritesNone() {
    try (Statistics stats = new Statistics();
        RocksDbEngineFactory factory = new RocksDbEngineFactory(1, 64L << 20, Durability.NO_WAL, counting(stats))) {
      Engine engine = factory.open(0, tmp.resolve("no-wal"), true);
      try {
        long logged = stats.getTickerCount(TickerType.WAL_FILE_BYTES);
        long synced = stats.getTickerCount(TickerType.WAL_FILE_SYNCED);
        engine.putMeta(new byte[] {'c', 1}, new byte[0]);
        engine.putMeta(new byte[] {'c', 2}, new byte[0], Durability.NO_WAL);
        assertEquals(logged, stats.getTickerCount(TickerType.WAL_FILE_BYTES), "the store's durability: not logged");
        engine.putMeta(new byte[] {'c', 3}, new byte[0], Durability.WAL);
        long afterWal = stats.getTickerCount(TickerType.WAL_FILE_BYTES);
        assertTrue(afterWal > logged, "WAL asked for: logged");
        assertEquals(synced, stats.getTickerCount(TickerType.WAL_FILE_SYNCED), "WAL asked for: not fsynced");
        engine.putMeta(new byte[] {'c', 4}, new byte[0], Durability.SYNC);
        assertTrue(stats.getTickerCount(TickerType.WAL_FILE_BYTES) > afterWal, "SYNC asked for: logged");
        assertEquals(synced + 1, stats.getTickerCount(TickerType.WAL_FILE_SYNCED), "SYNC asked for: fsynced");
      } finally {
        engine.close();
      }
    }
  }

  @Test
  void shouldNotWeakenAMetaPutOnAStoreThatSyncsEveryWrite() {
    try (Statistics stats = new Statistics();
        RocksDbEngineFactory factory = new RocksDbEngineFactory(1, 64L << 20, Durability.SYNC, counting(stats))) {
      Engine engine = factory.open(0, tmp.resolve("sync"), true);
      try {
        long synced = stats.getTickerCount(TickerType.WAL_FILE_SYNCED);
        engine.putMeta(new byte[] {'c', 1}, new byte[0], Durability.NO_WAL);
        engine.putMeta(new byte[] {'c', 2}, new byte[0], Durability.WAL);
        engine.putMeta(new byte[] {'c', 3}, new byte[0], null);
        assertEquals(synced + 3, stats.getTickerCount(TickerType.WAL_FILE_SYNCED), "each put fsynced, as the store's writes");
      } finally {
        engine.close();
      }
    }
  }
}
