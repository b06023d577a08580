package io.p2kv.ycsb;

import io.p2kv.CacheStats;
import io.p2kv.KeyValue;
import io.p2kv.P2kv;
import io.p2kv.ShardStats;
import io.p2kv.StoreStats;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The YCSB binding of p2kv: {@code site.ycsb.Client -db io.p2kv.ycsb.P2kvYcsbClient -p
 * p2kv.dir=/path ...}.
 *
 * <p>YCSB creates one instance per client thread; all instances of one {@code p2kv.dir} share one
 * open store, opened by the first {@code init()} and closed by the last {@code cleanup()}. Every
 * operation uses p2kv's synchronous API (a YCSB thread blocks per operation anyway), so concurrent
 * YCSB threads are what fills the shard queues that the workers batch. Keys are YCSB's key strings
 * as UTF-8 bytes, records use the {@link RecordCodec} encoding, and the operations' semantics are
 * described in {@code StoreYcsbClient}; scans merge every shard's part in key order. An update is
 * one {@code P2kv.update}: the key's worker reads the record, merges the fields and writes it,
 * batched with the other writes of its run, with no lock on the binding's side.
 *
 * <p>Properties ({@code p2kv.*}; any other {@code p2kv.} name is an error): {@code p2kv.dir}
 * (required), {@code p2kv.shards}, {@code p2kv.maxbatch}, {@code p2kv.maxbatchbytes}, {@code
 * p2kv.maxdurablebatch} and {@code p2kv.maxdurablebatchbytes} (the caps of a durable write run,
 * with {@code p2kv.sync=true}), {@code p2kv.sync} ({@code true}: {@code Durability.SYNC}, {@code false}: {@code Durability.WAL}),
 * {@code p2kv.readpath} ({@code direct}, {@code worker}), {@code p2kv.idlemode} ({@code park},
 * {@code backoff}, {@code yield}, {@code busy_spin}), {@code p2kv.pinning} ({@code auto}, {@code
 * always}, {@code never}), {@code p2kv.yieldwaitnanos}, {@code p2kv.memorybudgetmb}, {@code p2kv.cachemb} (the value cache
 * in MiB, 0: off), {@code p2kv.valueseparation} ({@code none}, {@code all}, a threshold in bytes, {@code sizeaware},
 * {@code sizeaware-fixed}). Unset ones take p2kv's defaults.
 */
public final class P2kvYcsbClient extends StoreYcsbClient {
  private static final SharedStores STORES = new SharedStores("p2kv");
  private static final Logger LOG = LoggerFactory.getLogger(P2kvYcsbClient.class);

  /** Called by YCSB, once per client thread. */
  public P2kvYcsbClient() {}

  @Override
  SharedStores stores() {
    return STORES;
  }

  static SharedStores registry() {
    return STORES;
  }

  @Override
  YcsbStore open(BindingConfig c) {
    P2kv.Builder b =
        P2kv.builder()
            .durability(c.durability())
            .memoryBudgetBytes(c.memoryBudgetBytes());
    if (c.valueSeparation() != null) {
      b.valueSeparation(c.valueSeparation());
    }
    if (c.cacheBytes() != null) {
      b.cacheBytes(c.cacheBytes());
    }
    if (c.shards() != null) {
      b.shards(c.shards());
    }
    if (c.maxBatch() != null) {
      b.maxBatch(c.maxBatch());
    }
    if (c.maxBatchBytes() != null) {
      b.maxBatchBytes(c.maxBatchBytes());
    }
    if (c.maxDurableBatch() != null) {
      b.maxDurableBatch(c.maxDurableBatch());
    }
    if (c.maxDurableBatchBytes() != null) {
      b.maxDurableBatchBytes(c.maxDurableBatchBytes());
    }
    if (c.readPath() != null) {
      b.readPath(c.readPath());
    }
    if (c.idleMode() != null) {
      b.idleMode(c.idleMode());
    }
    if (c.pinning() != null) {
      b.pinning(c.pinning());
    }
    if (c.yieldWaitNanos() != null) {
      b.yieldWaitNanos(c.yieldWaitNanos());
    }
    return new Store(b.open(c.dir()));
  }

  /** p2kv behind the binding's store interface. */
  static final class Store extends YcsbStore {
    private final P2kv p2kv;

    Store(P2kv p2kv) {
      this.p2kv = p2kv;
    }

    /** The open store (tests: its stats show which options it was opened with). */
    P2kv p2kv() {
      return p2kv;
    }

    @Override
    byte[] get(byte[] key) {
      return p2kv.get(key);
    }

    @Override
    void put(byte[] key, byte[] value) {
      p2kv.put(key, value);
    }

    /** One {@code P2kv.update}: the shard worker reads, merges and writes; no lock. */
    @Override
    byte[] update(String ycsbKey, byte[] key, UnaryOperator<byte[]> merge) {
      return p2kv.update(key, merge);
    }

    @Override
    void delete(byte[] key) {
      p2kv.delete(key);
    }

    @Override
    List<KeyValue> scan(byte[] start, int limit) {
      return p2kv.scan(start, limit);
    }

    @Override
    void flush() {
      p2kv.flush();
    }

    /**
     * Pending compaction bytes over the shards, plus one for every data file the value-separation
     * policy still has to rewrite to bring separated values back inline: background work that
     * {@link Settle} waits for like a compaction.
     */
    @Override
    long pendingCompactionBytes() {
      StoreStats stats = p2kv.stats();
      return stats.pendingCompactionBytes() + stats.inliningFilesLeft();
    }

    @Override
    String placement() {
      long blob = 0;
      long sst = 0;
      for (ShardStats shard : p2kv.stats().shards()) {
        blob += Math.max(0, shard.blobBytes());
        sst += Math.max(0, shard.sstBytes());
      }
      return String.format(Locale.ROOT, "values: %d MiB in blob files, %d MiB in SST files", blob >> 20, sst >> 20);
    }

    @Override
    public void close() {
      try {
        CacheStats cache = p2kv.stats().cache();
        if (cache.capacityBytes() > 0) {
          // One line in the phase's output: how much of the phase the value cache served.
          LOG.info(String.format(Locale.ROOT,
              "p2kv value cache: hit ratio %.3f (%d hits, %d misses), %d entries, %d MiB",
              cache.hitRatio(), cache.hits(), cache.misses(), cache.entries(), cache.bytes() >> 20));
        }
      } finally {
        p2kv.close(); // also when the stats cannot be read (a failed store): its workers and lock go
      }
    }
  }
}
