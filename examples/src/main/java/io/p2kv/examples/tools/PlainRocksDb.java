package io.p2kv.examples.tools;

import io.p2kv.Durability;
import io.p2kv.KeyValue;
import io.p2kv.internal.engine.Engine;
import io.p2kv.internal.engine.EngineBatch;
import io.p2kv.internal.engine.EngineIterator;
import io.p2kv.internal.engine.EngineProperty;
import io.p2kv.internal.engine.rocksdb.RocksDbEngineFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Thread-safe as RocksDB is: the demo's baseline, one plain RocksDB instance that callers use
 * directly (no queue, no worker), as an application would without p2kv.
 *
 * <p>It is opened through p2kv's own engine factory, as the JMH baselines are ({@code
 * io.p2kv.bench.RocksBaseline}), so it has exactly the options of one p2kv shard: block cache,
 * bloom filters, memtable budget, compression, durability. This uses p2kv's internal engine
 * package on purpose; applications should not. (The demo does not depend on the jmh-benchmarks
 * module: that would put JMH, XChart and Jackson on the launcher's class path for forty lines.)
 */
final class PlainRocksDb implements AutoCloseable {
  private final RocksDbEngineFactory factory;
  private final Engine engine;

  /**
   * Creates a new instance.
   *
   * @param dir an empty or absent directory
   * @param durability as for the p2kv store it is compared with
   * @param memoryBudgetBytes the same budget the p2kv store has
   */
  PlainRocksDb(Path dir, Durability durability, long memoryBudgetBytes) {
    this.factory = new RocksDbEngineFactory(1, memoryBudgetBytes, durability, null);
    try {
      this.engine = factory.open(0, dir, true);
      engine.admin().startCompactions(); // no tuner here: nothing to restore first
    } catch (RuntimeException e) {
      factory.close();
      throw e;
    }
  }

  void put(byte[] key, byte[] value) {
    engine.put(key, value);
  }

  byte[] get(byte[] key) {
    return engine.get(key);
  }

  /**
   * Up to {@code limit} pairs with key {@code >= startKey}, in key order, read as an application
   * reads one RocksDB: one unbounded iterator (the engine's, the wrapper p2kv's shards use too),
   * seek, then key, value and next per pair; each pair a new {@link KeyValue} in a new list, as
   * {@code P2kv.scan} returns them. Thread-safe.
   */
  List<KeyValue> scan(byte[] startKey, int limit) {
    List<KeyValue> out = new ArrayList<>(Math.min(limit, 1024));
    try (EngineIterator it = engine.newIterator(null, null)) {
      it.seek(startKey);
      while (out.size() < limit && it.valid()) {
        out.add(new KeyValue(it.key(), it.value()));
        if (out.size() < limit) {
          it.next();
        }
      }
    }
    return out;
  }

  /**
   * One atomic write of many pairs, the fastest way to load plain RocksDB from one thread. Not
   * thread-safe: the demo loads from one thread.
   */
  void putAll(byte[][] keys, byte[][] values, int count) {
    try (EngineBatch batch = engine.newBatch()) {
      for (int i = 0; i < count; i++) {
        batch.put(keys[i], values[i]);
      }
      engine.write(batch);
    }
  }

  /** Flushes the memtables (background compactions go on). */
  void flush() {
    engine.admin().flush();
  }

  /** RocksDB's estimate of the bytes its compactions still have to rewrite. */
  long pendingCompactionBytes() {
    return Math.max(0, engine.admin().property(EngineProperty.PENDING_COMPACTION_BYTES));
  }

  /** Flushes the memtables and compacts everything, as {@code P2kv.compact()} does. */
  void compact() {
    engine.admin().flush();
    engine.admin().compact();
  }

  /** Closes the instance, then the resources it shares with nothing else. */
  @Override
  public void close() {
    try {
      engine.close();
    } finally {
      factory.close();
    }
  }
}
