package io.p2kv.examples;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.p2kv.Durability;
import io.p2kv.IdleMode;
import io.p2kv.LatencyStats;
import io.p2kv.P2kv;
import io.p2kv.QueueFullPolicy;
import io.p2kv.ReadPath;
import io.p2kv.ShardStats;
import io.p2kv.rocksdb.RocksDbConfigurer;
import java.io.IOException;
import java.util.concurrent.Semaphore;
import org.rocksdb.CompressionType;
import org.rocksdb.Options;

/**
 * The options that matter, the RocksDB tuning hook, and the stats that tell whether they work.
 * Every option has a default; set only what you have measured a reason for.
 *
 * <p>Run: {@code ./p2kv example Tuning [dir]}.
 */
public final class Tuning {
  private Tuning() {}

  /** The tuning hook: called once per shard, after p2kv's defaults, before the shard opens. */
  static final class BulkLoadOptions implements RocksDbConfigurer {
    @Override
    public void configure(int shard, Options options) {
      options.setCompressionType(CompressionType.ZSTD_COMPRESSION); // smaller files, more CPU
      options.setLevel0FileNumCompactionTrigger(8); // fewer, larger compactions while loading
    }

    @Override
    public void close(int shard, Options options) {
      // Free native objects created in configure (none here: enums and numbers only).
    }
  }

  public static void main(String[] args) throws IOException {
    P2kv.Builder builder =
        P2kv.builder()
            .shards(2) // RocksDB instances = worker threads; fixed when the store is created
            .maxBatch(32) // most requests merged into one RocksDB write or multiGet (1 = off)
            .maxBatchBytes(256 * 1024) // and most payload bytes per write batch
            .durability(Durability.SYNC) // fsync per batch (not per put): survives power loss
            .readPath(ReadPath.WORKER) // gets go through the queue and merge into multiGets
            .queueCapacity(16_384) // per shard; a full queue makes callers wait ...
            .queueFullPolicy(QueueFullPolicy.FAIL_FAST) // ... or fail with QueueFullException
            .idleMode(IdleMode.PARK) // idle workers park (BUSY_SPIN: lower latency, a core each)
            .memoryBudgetBytes(128L << 20) // one block cache + memtables for all shards
            .recordLatency(true) // per-operation latency percentiles (HdrHistogram)
            .jmx(true) // stats as MBeans: io.p2kv:type=Store,... and type=Shard,...
            .rocksDbConfigurer(new BulkLoadOptions());

    try (ExampleDir dir = ExampleDir.fromArgs(args, "p2kv-tuning");
        P2kv store = builder.open(dir.path())) {
      Semaphore done = new Semaphore(0);
      for (int i = 0; i < 10_000; i++) {
        store.putAsync(("key-" + i).getBytes(UTF_8), new byte[100], (ok, error) -> {
          if (error != null) { // with FAIL_FAST: QueueFullException when a queue is full
            System.err.println("put failed: " + error);
          }
          done.release();
        });
      }
      done.acquireUninterruptibly(10_000); // every put has completed
      for (int i = 0; i < 10_000; i += 7) {
        store.get(("key-" + i).getBytes(UTF_8));
      }
      store.flush(); // memtables to SST files, so the sizes below are on disk

      // Is batching working? meanWriteBatch near 1 means callers rarely overlap.
      for (ShardStats s : store.stats().shards()) {
        System.out.printf("shard %d: %,d puts in %,d writes (mean batch %.1f), %,d SST bytes, files per level %s%n",
            s.shard(), s.puts(), s.writeCalls(), s.meanWriteBatch(), s.sstBytes(),
            s.levels().stream().map(l -> "L" + l.level() + "=" + l.files()).toList());
      }
      // Async latency runs from the call to completion, so it includes the wait in the queue.
      for (LatencyStats l : store.stats().latencies()) {
        if (l.count() > 0) {
          System.out.printf("%-9s %,7d ops  p50 %6.1f us  p99 %7.1f us  max %7.1f us%n",
              l.operation(), l.count(), l.p50Nanos() / 1e3, l.p99Nanos() / 1e3, l.maxNanos() / 1e3);
        }
      }
    }
  }
}
