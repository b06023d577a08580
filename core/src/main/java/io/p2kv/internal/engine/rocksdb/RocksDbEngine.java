package io.p2kv.internal.engine.rocksdb;

import io.p2kv.LevelStats;
import io.p2kv.internal.engine.Engine;
import io.p2kv.internal.engine.EngineException;
import io.p2kv.internal.engine.EngineProperty;
import io.p2kv.rocksdb.RocksDbConfigurer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rocksdb.FlushOptions;
import org.rocksdb.LevelMetaData;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * One RocksDB instance behind one shard. The pending batch is one {@link WriteBatch} reused for
 * the life of the shard (cleared after each commit), so batching allocates no native memory per
 * batch.
 */
final class RocksDbEngine implements Engine {
  private final int shard;
  private final Path dir;
  private final RocksDB db;
  private final Options options;
  private final WriteOptions writeOptions;
  private final RocksDbConfigurer configurer;
  private final WriteBatch pending = new WriteBatch();
  private boolean closed;

  RocksDbEngine(
      int shard,
      Path dir,
      RocksDB db,
      Options options,
      WriteOptions writeOptions,
      RocksDbConfigurer configurer) {
    this.shard = shard;
    this.dir = dir;
    this.db = db;
    this.options = options;
    this.writeOptions = writeOptions;
    this.configurer = configurer;
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
    String name =
        switch (property) {
          case MEMTABLE_BYTES -> "rocksdb.cur-size-all-mem-tables";
          case PENDING_COMPACTION_BYTES -> "rocksdb.estimate-pending-compaction-bytes";
          case SST_BYTES -> "rocksdb.total-sst-files-size";
          case BLOB_BYTES -> "rocksdb.total-blob-file-size";
          case ESTIMATED_KEYS -> "rocksdb.estimate-num-keys";
        };
    try {
      return db.getLongProperty(name);
    } catch (RocksDBException e) {
      return -1;
    }
  }

  /** From the column family's metadata: one consistent view of every level's files and bytes. */
  @Override
  public List<LevelStats> levels() {
    List<LevelStats> levels = new ArrayList<>();
    int last = -1;
    for (LevelMetaData level : db.getColumnFamilyMetaData().levels()) {
      levels.add(new LevelStats(level.level(), level.files().size(), level.size()));
      if (!level.files().isEmpty()) {
        last = levels.size() - 1;
      }
    }
    return List.copyOf(levels.subList(0, last + 1));
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
    try {
      db.compactRange();
    } catch (RocksDBException e) {
      throw failure("compact", e);
    }
  }

  private EngineException failure(String operation, RocksDBException e) {
    String status = e.getStatus() == null ? "" : " [" + e.getStatus().getCodeString() + "]";
    return new EngineException(
        "RocksDB " + operation + " failed on shard " + shard + " (" + dir + ")" + status + ": " + e.getMessage(), e);
  }

  /** Close order: pending batch, DB (flushes nothing; the WAL has the data), write options, hook, options. */
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
    }
  }
}
