package io.p2kv.bench;

import io.p2kv.Durability;
import io.p2kv.internal.Partitioner;
import io.p2kv.internal.engine.Engine;
import io.p2kv.internal.engine.EngineBatch;
import io.p2kv.internal.engine.rocksdb.RocksDbEngineFactory;
import io.p2kv.rocksdb.RocksDbConfigurer;
import java.nio.file.Path;
import java.util.List;

/**
 * The plain-RocksDB baselines a user would pick instead of p2kv: callers call RocksDB directly,
 * no queues, no workers. Opened through p2kv's own engine factory, so every instance has exactly
 * the options of a p2kv shard (block cache, bloom filters, memtable budget, compression,
 * durability); only the write-path variant differs.
 *
 * <ul>
 *   <li>{@code rocksdb}: one instance, default write path;
 *   <li>{@code rocksdb-pipelined}: one instance, {@code enable_pipelined_write};
 *   <li>{@code rocksdb-unordered}: one instance, {@code unordered_write} (weaker snapshot
 *       guarantees; the fastest a user could configure);
 *   <li>{@code rocksdb-xN}: N instances, keys hashed by the caller exactly as p2kv does (the
 *       paper's multi-instance baseline).
 * </ul>
 */
public final class RocksBaseline implements AutoCloseable {
  /** Every baseline name accepted by {@link #open}. */
  public static final List<String> NAMES =
      List.of("rocksdb", "rocksdb-pipelined", "rocksdb-unordered", "rocksdb-x2", "rocksdb-x4");

  private final Path dir;
  private final RocksDbEngineFactory factory;
  private final Engine[] engines;
  /** One write batch per instance, for the single-threaded writers (preload, batch limit). */
  private final EngineBatch[] batches;
  private final Partitioner partitioner;

  private RocksBaseline(Path dir, RocksDbEngineFactory factory, Engine[] engines) {
    this.dir = dir;
    this.factory = factory;
    this.engines = engines;
    this.batches = new EngineBatch[engines.length];
    for (int i = 0; i < engines.length; i++) {
      batches[i] = engines[i].newBatch();
    }
    this.partitioner = new Partitioner(engines.length);
  }

  /**
   * Opens a fresh baseline in a temporary directory.
   *
   * @param name one of {@link #NAMES}
   * @param durability as for p2kv
   * @param memoryBudgetBytes the same budget p2kv gets
   * @return the open baseline
   */
  public static RocksBaseline open(String name, Durability durability, long memoryBudgetBytes) {
    int instances = 1;
    RocksDbConfigurer hook = null;
    switch (name) {
      case "rocksdb" -> {}
      case "rocksdb-pipelined" -> hook = (shard, options) -> options.setEnablePipelinedWrite(true);
      case "rocksdb-unordered" -> hook = (shard, options) -> options.setUnorderedWrite(true);
      default -> {
        if (!name.startsWith("rocksdb-x")) {
          throw new IllegalArgumentException("unknown baseline " + name + "; one of " + NAMES);
        }
        instances = Integer.parseInt(name.substring("rocksdb-x".length()));
      }
    }
    Path dir = BenchData.tempDir("rocks-baseline");
    RocksDbEngineFactory factory = new RocksDbEngineFactory(instances, memoryBudgetBytes, durability, hook);
    Engine[] engines = new Engine[instances];
    for (int i = 0; i < instances; i++) {
      engines[i] = factory.open(i, dir.resolve("instance-" + i), true);
      engines[i].admin().startCompactions(); // no tuner here: nothing to restore first
    }
    return new RocksBaseline(dir, factory, engines);
  }

  private Engine engine(byte[] key) {
    return engines[partitioner.shardOf(key)];
  }

  /** A direct RocksDB put from the calling thread. */
  public void put(byte[] key, byte[] value) {
    engine(key).put(key, value);
  }

  /** A direct RocksDB get from the calling thread. */
  public byte[] get(byte[] key) {
    return engine(key).get(key);
  }

  /** A direct multiGet (single-instance baselines only). */
  public List<byte[]> multiGet(List<byte[]> keys) {
    return engines[0].multiGet(keys);
  }

  /** Up to {@code limit} pairs with key >= start from the first instance, in key order. */
  public List<io.p2kv.KeyValue> scan(byte[] start, int limit) {
    List<io.p2kv.KeyValue> out = new java.util.ArrayList<>(limit);
    try (io.p2kv.internal.engine.EngineIterator it = engines[0].newIterator(null, null)) {
      for (it.seek(start); it.valid() && out.size() < limit; it.next()) {
        out.add(new io.p2kv.KeyValue(it.key(), it.value()));
      }
    }
    return out;
  }

  /**
   * Up to {@code limit} pairs with key >= start over every instance (the {@code rocksdb-xN}
   * baselines), merged in key order by the least code that can do it: each instance's iterator
   * seeks and reads its share of the limit into a buffer right away, and the merge takes the
   * smallest buffered head (a linear scan of N heads), reading a further share from an instance
   * whose buffer ran dry. No guards, locks or heap: what any implementation over N hash-partitioned
   * RocksDB instances pays at least, the floor for p2kv's multi-shard scans (docs/benchmarks/SCANS.md).
   */
  public List<io.p2kv.KeyValue> mergedScan(byte[] start, int limit) {
    int n = engines.length;
    int share = (limit + n - 1) / n;
    io.p2kv.internal.engine.EngineIterator[] its = new io.p2kv.internal.engine.EngineIterator[n];
    byte[][][] keys = new byte[n][share][];
    byte[][][] values = new byte[n][share][];
    int[] count = new int[n];
    int[] at = new int[n];
    List<io.p2kv.KeyValue> out = new java.util.ArrayList<>(limit);
    try {
      for (int i = 0; i < n; i++) {
        its[i] = engines[i].newIterator(null, null);
        its[i].seek(start);
        count[i] = fill(its[i], keys[i], values[i]);
      }
      while (out.size() < limit) {
        int best = -1;
        for (int i = 0; i < n; i++) {
          if (at[i] == count[i] && its[i].valid()) {
            count[i] = fill(its[i], keys[i], values[i]);
            at[i] = 0;
          }
          if (at[i] < count[i]
              && (best < 0 || java.util.Arrays.compareUnsigned(keys[i][at[i]], keys[best][at[best]]) < 0)) {
            best = i;
          }
        }
        if (best < 0) {
          break;
        }
        out.add(new io.p2kv.KeyValue(keys[best][at[best]], values[best][at[best]]));
        at[best]++;
      }
    } finally {
      for (io.p2kv.internal.engine.EngineIterator it : its) {
        if (it != null) {
          it.close();
        }
      }
    }
    return out;
  }

  private static int fill(io.p2kv.internal.engine.EngineIterator it, byte[][] keys, byte[][] values) {
    int c = 0;
    for (; c < keys.length && it.valid(); it.next()) {
      keys[c] = it.key();
      values[c++] = it.value();
    }
    return c;
  }

  /** Every pair of [start, end) from the first instance, in key order. */
  public List<io.p2kv.KeyValue> range(byte[] start, byte[] end) {
    List<io.p2kv.KeyValue> out = new java.util.ArrayList<>();
    try (io.p2kv.internal.engine.EngineIterator it = engines[0].newIterator(null, end)) {
      for (it.seek(start); it.valid(); it.next()) {
        out.add(new io.p2kv.KeyValue(it.key(), it.value()));
      }
    }
    return out;
  }

  /**
   * Writes a batch to the first instance with one call (the batching limit benchmark: single
   * writer only).
   */
  public void writeBatch(List<byte[]> keys, byte[] value) {
    EngineBatch batch = batches[0];
    for (byte[] k : keys) {
      batch.put(k, value);
    }
    engines[0].write(batch);
  }

  /** Loads keys {@code 0..n-1} with batches (single thread), then flushes and compacts. */
  public void preload(long n, int valueBytes) {
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(42);
    byte[] value = BenchData.value(valueBytes, rnd);
    Engine[] es = engines;
    int[] pending = new int[es.length];
    for (long i = 0; i < n; i++) {
      byte[] k = BenchData.key(i);
      int s = partitioner.shardOf(k);
      batches[s].put(k, value);
      if (++pending[s] == 1000) {
        es[s].write(batches[s]);
        pending[s] = 0;
      }
    }
    for (int s = 0; s < es.length; s++) {
      if (pending[s] > 0) {
        es[s].write(batches[s]);
      }
      es[s].admin().flush();
      es[s].admin().compact();
    }
  }

  @Override
  public void close() {
    for (EngineBatch b : batches) {
      b.close();
    }
    for (Engine e : engines) {
      e.close();
    }
    factory.close();
    BenchData.deleteTree(dir);
  }
}
