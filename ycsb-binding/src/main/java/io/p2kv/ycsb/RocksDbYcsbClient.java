package io.p2kv.ycsb;

import io.p2kv.KeyValue;
import io.p2kv.SeparationSettings;
import io.p2kv.internal.engine.Engine;
import io.p2kv.internal.engine.EngineIterator;
import io.p2kv.internal.engine.EngineProperty;
import io.p2kv.internal.engine.rocksdb.RocksDbEngineFactory;
import io.p2kv.internal.separation.SeparationPolicy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;

/**
 * The baseline YCSB binding: one plain RocksDB instance that every client thread calls directly
 * (no queues, no workers, no batching beyond RocksDB's own write groups): {@code site.ycsb.Client
 * -db io.p2kv.ycsb.RocksDbYcsbClient -p p2kv.dir=/path ...}.
 *
 * <p>The instance is opened through p2kv's own engine factory, like the JMH baselines, so it has
 * exactly the options of one p2kv shard: block cache and memtable budget ({@code
 * p2kv.memorybudgetmb}), bloom filters, compression, durability ({@code p2kv.sync}), the blob-file
 * options of {@code p2kv.valueseparation} (for the adaptive {@code sizeaware} policy, the starting
 * placement: the baseline has no tuner), and the same unused metadata column family. Keys, the
 * record encoding, update merging and the operations' semantics are those of {@link
 * P2kvYcsbClient} (shared code); scans read one RocksDB iterator. An update is what a RocksDB user
 * in Java has to write, since RocksDB's merge operators cannot be written in Java: a get, the
 * merge and a put, under a striped per-key lock (1024 stripes) so that two updates of one key never
 * lose each other's fields. The same {@code p2kv.*}
 * properties are accepted, so one command line serves both bindings; those that configure p2kv's
 * shards and workers ({@code shards}, {@code maxbatch}, {@code maxbatchbytes}, {@code
 * maxdurablebatch}, {@code maxdurablebatchbytes}, {@code readpath},
 * {@code idlemode}, {@code pinning}, {@code yieldwaitnanos}) have no effect here. The RocksDB
 * files are directly in {@code p2kv.dir}.
 */
public final class RocksDbYcsbClient extends StoreYcsbClient {
  private static final SharedStores STORES = new SharedStores("RocksDB");

  /** Called by YCSB, once per client thread. */
  public RocksDbYcsbClient() {}

  @Override
  SharedStores stores() {
    return STORES;
  }

  static SharedStores registry() {
    return STORES;
  }

  @Override
  YcsbStore open(BindingConfig c) {
    try {
      Files.createDirectories(c.dir());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + c.dir(), e);
    }
    RocksDbEngineFactory factory =
        new RocksDbEngineFactory(
            1, c.memoryBudgetBytes(), c.durability(), null, c.valueSeparation() == null ? SeparationSettings.NONE : SeparationPolicy.initialSettings(c.valueSeparation()));
    try {
      Engine engine = factory.open(0, c.dir(), true);
      engine.admin().startCompactions(); // no tuner here: nothing to restore first
      return new Store(factory, engine);
    } catch (RuntimeException e) {
      factory.close();
      throw e;
    }
  }

  /** One RocksDB instance, called directly by the client threads. */
  private static final class Store extends YcsbStore {
    private static final int LOCK_STRIPES = 1024;

    private final RocksDbEngineFactory factory;
    private final Engine engine;
    private final ReentrantLock[] updateLocks = new ReentrantLock[LOCK_STRIPES];

    Store(RocksDbEngineFactory factory, Engine engine) {
      this.factory = factory;
      this.engine = engine;
      for (int i = 0; i < LOCK_STRIPES; i++) {
        updateLocks[i] = new ReentrantLock();
      }
    }

    /** Read, merge, write under the key's lock stripe. */
    @Override
    byte[] update(String ycsbKey, byte[] key, UnaryOperator<byte[]> merge) {
      int h = ycsbKey.hashCode();
      ReentrantLock lock = updateLocks[(h ^ (h >>> 16)) & (LOCK_STRIPES - 1)];
      lock.lock();
      try {
        byte[] record = engine.get(key);
        if (record == null) {
          return null;
        }
        byte[] merged = merge.apply(record);
        engine.put(key, merged);
        return merged;
      } finally {
        lock.unlock();
      }
    }

    @Override
    byte[] get(byte[] key) {
      return engine.get(key);
    }

    @Override
    void put(byte[] key, byte[] value) {
      engine.put(key, value);
    }

    @Override
    void delete(byte[] key) {
      engine.delete(key);
    }

    @Override
    List<KeyValue> scan(byte[] start, int limit) {
      List<KeyValue> out = new ArrayList<>(Math.min(limit, 1024));
      if (limit == 0) {
        return out;
      }
      try (EngineIterator it = engine.newIterator(null, null)) {
        for (it.seek(start); it.valid() && out.size() < limit; it.next()) {
          out.add(new KeyValue(it.key(), it.value()));
        }
      }
      return out;
    }

    @Override
    void flush() {
      engine.admin().flush();
    }

    @Override
    long pendingCompactionBytes() {
      return Math.max(0, engine.admin().property(EngineProperty.PENDING_COMPACTION_BYTES));
    }

    /** Engine first, then the shared resources it uses (the factory's documented order). */
    @Override
    public void close() {
      try {
        engine.close();
      } finally {
        factory.close();
      }
    }
  }
}
