package io.p2kv.internal.engine.rocksdb;

import io.p2kv.Durability;
import io.p2kv.SeparationSettings;
import io.p2kv.internal.engine.Engine;
import io.p2kv.internal.engine.EngineException;
import io.p2kv.internal.engine.EngineFactory;
import io.p2kv.rocksdb.RocksDbConfigurer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Properties;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Cache;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.ConfigOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.Env;
import org.rocksdb.HistogramType;
import org.rocksdb.HyperClockCache;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.Options;
import org.rocksdb.RateLimiter;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Statistics;
import org.rocksdb.StatsLevel;
import org.rocksdb.Status;
import org.rocksdb.WriteBufferManager;
import org.rocksdb.WriteOptions;

/**
 * Opens RocksDB shards that share one memory budget.
 *
 * <h2>Shared resources</h2>
 * One block cache; one {@link WriteBufferManager} that charges all memtables to that cache and
 * caps them at half the budget, so N shards cost one budget, not N; one {@link Statistics};
 * RocksDB's process-wide default {@link Env}, whose background pool runs every shard's flushes
 * and compactions. Index and filter blocks live in the cache too, so the budget bounds them as
 * well.
 *
 * <h2>Block cache</h2>
 * A {@link HyperClockCache} (RocksDB's lock-free cache, in its automatically sized form: no
 * estimated entry charge), not an {@code LRUCache}. Every get and every iterator step looks up
 * an index, a filter and a data block in it, and an LRU cache takes its shard's mutex for each
 * lookup and release; with many caller threads reading directly (p2kv's point reads run on the
 * callers' threads) a thread preempted while it holds that mutex stalls the others. Measured on 2
 * cores, 16 threads of gets over 1 M keys ran 1.57x (uniform) and 1.84x (Zipfian) faster with it,
 * and Kafka Streams' shared store's gets 1.29x (median); single-thread gets and scans moved within
 * the noise (docs/benchmarks/READS.md, "HyperClockCache"). RocksDB itself creates this cache
 * when it makes a default one.
 *
 * <h2>Blob cache</h2>
 * When the value-separation settings write blob files, part of the budget becomes one LRU blob
 * cache shared by every shard (uncompressed separated values, so a read of a hot separated value
 * costs a cache lookup instead of a blob-file read and a decompression), and the block cache gets
 * the rest: block cache and blob cache together stay within {@code memoryBudgetBytes}. How much
 * follows the data the store holds when it opens ({@link #blobCacheBytes}): a quarter of the budget
 * for a new store, and for one opened again its share of data in blob files, between a
 * thirty-second and a quarter of the budget. A store that keeps its values inline (the default
 * policy's small and medium values, or values brought back inline) so gives almost the whole
 * budget to the block cache that serves its reads, instead of reserving a quarter for values it
 * does not separate. RocksDB can neither share one cache between blocks and blobs from Java (no
 * setter takes a {@code Cache} for {@code blob_cache}) nor charge the blob cache to the block
 * cache ({@code cache_usage_options} is neither in rocksdbjni nor in the option strings) nor
 * resize either cache after open, so the split is made at each open. Lacking that setter, the
 * option is set through
 * {@link ColumnFamilyOptions#getColumnFamilyOptionsFromProps(ConfigOptions, Properties)} on one
 * carrier object, whose copies (one {@link Options} per shard) share its cache. RocksDB does not
 * write the option to the OPTIONS file, so it is set at every open. Without blob files (the {@code
 * none()} policy, and the plain-RocksDB baselines) there is no blob cache and the block cache gets
 * the whole budget.
 *
 * <h2>Per-shard statistics</h2>
 * Each shard has its own {@link Statistics}, read for its flush, compaction and blob-file write
 * bytes, its blob cache hits and the reads the value-separation policy counts. Chosen over the
 * {@code rocksdb.cfstats} map property because its byte counts are exact (cfstats reports GB with
 * six decimals) and cumulative since open, and because flush and compaction tickers already include
 * the blob files they write, so write amplification needs no double-counting correction. Only
 * tickers are read, so the object records no histograms: a histogram also times its operation
 * (a clock read per put and get), and together with a store-wide parent object that nothing read
 * (every ticker counted twice) they took about 3 % of a lone caller's put in a profile
 * (docs/benchmarks/WRITE-PATH.md, stop 46).
 *
 * <h2>Value separation</h2>
 * The store's initial {@link SeparationSettings} are set on each shard's options ({@link
 * BlobOptionsMapping}) before the user's tuning hook runs; if the hook changes them, the engine
 * reports {@link Engine#separationOverridden()} and the adaptive policy leaves that shard alone.
 * They apply to the data column family only; the metadata column family keeps every value
 * inline. Each shard also gets its own {@code RateLimiter} on background writes, set before the
 * hook runs: unpaced (8 GiB/s), it paces the shard's compactions only while the tuner brings
 * separated values back inline ({@link RocksDbEngine#rewriteFilesBelow}). A hook that sets its own
 * rate limiter replaces it, and those rewrites then run unpaced.
 *
 * <h2>Memtable filter</h2>
 * Each memtable carries a whole-key filter ({@code memtable_whole_key_filtering}, sized by {@code
 * memtable_prefix_bloom_size_ratio} at {@value #MEMTABLE_FILTER_RATIO} of the memtable: about 24
 * bits per 128-byte pair; RocksDB takes it from the memtable's arena, so the memtable budget
 * covers it). Without it, a get searches the memtable's skiplist before the SST files even for a
 * key the memtable does not hold, which is most gets while writes go on: cache misses down a
 * skiplist of up to 64 MiB, the largest single cost of a get in the update and mixed benchmarks'
 * profiles (docs/benchmarks/READS.md, "Memtable filter"). With it such a get costs a few hashed
 * bit probes; each insert adds those probes.
 *
 * <h2>Memtables on huge pages</h2>
 * Where the host has reserved huge pages of at most 2 MiB ({@code vm.nr_hugepages}) and a shard's
 * memtable spans at least 16 of them ({@link HugePages}), memtables take their memory from them
 * ({@code memtable_huge_page_size}): a skiplist insert or search then misses the TLB far less
 * often. RocksDB falls back to ordinary memory whenever the pool has no page free. Without such a
 * pool (the usual case) the option stays 0. A hook that sets {@code memtable_huge_page_size} to 0
 * keeps memtables off huge pages.
 *
 * <h2>Recovery without small flushes</h2>
 * RocksDB flushes the memtables it rebuilt from the WAL while it opens, so a store opened and
 * closed after a few writes gets one small L0 file per open, and one small blob file with it when
 * values are separated (issue 14). Shards open with {@code avoid_flush_during_recovery}: the
 * recovered writes stay in the memtable and their WAL files stay until it is flushed; {@link
 * RocksDbEngine#startCompactions()} flushes once several sessions or a quarter of a memtable have
 * accumulated ({@link SmallFiles}).
 *
 * <h2>Close order</h2>
 * Engines first (each closes its DB, then its write options, options and statistics, then calls
 * the tuning hook's {@code close}); then this factory: write-buffer manager, table filter, cache.
 */
public final class RocksDbEngineFactory implements EngineFactory {
  static {
    RocksDB.loadLibrary();
  }

  /** The blob cache gets at most 1 / this of the memory budget (all of it for a new store). */
  static final int BLOB_CACHE_SHARE = 4;

  /** The blob cache gets at least 1 / this of the memory budget when blob files are on. */
  static final int BLOB_CACHE_FLOOR_SHARE = 32;

  /** Smallest memtable a shard gets, whatever the budget. */
  private static final long MIN_WRITE_BUFFER_BYTES = 4L << 20;

  /**
   * Obsolete write-ahead logs a {@code SYNC} store keeps to write its new logs over
   * ({@code recycle_log_file_num}). Appending makes each fsync also record the file's new size;
   * overwriting a file that already has its size does not, and on the reference host's ext4 an
   * fdatasync after an overwrite cost 25-50 % less (docs/benchmarks/WRITE-PATH.md, stops 57-58).
   * Two cover the logs that become obsolete between two memtable switches. Checkpoints and backups
   * cut recycled logs by sequence number ({@link RecycledLogPrefix}), and a batch's own {@code
   * NO_WAL} is logged on such a store, since RocksDB refuses unlogged writes there.
   */
  static final int RECYCLED_LOGS = 2;

  /**
   * Bits of the memtable's whole-key filter, as a share of the memtable's bytes (RocksDB's {@code
   * memtable_prefix_bloom_size_ratio}; taken from the memtable's own arena, so inside the budget).
   */
  private static final double MEMTABLE_FILTER_RATIO = 0.02;

  /** Largest memtable a shard gets (RocksDB's default). */
  private static final long MAX_WRITE_BUFFER_BYTES = 64L << 20;

  /** The smallest shard of the block cache that {@link #cacheShardBits} chooses. */
  static final long MIN_CACHE_SHARD_BYTES = 16L << 20;

  private final int shards;
  private final Durability durability;
  private final RocksDbConfigurer configurer;
  private final long writeBufferBytes;
  private final SeparationSettings separation;
  /** {@code memtable_huge_page_size}: the host's huge page size, or 0 ({@link HugePages#forMemtable}). */
  private final long memtableHugePageBytes;

  private final Cache cache;
  private final long cacheCapacity;
  private final long blobCacheBytes;
  private final ColumnFamilyOptions blobCacheCarrier;
  private final WriteBufferManager writeBufferManager;
  private final BloomFilter bloomFilter;
  private boolean closed;

  /**
   * Creates the shared resources for shards that keep every value inline.
   *
   * @param shards number of shards that will be opened
   * @param memoryBudgetBytes the store's total budget for block cache and memtables
   * @param durability durability of writes
   * @param configurer the user's tuning hook, or null
   */
  public RocksDbEngineFactory(
      int shards, long memoryBudgetBytes, Durability durability, RocksDbConfigurer configurer) {
    this(shards, memoryBudgetBytes, durability, configurer, SeparationSettings.NONE);
  }

  /**
   * Creates the shared resources.
   *
   * @param shards number of shards that will be opened
   * @param memoryBudgetBytes the store's total budget for block cache and memtables
   * @param durability durability of writes
   * @param configurer the user's tuning hook, or null
   * @param separation the value-separation settings every shard opens with
   */
  public RocksDbEngineFactory(
      int shards,
      long memoryBudgetBytes,
      Durability durability,
      RocksDbConfigurer configurer,
      SeparationSettings separation) {
    this(shards, memoryBudgetBytes, durability, configurer, separation, Double.NaN);
  }

  /**
   * Creates the shared resources for shards that already hold data.
   *
   * @param shards number of shards that will be opened
   * @param memoryBudgetBytes the store's total budget for block cache and memtables
   * @param durability durability of writes
   * @param configurer the user's tuning hook, or null
   * @param separation the value-separation settings every shard opens with
   * @param blobShare the share of the shards' data bytes in blob files ({@link #blobShareOf}), or
   *     NaN if unknown (a new store): sizes the blob cache ({@link #blobCacheBytes})
   */
  public RocksDbEngineFactory(
      int shards,
      long memoryBudgetBytes,
      Durability durability,
      RocksDbConfigurer configurer,
      SeparationSettings separation,
      double blobShare) {
    this(shards, memoryBudgetBytes, durability, configurer, separation, blobShare, HugePages.hostPageBytes());
  }

  /**
   * The constructor above, with the host's huge page size given instead of read from the host.
   *
   * @param hostHugePageBytes the host's reserved huge pages' size ({@link HugePages#hostPageBytes()}), 0 for none
   */
  RocksDbEngineFactory(
      int shards,
      long memoryBudgetBytes,
      Durability durability,
      RocksDbConfigurer configurer,
      SeparationSettings separation,
      double blobShare,
      long hostHugePageBytes) {
    this.shards = shards;
    this.separation = separation;
    this.durability = durability;
    this.configurer = configurer;
    long memtableBudget = memoryBudgetBytes / 2;
    // Two memtables per shard fit the budget (one active, one being flushed).
    this.writeBufferBytes =
        Math.max(MIN_WRITE_BUFFER_BYTES, Math.min(MAX_WRITE_BUFFER_BYTES, memtableBudget / (2L * shards)));
    this.memtableHugePageBytes = HugePages.forMemtable(hostHugePageBytes, writeBufferBytes);
    this.blobCacheBytes = blobCacheBytes(memoryBudgetBytes, separation.blobFiles(), blobShare);
    this.cacheCapacity = memoryBudgetBytes - blobCacheBytes;
    // 0: no estimated entry charge, RocksDB sizes the table itself (AutoHyperClockCache)
    this.cache = new HyperClockCache(cacheCapacity, 0, cacheShardBits(cacheCapacity), false);
    this.blobCacheCarrier = blobCacheBytes > 0 ? blobCacheCarrier(blobCacheBytes) : null;
    this.writeBufferManager = new WriteBufferManager(memtableBudget, cache);
    this.bloomFilter = new BloomFilter(10);
  }

  /**
   * How many bits of a block's hash pick its shard of the block cache: as many as leave each
   * shard at least {@link #MIN_CACHE_SHARD_BYTES}, at most 6 (64 shards); all of a smaller cache
   * is one shard. RocksDB's own choice (shards of at least 512 KiB, so 64 of them from 32 MiB up)
   * left shards of 0.75-6 MiB within p2kv's budgets, and a block larger than its shard is read
   * from the file by every get that needs it and dropped again. Index and filter blocks are such
   * blocks: they live in the cache (counted in the budget) and grow with a file's key count (10
   * bits of filter per key): a 64 MiB flush of small pairs (24-byte keys, 8-byte values) holds
   * 3.2 M keys and a 4 MiB filter, and gets over such files took 0.5-3 ms instead of 5 us
   * (docs/benchmarks/READS.md, stop 38). A file is at most about 64 MiB (the largest memtable
   * and RocksDB's target file size); those pairs took 33 MiB for 3.2 M keys, so a 64 MiB file of
   * them carries about 8 MiB of filter and 1.6 MiB of index, which a 16 MiB shard holds.
   * Partitioned index and filter blocks (RocksDB's other remedy) cost gets 4-11 % in the same
   * measurements; fewer shards cost nothing measurable on 2 cores (more cores contend more for
   * each shard's lock).
   *
   * @param capacity the block cache's capacity in bytes
   * @return the cache's shard bits
   */
  static int cacheShardBits(long capacity) {
    int bits = 0;
    while (bits < 6 && (capacity >> (bits + 1)) >= MIN_CACHE_SHARD_BYTES) {
      bits++;
    }
    return bits;
  }

  /**
   * The blob cache's part of the budget: none without blob files; a quarter of the budget for a
   * new store (nothing is known of its values yet); otherwise the budget times the share of the
   * data in blob files at open, at least a thirty-second and at most a quarter of the budget. The
   * floor keeps a cache for values the store separates later in this session; the next open sizes
   * it by what they became.
   *
   * @param budget the memory budget
   * @param blobFiles whether the settings write blob files
   * @param blobShare share of the data bytes in blob files, NaN for a new store
   * @return bytes of blob cache
   */
  static long blobCacheBytes(long budget, boolean blobFiles, double blobShare) {
    if (!blobFiles) {
      return 0;
    }
    long most = budget / BLOB_CACHE_SHARE;
    if (Double.isNaN(blobShare)) {
      return most;
    }
    return Math.max(budget / BLOB_CACHE_FLOOR_SHARE, Math.min(most, (long) (budget * blobShare)));
  }

  /**
   * The share of the shards' data bytes (SST and blob files) in blob files, from a listing of
   * their directories; NaN if they hold no data file yet or cannot be listed (the caller then
   * sizes the blob cache as for a new store).
   *
   * @param shardDirs the store's shard directories
   * @return blob bytes over SST and blob bytes, or NaN
   */
  public static double blobShareOf(List<Path> shardDirs) {
    long blob = 0;
    long sst = 0;
    for (Path dir : shardDirs) {
      try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
        for (Path f : files) {
          String name = f.getFileName().toString();
          if (name.endsWith(".blob")) {
            blob += Files.size(f);
          } else if (name.endsWith(".sst")) {
            sst += Files.size(f);
          }
        }
      } catch (IOException | RuntimeException e) {
        return Double.NaN; // a missing or unreadable directory: the open reports it
      }
    }
    return blob + sst == 0 ? Double.NaN : (double) blob / (blob + sst);
  }

  /** Bytes of the block cache: the budget less the blob cache's part. */
  public long blockCacheBytes() {
    return cacheCapacity;
  }

  /** Bytes of the blob cache; 0 if there is none. */
  public long blobCacheCapacity() {
    return blobCacheBytes;
  }

  /**
   * The huge page size memtables are put on, before any tuning hook runs; 0 where they are not
   * (see "Memtables on huge pages" above).
   */
  public long memtableHugePageBytes() {
    return memtableHugePageBytes;
  }

  /** Column-family options that carry nothing but a new LRU blob cache of this capacity. */
  private static ColumnFamilyOptions blobCacheCarrier(long capacity) {
    Properties props = new Properties();
    props.setProperty("blob_cache", "{capacity=" + capacity + "}");
    try (ConfigOptions config = new ConfigOptions()) {
      ColumnFamilyOptions carrier = ColumnFamilyOptions.getColumnFamilyOptionsFromProps(config, props);
      if (carrier == null) {
        throw new IllegalStateException("RocksDB rejected blob_cache={capacity=" + capacity + "}");
      }
      return carrier;
    }
  }

  /** New options for a shard: RocksDB's defaults, with the shared blob cache if there is one. */
  private Options newOptions() {
    if (blobCacheCarrier == null) {
      return new Options();
    }
    try (DBOptions defaults = new DBOptions()) {
      return new Options(defaults, blobCacheCarrier);
    }
  }

  @Override
  public Engine open(int shard, Path dir, boolean create) {
    Options options = newOptions();
    WriteOptions writeOptions = RocksDbEngine.writeOptionsFor(durability);
    // Tickers only: nothing reads a histogram, and each one times its operation (see above).
    Statistics shardStatistics = new Statistics(EnumSet.allOf(HistogramType.class));
    // The shard's own limiter on background writes: unpaced, except while the value-separation
    // tuner brings values back inline (RocksDbEngine#rewriteFilesBelow).
    RateLimiter rewritePace = RocksDbEngine.newRewritePace();
    DBOptions dbOptions = null;
    ColumnFamilyOptions dataCfOptions = null;
    ColumnFamilyOptions metaCfOptions = null;
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    RocksDB db = null;
    boolean hookConfigured = false;
    try {
      BlockBasedTableConfig table =
          new BlockBasedTableConfig()
              .setBlockCache(cache)
              .setFilterPolicy(bloomFilter)
              .setCacheIndexAndFilterBlocks(true)
              .setPinL0FilterAndIndexBlocksInCache(true)
              .setBlockSize(4096);
      shardStatistics.setStatsLevel(StatsLevel.EXCEPT_DETAILED_TIMERS);
      options
          .setCreateIfMissing(create)
          .setEnv(Env.getDefault())
          .setStatistics(shardStatistics)
          .setWriteBufferManager(writeBufferManager)
          .setWriteBufferSize(writeBufferBytes)
          .setMaxWriteBufferNumber(3)
          .setMaxBackgroundJobs(Math.max(2, Runtime.getRuntime().availableProcessors()))
          .setLevelCompactionDynamicLevelBytes(true)
          .setMemtablePrefixBloomSizeRatio(MEMTABLE_FILTER_RATIO)
          .setMemtableWholeKeyFiltering(true)
          .setMemtableHugePageSize(memtableHugePageBytes)
          .setCompressionType(CompressionType.LZ4_COMPRESSION)
          .setBottommostCompressionType(CompressionType.ZSTD_COMPRESSION)
          .setBytesPerSync(1L << 20)
          .setInfoLogLevel(InfoLogLevel.WARN_LEVEL)
          .setKeepLogFileNum(2)
          // Keep what the WAL holds in the memtable at open instead of flushing it into a small
          // L0 file (and blob file) per open; RocksDbEngine.startCompactions flushes it once it
          // is no longer small (issue 14).
          .setAvoidFlushDuringRecovery(true)
          .setRateLimiter(rewritePace)
          .setTableFormatConfig(table);
      BlobOptionsMapping.apply(options, separation, writeBufferBytes);
      if (durability == Durability.SYNC) {
        // Durable writes overwrite old log files in place instead of appending to new ones: an
        // fsync then need not record a file's new size (see RECYCLED_LOGS).
        options.setRecycleLogFileNum(RECYCLED_LOGS);
      }
      if (configurer != null) {
        hookConfigured = true;
        configurer.configure(shard, options);
      }
      if (durability == Durability.NO_WAL && options.recycleLogFileNum() > 0) {
        throw new IllegalArgumentException(
            "the RocksDbConfigurer set recycle_log_file_num "
                + options.recycleLogFileNum()
                + " on a store with Durability.NO_WAL: RocksDB refuses writes without the log on a DB that recycles its logs; set durability WAL or SYNC, or leave recycle_log_file_num at 0");
      }
      SeparationSettings effective = BlobOptionsMapping.read(options, separation);
      boolean overridden = !BlobOptionsMapping.sameOptions(effective, separation);
      // User data in the default column family, p2kv metadata in its own; both flush together
      // (atomic flush), so even without a WAL the files on disk hold a consistent prefix of the
      // shard's writes across the two.
      dbOptions = new DBOptions(options).setCreateMissingColumnFamilies(true).setAtomicFlush(true);
      dataCfOptions = new ColumnFamilyOptions(options);
      // Compactions wait for the store's startCompactions (after the tuner restored its settings),
      // unless the user's hook turned them off for good.
      boolean holdCompactions = !dataCfOptions.disableAutoCompactions();
      dataCfOptions.setDisableAutoCompactions(true);
      metaCfOptions = new ColumnFamilyOptions(options).setWriteBufferSize(MIN_WRITE_BUFFER_BYTES).setEnableBlobFiles(false);
      List<ColumnFamilyDescriptor> descriptors =
          List.of(
              new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, dataCfOptions),
              new ColumnFamilyDescriptor(RocksDbEngine.META_CF.getBytes(StandardCharsets.UTF_8), metaCfOptions));
      db = RocksDB.open(dbOptions, dir.toString(), descriptors, handles);
      return new RocksDbEngine(
          shard,
          dir,
          db,
          options,
          dbOptions,
          dataCfOptions,
          metaCfOptions,
          handles,
          writeOptions,
          shardStatistics,
          rewritePace,
          configurer,
          overridden ? effective : separation,
          overridden,
          holdCompactions);
    } catch (RocksDBException | RuntimeException e) {
      for (ColumnFamilyHandle h : handles) {
        h.close();
      }
      if (db != null) {
        db.close();
      }
      writeOptions.close();
      shardStatistics.close();
      if (hookConfigured) {
        configurer.close(shard, options);
      }
      for (AutoCloseable c : new AutoCloseable[] {metaCfOptions, dataCfOptions, dbOptions}) {
        if (c != null) {
          try {
            c.close();
          } catch (Exception ignored) {
            // native close of options does not fail
          }
        }
      }
      options.close();
      rewritePace.close();
      if (e instanceof RocksDBException r) {
        boolean corrupt = isDamage(r, create);
        throw new EngineException(
            "cannot open RocksDB shard " + shard + " at " + dir + ": " + e.getMessage(),
            e,
            corrupt ? EngineException.Kind.CORRUPTION : EngineException.Kind.OTHER);
      }
      throw (RuntimeException) e;
    }
  }

  /**
   * Whether a failed open means the shard's files are damaged: RocksDB reports corruption, or, for
   * a shard that already exists, a file it needs is missing (CURRENT names a missing MANIFEST, an
   * SST or blob file the MANIFEST lists is gone, or the shard has no CURRENT at all).
   */
  static boolean isDamage(RocksDBException e, boolean create) {
    Status status = e.getStatus();
    if (status == null) {
      return false;
    }
    if (status.getCode() == Status.Code.Corruption) {
      return true;
    }
    String message = String.valueOf(e.getMessage());
    return !create
        && ((status.getCode() == Status.Code.IOError && message.contains("No such file or directory"))
            || (status.getCode() == Status.Code.InvalidArgument && message.contains("does not exist")));
  }

  /**
   * Memtable size per shard chosen from the budget.
   *
   * @return bytes
   */
  public long writeBufferBytes() {
    return writeBufferBytes;
  }

  /**
   * The value-separation settings shards open with.
   *
   * @return settings
   */
  public SeparationSettings separation() {
    return separation;
  }

  /**
   * Number of shards the budget was split over.
   *
   * @return shards
   */
  public int shards() {
    return shards;
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    writeBufferManager.close();
    bloomFilter.close();
    cache.close();
    if (blobCacheCarrier != null) {
      blobCacheCarrier.close();
    }
  }
}
