package io.p2kv.internal.engine.rocksdb;

import io.p2kv.SeparationSettings;
import io.p2kv.internal.engine.Engine;
import io.p2kv.internal.engine.EngineException;
import io.p2kv.internal.engine.EngineProperty;
import io.p2kv.rocksdb.RocksDbConfigurer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.rocksdb.CompactRangeOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * One RocksDB instance behind one shard. The pending batch is one {@link WriteBatch} reused for
 * the life of the shard (cleared after each commit), so batching allocates no native memory per
 * batch.
 *
 * <h2>Value separation</h2>
 * {@link #applySeparation} changes the blob options of the live instance with {@code setOptions}
 * (see {@link BlobOptionsMapping}); RocksDB installs them under its DB mutex, which the write
 * path of a single writer does not take, so the worker's writes are not held up. {@link
 * #compact} turns garbage collection on with an age cutoff of 1 for its duration, so that a full
 * compaction collects every blob file whatever the policy's settings, then restores them. {@code tuneLock} orders the two
 * (they run on the tuner and on administrative threads, never on the worker).
 */
final class RocksDbEngine implements Engine {
  private final int shard;
  private final Path dir;
  private final RocksDB db;
  private final Options options;
  private final WriteOptions writeOptions;
  private final Statistics statistics;
  private final RocksDbConfigurer configurer;
  private final WriteBatch pending = new WriteBatch();
  private final boolean separationOverridden;
  private final ReentrantLock tuneLock = new ReentrantLock();
  private volatile SeparationSettings separation;
  private boolean closed;

  RocksDbEngine(
      int shard,
      Path dir,
      RocksDB db,
      Options options,
      WriteOptions writeOptions,
      Statistics statistics,
      RocksDbConfigurer configurer,
      SeparationSettings separation,
      boolean separationOverridden) {
    this.shard = shard;
    this.dir = dir;
    this.db = db;
    this.options = options;
    this.writeOptions = writeOptions;
    this.statistics = statistics;
    this.configurer = configurer;
    this.separation = separation;
    this.separationOverridden = separationOverridden;
  }

  @Override
  public void put(byte[] key, byte[] value) {
    try {
      db.put(writeOptions, key, value);
    } catch (RocksDBException e) {
      throw failure("put", e);
    }
  }

  @Override
  public void delete(byte[] key) {
    try {
      db.delete(writeOptions, key);
    } catch (RocksDBException e) {
      throw failure("delete", e);
    }
  }

  @Override
  public void batchPut(byte[] key, byte[] value) {
    try {
      pending.put(key, value);
    } catch (RocksDBException e) {
      pending.clear();
      throw failure("batch put", e);
    }
  }

  @Override
  public void batchDelete(byte[] key) {
    try {
      pending.delete(key);
    } catch (RocksDBException e) {
      pending.clear();
      throw failure("batch delete", e);
    }
  }

  @Override
  public void commitBatch() {
    try {
      db.write(writeOptions, pending);
    } catch (RocksDBException e) {
      throw failure("write batch", e);
    } finally {
      pending.clear();
    }
  }

  @Override
  public byte[] get(byte[] key) {
    try {
      return db.get(key);
    } catch (RocksDBException e) {
      throw failure("get", e);
    }
  }

  @Override
  public List<byte[]> multiGet(List<byte[]> keys) {
    try {
      return db.multiGetAsList(keys);
    } catch (RocksDBException e) {
      throw failure("multiGet", e);
    }
  }

  @Override
  public long property(EngineProperty property) {
    try {
      return switch (property) {
        case MEMTABLE_BYTES -> db.getLongProperty("rocksdb.cur-size-all-mem-tables");
        case PENDING_COMPACTION_BYTES -> db.getLongProperty("rocksdb.estimate-pending-compaction-bytes");
        case SST_BYTES -> db.getLongProperty("rocksdb.total-sst-files-size");
        case BLOB_BYTES -> db.getLongProperty("rocksdb.total-blob-file-size");
        case ESTIMATED_KEYS -> db.getLongProperty("rocksdb.estimate-num-keys");
        case FLUSH_WRITE_BYTES -> statistics.getTickerCount(TickerType.FLUSH_WRITE_BYTES);
        case COMPACTION_WRITE_BYTES -> statistics.getTickerCount(TickerType.COMPACT_WRITE_BYTES);
        case BLOB_WRITE_BYTES -> statistics.getTickerCount(TickerType.BLOB_DB_BLOB_FILE_BYTES_WRITTEN);
        case BLOB_GC_RELOCATED_BYTES -> statistics.getTickerCount(TickerType.BLOB_DB_GC_BYTES_RELOCATED);
        case LIVE_DATA_BYTES -> db.getLongProperty("rocksdb.estimate-live-data-size");
        case BLOB_GARBAGE_BYTES -> db.getLongProperty("rocksdb.live-blob-file-garbage-size");
        case BACKGROUND_JOBS ->
            db.getLongProperty("rocksdb.num-running-flushes")
                + db.getLongProperty("rocksdb.num-running-compactions")
                + db.getLongProperty("rocksdb.mem-table-flush-pending")
                + db.getLongProperty("rocksdb.compaction-pending");
        case LSM_LEVELS -> options.numLevels() - db.getLongProperty("rocksdb.base-level") + 1;
      };
    } catch (RocksDBException e) {
      return -1;
    }
  }

  @Override
  public void applySeparation(SeparationSettings settings) {
    tuneLock.lock();
    try {
      if (!BlobOptionsMapping.sameOptions(settings, separation)) {
        db.setOptions(BlobOptionsMapping.mutable(settings));
      }
      separation = settings;
    } catch (RocksDBException e) {
      throw failure("setOptions (value separation)", e);
    } finally {
      tuneLock.unlock();
    }
  }

  @Override
  public SeparationSettings separation() {
    return separation;
  }

  @Override
  public boolean separationOverridden() {
    return separationOverridden;
  }

  @Override
  public void flush() {
    try (FlushOptions flushOptions = new FlushOptions().setWaitForFlush(true)) {
      db.flush(flushOptions);
    } catch (RocksDBException e) {
      throw failure("flush", e);
    }
  }

  @Override
  public void compact() {
    tuneLock.lock();
    try (CompactRangeOptions range =
        new CompactRangeOptions()
            .setBottommostLevelCompaction(CompactRangeOptions.BottommostLevelCompaction.kForceOptimized)) {
      // Collect every blob file's garbage, whatever the settings (the adaptive policy turns
      // collection off while it sees only inserts; the user asked for a full compaction).
      SeparationSettings s = separation;
      boolean fullGc = s.gcAgeCutoff() < 1;
      if (fullGc) {
        db.setOptions(BlobOptionsMapping.mutable(s.withGc(1.0, s.gcGarbageRatio())));
      }
      try {
        db.compactRange(db.getDefaultColumnFamily(), null, null, range);
      } finally {
        if (fullGc) {
          db.setOptions(BlobOptionsMapping.mutable(s));
        }
      }
    } catch (RocksDBException e) {
      throw failure("compact", e);
    } finally {
      tuneLock.unlock();
    }
  }

  private EngineException failure(String operation, RocksDBException e) {
    String status = e.getStatus() == null ? "" : " [" + e.getStatus().getCodeString() + "]";
    return new EngineException(
        "RocksDB " + operation + " failed on shard " + shard + " (" + dir + ")" + status + ": " + e.getMessage(), e);
  }

  /**
   * Close order: pending batch, DB (flushes nothing; the WAL has the data), write options, hook,
   * options, the shard's statistics.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    pending.close();
    try {
      db.closeE();
    } catch (RocksDBException e) {
      throw failure("close", e);
    } finally {
      writeOptions.close();
      if (configurer != null) {
        configurer.close(shard, options);
      }
      options.close();
      statistics.close();
    }
  }
}
