package io.p2kv.internal.engine.rocksdb;

import io.p2kv.Durability;
import io.p2kv.LevelStats;
import io.p2kv.SeparationSettings;
import io.p2kv.internal.engine.Engine;
import io.p2kv.internal.engine.EngineAdmin;
import io.p2kv.internal.engine.EngineBatch;
import io.p2kv.internal.engine.EngineException;
import io.p2kv.internal.engine.EngineIterator;
import io.p2kv.internal.engine.EngineProperty;
import io.p2kv.internal.engine.EngineSnapshot;
import io.p2kv.rocksdb.RocksDbConfigurer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompactRangeOptions;
import org.rocksdb.CompactionOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.EnvOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.IngestExternalFileOptions;
import org.rocksdb.LevelMetaData;
import org.rocksdb.LiveFileMetaData;
import org.rocksdb.LogFile;
import org.rocksdb.MutableColumnFamilyOptions;
import org.rocksdb.Options;
import org.rocksdb.RateLimiter;
import org.rocksdb.RateLimiterMode;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Snapshot;
import org.rocksdb.SstFileWriter;
import org.rocksdb.Statistics;
import org.rocksdb.Status;
import org.rocksdb.TickerType;
import org.rocksdb.WalFileType;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One RocksDB instance behind one shard. User data lives in the default column family, p2kv's
 * metadata (undo and commit records of cross-shard batches) in the {@value #META_CF} column
 * family of the same DB, so both commit in one atomic {@link WriteBatch} through one WAL. The
 * worker owns one {@link RocksDbBatch} for the life of the shard (cleared after each write): it
 * encodes the batch on the heap, and each write hands it to RocksDB as one native batch, built with
 * one JNI call and freed after the write.
 *
 * <h2>Iterators</h2>
 * Open iterators are tracked so that {@link #close} can free any the store did not (it always
 * should), before the DB they point into. Iterators without bounds (every {@code scan}) come from a
 * small pool of idle RocksIterators, {@link RocksIterator#refresh() refreshed} to the latest state
 * when borrowed: a refresh that finds the same memtables and files is almost free, while a new
 * iterator and its first seek rebuild the whole iterator tree and fetch index blocks again, about
 * twice the cost of a seek. An idle pooled iterator pins the memtables and files of its last view
 * until reused or closed, so the pool is kept small.
 *
 * <h2>Value separation</h2>
 * {@link #applySeparation} changes the blob options of the live instance's data column family
 * with {@code setOptions} (see {@link BlobOptionsMapping}); RocksDB installs them under its DB
 * mutex, which the write path of a single writer does not take, so the worker's writes are not
 * held up. {@link #compact} turns garbage collection on with an age cutoff of 1 for its duration,
 * so that a full compaction collects every blob file whatever the policy's settings, then
 * restores them. {@code tuneLock} orders the two (they run on the tuner and on administrative
 * threads, never on the worker).
 */
final class RocksDbEngine implements Engine, EngineAdmin {
  private static final Logger LOG = LoggerFactory.getLogger(RocksDbEngine.class);

  /** Name of the metadata column family. */
  static final String META_CF = "p2kv-meta";

  /** Metadata key of the value-separation tuner's state. */
  static final byte[] TUNER_STATE_KEY = {'s'};

  /**
   * The rate of the shard's limiter on background writes when nothing is paced: 8 GiB/s, more
   * than one RocksDB instance's flushes and compactions write, so they never wait on it. Not
   * higher: RocksDB's limiter carries unused quota of up to two refills over into a new rate, so
   * a pace set later lets that much through first.
   */
  static final long UNPACED_BYTES_PER_SECOND = 8L << 30;

  /**
   * The limiter's refill period, 1 ms: the quota a new pace inherits is at most two refills at the
   * unpaced rate (16 MiB), and a paced compaction writes in chunks of one refill (32 KiB at 32
   * MiB/s).
   */
  static final long PACE_REFILL_MICROS = 1_000;

  /**
   * The slowest pace a rewrite runs at (1 MiB/s), whatever rate it is given: a rate of a few bytes
   * per second (tests) would leave a compaction, and the close that waits for it, hanging.
   */
  static final long MIN_PACE_BYTES_PER_SECOND = 1L << 20;

  /** Most idle iterators kept per shard for reuse. */
  static final int MAX_IDLE_ITERATORS = 4;

  private final int shard;
  private final Path dir;
  private final RocksDB db;
  private final Options options;
  private final DBOptions dbOptions;
  private final ColumnFamilyOptions dataCfOptions;
  private final ColumnFamilyOptions metaCfOptions;
  private final ColumnFamilyHandle dataCf;
  private final ColumnFamilyHandle metaCf;
  private final WriteOptions writeOptions;
  /** Write options per {@link Durability} (by ordinal), for writes that ask for their own. */
  private final WriteOptions[] writeOptionsBy;
  /**
   * Whether a write skipped the WAL (a per-write {@code NO_WAL}) while the store logs, since the
   * last checkpoint: such writes live only in memtables, so a checkpoint flushes first. Written
   * and read in the shard's worker role only.
   */
  private boolean unloggedWrites;
  private final WriteOptions metaDeleteOptions;
  private final Statistics statistics;
  /** Limits the shard's background writes while a rewrite is paced; unpaced otherwise. */
  private final RateLimiter rewritePace;
  /** Set when the store closes: a paced rewrite in progress finishes at full speed, none starts. */
  private volatile boolean hurried;
  private final RocksDbConfigurer configurer;
  private final boolean separationOverridden;
  private final ReentrantLock tuneLock = new ReentrantLock();
  private volatile SeparationSettings separation;
  private final Set<RocksDbIterator> openIterators = ConcurrentHashMap.newKeySet();
  private final Set<RocksDbSnapshot> openSnapshots = ConcurrentHashMap.newKeySet();
  private final Set<RocksDbCheckpoint> openCheckpoints = ConcurrentHashMap.newKeySet();
  /** Read options of the pooled (unbounded) iterators; freed after them. */
  private final ReadOptions pooledReadOptions = new ReadOptions().setTotalOrderSeek(true);
  private final ConcurrentLinkedQueue<RocksIterator> idleIterators = new ConcurrentLinkedQueue<>();
  private final AtomicInteger idleCount = new AtomicInteger();
  private volatile boolean closed;
  /** Whether a write failed: RocksDB then refuses later writes and reports the error at close. */
  private volatile boolean writeFailed;
  private volatile long rewriteFilesLeft;
  /** Whether the DB recycles its write-ahead logs ({@code recycle_log_file_num}). */
  private final boolean recycledLogs;
  /** Whether background compactions are still held since open (see {@link #startCompactions}). */
  private boolean compactionsHeld;
  /** Whether {@link #startCompactions} settled what open left behind. */
  private boolean settled;

  RocksDbEngine(
      int shard,
      Path dir,
      RocksDB db,
      Options options,
      DBOptions dbOptions,
      ColumnFamilyOptions dataCfOptions,
      ColumnFamilyOptions metaCfOptions,
      List<ColumnFamilyHandle> handles,
      WriteOptions writeOptions,
      Statistics statistics,
      RateLimiter rewritePace,
      RocksDbConfigurer configurer,
      SeparationSettings separation,
      boolean separationOverridden,
      boolean compactionsHeld) {
    this.shard = shard;
    this.dir = dir;
    this.db = db;
    this.options = options;
    this.dbOptions = dbOptions;
    this.dataCfOptions = dataCfOptions;
    this.metaCfOptions = metaCfOptions;
    this.dataCf = handles.get(0);
    this.metaCf = handles.get(1);
    this.writeOptions = writeOptions;
    this.metaDeleteOptions = new WriteOptions().setDisableWAL(writeOptions.disableWAL());
    this.recycledLogs = dbOptions.recycleLogFileNum() > 0;
    this.writeOptionsBy = new WriteOptions[Durability.values().length];
    for (Durability d : Durability.values()) {
      // RocksDB refuses writes without the log on a DB that recycles its logs (its recovery finds
      // where a recycled log's new records end by their unbroken sequence numbers): there a
      // batch's own NO_WAL is logged, without an fsync.
      writeOptionsBy[d.ordinal()] = writeOptionsFor(recycledLogs && d == Durability.NO_WAL ? Durability.WAL : d);
    }
    this.statistics = statistics;
    this.rewritePace = rewritePace;
    this.configurer = configurer;
    this.separation = separation;
    this.separationOverridden = separationOverridden;
    this.compactionsHeld = compactionsHeld;
  }

  /**
   * {@inheritDoc}
   *
   * <p>The first call also settles what open left behind, with the settings the tuner restored
   * in force and before any background compaction runs ({@link SmallFiles}): it flushes the
   * writes recovered from the WAL once they are no longer small, and merges the files of a small
   * shard that short sessions spread over many small files.
   */
  @Override
  public void startCompactions() {
    tuneLock.lock();
    try {
      if (closed) {
        return;
      }
      if (!settled) {
        settled = true;
        flushRecoveredIfLarge();
        if (compactionsHeld) {
          mergeSmallFiles();
        }
      }
      if (compactionsHeld) {
        db.setOptions(dataCf, MutableColumnFamilyOptions.builder().setDisableAutoCompactions(false).build());
        compactionsHeld = false;
      }
    } catch (RocksDBException e) {
      throw failure("settling after open", e);
    } finally {
      tuneLock.unlock();
    }
  }

  /** Flushes the memtables if the writes recovered at open span many WAL files or many bytes. */
  private void flushRecoveredIfLarge() throws RocksDBException {
    long alive = 0;
    for (LogFile wal : db.getSortedWalFiles()) {
      if (wal.type() == WalFileType.kAliveLogFile) {
        alive++;
      }
    }
    // One alive WAL is the one this session writes to.
    long recovered = Math.max(0, alive - 1);
    long memtable = db.getLongProperty("rocksdb.cur-size-all-mem-tables");
    if (SmallFiles.shouldFlushRecovered(recovered, memtable, options)) {
      try (FlushOptions flushOptions = new FlushOptions().setWaitForFlush(true)) {
        db.flush(flushOptions, List.of(dataCf, metaCf));
      }
    }
  }

  /** Compacts the whole data column family if it is small and in many more files than it needs. */
  private void mergeSmallFiles() throws RocksDBException {
    SmallFiles.Shape shape =
        new SmallFiles.Shape(
            sstFileCount(),
            db.getLongProperty(dataCf, "rocksdb.total-sst-files-size"),
            db.getLongProperty(dataCf, "rocksdb.num-blob-files"),
            db.getLongProperty(dataCf, "rocksdb.total-blob-file-size"));
    if (!SmallFiles.shouldMerge(shape, options)) {
      return;
    }
    // Garbage collection over every blob file, so the values of the small blob files move into
    // the compaction's new ones; the placement is the one in force.
    SeparationSettings s = separation;
    try {
      compactAll(s.withGc(1.0, s.gcGarbageRatio()));
    } catch (RocksDBException e) {
      // Only an optimisation: the store opens anyway, and the next open tries again.
      LOG.warn("p2kv shard {} ({}): cannot merge its small files: {}", shard, dir, e.getMessage());
      return;
    }
    LOG.info(
        "p2kv shard {} ({}): merged {} SST and {} blob files ({} KiB) into {} and {}",
        shard, dir, shape.sstFiles(), shape.blobFiles(), (shape.sstBytes() + shape.blobBytes()) >> 10,
        sstFileCount(), db.getLongProperty(dataCf, "rocksdb.num-blob-files"));
  }

  private long sstFileCount() {
    long n = 0;
    for (LevelMetaData level : db.getColumnFamilyMetaData(dataCf).levels()) {
      n += level.files().size();
    }
    return n;
  }

  @Override
  public void put(byte[] key, byte[] value) {
    try {
      db.put(writeOptions, key, value);
    } catch (RocksDBException e) {
      throw writeFailure("put", e);
    }
  }

  @Override
  public void delete(byte[] key) {
    try {
      db.delete(writeOptions, key);
    } catch (RocksDBException e) {
      throw writeFailure("delete", e);
    }
  }

  @Override
  public void deleteRange(byte[] fromInclusive, byte[] toExclusive) {
    try {
      db.deleteRange(dataCf, writeOptions, fromInclusive, toExclusive);
    } catch (RocksDBException e) {
      throw writeFailure("delete range", e);
    }
  }

  @Override
  public TableWriter openTable(Path file) {
    // The data column family's options (comparator, table format, compression), so the file reads
    // as if the engine had written it.
    EnvOptions env = new EnvOptions();
    Options tableOptions = new Options(dbOptions, dataCfOptions);
    SstFileWriter writer = new SstFileWriter(env, tableOptions);
    try {
      writer.open(file.toString());
    } catch (RocksDBException e) {
      writer.close();
      tableOptions.close();
      env.close();
      throw failure("write table file", e); // the engine's data is untouched
    }
    return new RocksDbTableWriter(env, tableOptions, writer);
  }

  /** A table file's writer: RocksDB's {@code SstFileWriter} and the options it was made with. */
  private final class RocksDbTableWriter implements TableWriter {
    private final EnvOptions env;
    private final Options options;
    private final SstFileWriter writer;

    RocksDbTableWriter(EnvOptions env, Options options, SstFileWriter writer) {
      this.env = env;
      this.options = options;
      this.writer = writer;
    }

    @Override
    public void put(byte[] key, byte[] value) {
      try {
        writer.put(key, value);
      } catch (RocksDBException e) {
        throw failure("write table file", e);
      }
    }

    @Override
    public void delete(byte[] key) {
      try {
        writer.delete(key);
      } catch (RocksDBException e) {
        throw failure("write table file", e);
      }
    }

    @Override
    public void finish() {
      try {
        writer.finish();
      } catch (RocksDBException e) {
        throw failure("write table file", e);
      }
    }

    @Override
    public void close() {
      writer.close();
      options.close();
      env.close();
    }
  }

  @Override
  public void ingest(Path file) {
    // Moved (hard-linked, then the original unlinked), not copied. RocksDB flushes the memtable
    // first if it holds a key of the file's range, gives the file a sequence number above every
    // write before it, and places it in the lowest level where it overlaps nothing.
    try (IngestExternalFileOptions options = new IngestExternalFileOptions().setMoveFiles(true)) {
      db.ingestExternalFile(dataCf, List.of(file.toString()), options);
    } catch (RocksDBException e) {
      // An I/O error (the MANIFEST) stops the shard's writes as a failed write does; any other
      // refusal (a damaged file) leaves the data as it was.
      boolean ioError = e.getStatus() != null && e.getStatus().getCode() == Status.Code.IOError;
      throw ioError ? writeFailure("ingest table file", e) : failure("ingest table file", e);
    }
  }

  @Override
  public EngineBatch newBatch() {
    return new RocksDbBatch(this, metaCf.getID());
  }

  @Override
  public void write(EngineBatch batch, Durability durability) {
    RocksDbBatch encoded = (RocksDbBatch) batch;
    WriteOptions options = durability == null ? writeOptions : writeOptionsBy[durability.ordinal()];
    if (options.disableWAL() && !writeOptions.disableWAL()) {
      unloggedWrites = true; // before the write: a checkpoint after it must flush
    }
    try (WriteBatch b = encoded.toWriteBatch()) {
      db.write(options, b);
    } catch (RocksDBException e) {
      throw writeFailure("write batch", e);
    } finally {
      encoded.clear();
    }
  }

  @Override
  public EngineAdmin admin() {
    return this;
  }

  @Override
  public void putMeta(byte[] key, byte[] value, Durability atLeast) {
    try {
      db.put(metaCf, atLeastAsDurable(atLeast), key, value);
    } catch (RocksDBException e) {
      throw writeFailure("meta put", e);
    }
  }

  @Override
  public void deleteMeta(byte[] key) {
    try {
      db.delete(metaCf, metaDeleteOptions, key);
    } catch (RocksDBException e) {
      throw writeFailure("meta delete", e);
    }
  }

  @Override
  public List<byte[][]> scanMeta(byte[] prefix) {
    List<byte[][]> out = new ArrayList<>();
    try (RocksIterator it = db.newIterator(metaCf)) {
      for (it.seek(prefix); it.isValid(); it.next()) {
        byte[] k = it.key();
        if (k.length < prefix.length || !Arrays.equals(k, 0, prefix.length, prefix, 0, prefix.length)) {
          break;
        }
        out.add(new byte[][] {k, it.value()});
      }
      it.status();
    } catch (RocksDBException e) {
      throw failure("meta scan", e);
    }
    return out;
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
  public EngineIterator newIterator(byte[] lowerInclusive, byte[] upperExclusive) {
    RocksDbIterator iterator;
    if (lowerInclusive == null && upperExclusive == null) {
      iterator = new RocksDbIterator(this, borrow(), null, null, null);
    } else {
      iterator = RocksDbIterator.open(this, lowerInclusive, upperExclusive, null, null);
    }
    openIterators.add(iterator);
    return iterator;
  }

  /** A bounded iterator of a snapshot (see {@link RocksDbSnapshot}), tracked like the others. */
  EngineIterator openIterator(byte[] lowerInclusive, byte[] upperExclusive, Snapshot snapshot, Runnable onClose) {
    RocksDbIterator iterator = RocksDbIterator.open(this, lowerInclusive, upperExclusive, snapshot, onClose);
    openIterators.add(iterator);
    return iterator;
  }

  @Override
  public EngineSnapshot snapshot() {
    RocksDbSnapshot view = new RocksDbSnapshot(this, db.getSnapshot());
    openSnapshots.add(view);
    return view;
  }

  void forget(RocksDbSnapshot view) {
    openSnapshots.remove(view);
  }

  /**
   * {@inheritDoc}
   *
   * <p>See {@link RocksDbCheckpoint}. Checkpoints still open when the engine closes are closed
   * first.
   */
  @Override
  public Checkpoint beginCheckpoint() {
    try {
      if (writeOptions.disableWAL() || unloggedWrites) {
        // No log holds (some of) the memtables' writes: only a flush puts them in the copied files.
        try (FlushOptions flushOptions = new FlushOptions().setWaitForFlush(true)) {
          db.flush(flushOptions, List.of(dataCf, metaCf));
        }
        unloggedWrites = false;
      }
      RocksDbCheckpoint checkpoint = RocksDbCheckpoint.begin(this, db, dir, recycledLogs);
      openCheckpoints.add(checkpoint);
      return checkpoint;
    } catch (RocksDBException e) {
      throw failure("checkpoint", e);
    }
  }

  void checkpointClosed(RocksDbCheckpoint checkpoint) {
    openCheckpoints.remove(checkpoint);
  }

  /** An unbounded iterator viewing the DB as of now: an idle one refreshed, or a new one. */
  private RocksIterator borrow() {
    RocksIterator idle = idleIterators.poll();
    if (idle == null) {
      return db.newIterator(pooledReadOptions);
    }
    idleCount.decrementAndGet();
    try {
      idle.refresh();
    } catch (RocksDBException e) {
      idle.close();
      throw failure("iterator refresh", e);
    }
    return idle;
  }

  /**
   * Takes back an unbounded iterator: keeps it for reuse if there is room, else frees it. Never
   * runs concurrently with {@link #close} (see {@link Engine}); once closed, frees.
   */
  void release(RocksIterator iterator, boolean failed) {
    if (!failed && !closed) {
      if (idleCount.incrementAndGet() <= MAX_IDLE_ITERATORS) {
        idleIterators.offer(iterator);
        return;
      }
      idleCount.decrementAndGet();
    }
    iterator.close();
  }

  private void drainIdle() {
    RocksIterator idle;
    while ((idle = idleIterators.poll()) != null) {
      idleCount.decrementAndGet();
      idle.close();
    }
  }

  RocksDB db() {
    return db;
  }

  void forget(RocksDbIterator iterator) {
    openIterators.remove(iterator);
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
        case POINT_READS ->
            statistics.getTickerCount(TickerType.NUMBER_KEYS_READ)
                + statistics.getTickerCount(TickerType.NUMBER_MULTIGET_KEYS_READ);
        case SCANNED_PAIRS ->
            statistics.getTickerCount(TickerType.NUMBER_DB_SEEK_FOUND)
                + statistics.getTickerCount(TickerType.NUMBER_DB_NEXT_FOUND);
        // Without a blob cache RocksDB answers NotFound: -1, like any property it does not know.
        case BLOB_CACHE_CAPACITY -> db.getLongProperty(dataCf, "rocksdb.blob-cache-capacity");
        case BLOB_CACHE_USAGE -> db.getLongProperty(dataCf, "rocksdb.blob-cache-usage");
        case REWRITE_FILES_LEFT -> rewriteFilesLeft;
      };
    } catch (RocksDBException e) {
      return -1;
    }
  }

  /** Both counts from one dump of the shard's statistics (the dump is the expensive part). */
  @Override
  public BlobCacheReads blobCacheReads() {
    String dump = statistics.toString();
    return new BlobCacheReads(
        StatisticsText.ticker(dump, StatisticsText.BLOB_CACHE_HIT), StatisticsText.ticker(dump, StatisticsText.BLOB_CACHE_MISS));
  }

  @Override
  public long fileNumberBoundary() {
    long max = 0;
    for (LiveFileMetaData f : db.getLiveFilesMetaData()) {
      max = Math.max(max, fileNumber(f.fileName()));
    }
    return max + 1;
  }

  /** The number of a data file, from its name ({@code /000123.sst}). */
  static long fileNumber(String fileName) {
    int slash = fileName.lastIndexOf('/');
    int dot = fileName.lastIndexOf('.');
    return Long.parseLong(fileName.substring(slash + 1, dot > slash ? dot : fileName.length()));
  }

  private List<LiveFileMetaData> dataFilesBelow(long boundary) {
    List<LiveFileMetaData> files = new ArrayList<>();
    for (LiveFileMetaData f : dataFiles()) {
      if (fileNumber(f.fileName()) < boundary) {
        files.add(f);
      }
    }
    return files;
  }

  /** The live files of the data column family. */
  private List<LiveFileMetaData> dataFiles() {
    List<LiveFileMetaData> files = new ArrayList<>();
    for (LiveFileMetaData f : db.getLiveFilesMetaData()) {
      if (Arrays.equals(f.columnFamilyName(), RocksDB.DEFAULT_COLUMN_FAMILY)) {
        files.add(f);
      }
    }
    return files;
  }

  /**
   * {@inheritDoc}
   *
   * <p>Each file is rewritten by {@code CompactFiles} on the calling thread, under {@code tuneLock}
   * (so no {@link #compact} or {@link #applySeparation} changes the options meanwhile); RocksDB's
   * background compactions keep running beside it and may take a file first. A file of level 1 or
   * deeper is rewritten into its own level. A level-0 file is rewritten into the first deeper level
   * that holds files, together with the files of that level it overlaps ({@link #l0Target}): rewritten
   * into level 0, a large file (all the values a flushed memtable's references pointed to) would stay
   * there, alone below the compaction trigger, and every seek and every step of every iterator would
   * merge it with the level below (in YCSB's scan-only workload, 44 % more RocksDB CPU per scan than
   * one sorted run). Level-0 files go first, so the overlapped files below, which are from before
   * the boundary too, are rewritten once, not again after them; oldest first (RocksDB takes the
   * older level-0 files a newer one overlaps along with it, so that no older value ends up above a
   * newer one).
   *
   * <p>Pacing: a level-0 file of hash-spread keys overlaps the whole level below, so one {@code
   * CompactFiles} can rewrite the whole shard (180 MiB for 2 M YCSB records), which a token bucket
   * charged afterwards would let through as one burst on the readers' cores. While it rewrites, the
   * shard's own rate limiter ({@code rewritePace}, set at open, unpaced otherwise) is set to {@code
   * bytesPerSecond}, so each compaction writes its output at that rate, and reads its input as fast
   * as it writes. The limiter covers every background write of the shard: a flush in that time
   * goes first (RocksDB serves high-priority requests first) but shares the rate; compactions
   * RocksDB starts meanwhile wait their turn. A close ({@link #hurryRewrites}) lifts the pace.
   */
  @Override
  public Rewrite rewriteFilesBelow(long boundary, long maxBytes, long bytesPerSecond) {
    tuneLock.lock();
    boolean paced = false;
    try (CompactionOptions compaction = new CompactionOptions()) {
      if (closed) {
        return Rewrite.DONE;
      }
      if (hurried && maxBytes > 0) {
        return new Rewrite(0, rewriteFilesLeft); // closing: leave the rest to the next open
      }
      if (db.getLongProperty(dataCf, "rocksdb.num-blob-files") == 0) {
        rewriteFilesLeft = 0;
        return Rewrite.DONE; // no separated value anywhere: nothing to bring back
      }
      // Outputs no larger than the tree's own files: one file of the store's whole contents would
      // have an index block larger than the cache can keep.
      compaction.setOutputFileSizeLimit(options.targetFileSizeBase());
      long rewritten = 0;
      Set<String> skipped = new HashSet<>();
      while (rewritten < maxBytes && !hurried) {
        // Listed again after every rewrite: a level-0 rewrite takes files of the level below along.
        List<LiveFileMetaData> files = dataFiles();
        LiveFileMetaData f = null;
        for (LiveFileMetaData c : files) {
          if (fileNumber(c.fileName()) < boundary && !c.beingCompacted() && !skipped.contains(c.fileName())
              && (f == null || c.level() < f.level() || (c.level() == f.level() && c.largestSeqno() < f.largestSeqno()))) {
            f = c;
          }
        }
        if (f == null) {
          break;
        }
        int outputLevel = f.level();
        long inputBytes = f.size();
        if (f.level() == 0) {
          outputLevel = l0Target(files);
          inputBytes += overlappedBytes(files, f, outputLevel);
        }
        if (!paced && bytesPerSecond != Long.MAX_VALUE) {
          paced = true;
          pace(Math.max(MIN_PACE_BYTES_PER_SECOND, bytesPerSecond));
        }
        try {
          long relocated = statistics.getTickerCount(TickerType.BLOB_DB_GC_BYTES_RELOCATED);
          db.compactFiles(compaction, dataCf, List.of(f.fileName()), outputLevel, -1, null);
          // The files and the values the rewrite brought back inline (read from blob files, written
          // into the new SST files): what the rewrite cost in I/O, charged to the caller's rate.
          rewritten += inputBytes + Math.max(0, statistics.getTickerCount(TickerType.BLOB_DB_GC_BYTES_RELOCATED) - relocated);
        } catch (RocksDBException e) {
          // A background compaction took the file (or one it overlaps) meanwhile, and rewrites it
          // anyway, or a real failure, which the next flush or compaction reports too: skip it
          // this time.
          String message = String.valueOf(e.getMessage());
          if (!message.contains("being compacted") && !message.contains("does not exist")) {
            throw failure("compactFiles (bringing separated values back inline)", e);
          }
          skipped.add(f.fileName());
        }
      }
      long left = db.getLongProperty(dataCf, "rocksdb.num-blob-files") == 0 ? 0 : dataFilesBelow(boundary).size();
      rewriteFilesLeft = left;
      return new Rewrite(rewritten, left);
    } catch (RocksDBException e) {
      throw failure("rewriting files", e);
    } finally {
      if (paced) {
        pace(UNPACED_BYTES_PER_SECOND);
      }
      tuneLock.unlock();
    }
  }

  /**
   * New write options for a durability: no WAL for {@code NO_WAL}, an fsync per write for {@code
   * SYNC}. The store's own (made by the factory) and each batch's own come from here.
   */
  /**
   * The store's write options, or those of {@code atLeast} where they are more durable: an fsync
   * where the store's writes are not synced, a log write where they are not logged.
   *
   * @param atLeast the least durability needed, or null for the store's
   */
  WriteOptions atLeastAsDurable(Durability atLeast) {
    if (atLeast == Durability.SYNC && !writeOptions.sync()) {
      return writeOptionsBy[Durability.SYNC.ordinal()];
    }
    if (atLeast == Durability.WAL && writeOptions.disableWAL()) {
      return writeOptionsBy[Durability.WAL.ordinal()];
    }
    return writeOptions;
  }

  static WriteOptions writeOptionsFor(Durability durability) {
    return new WriteOptions().setDisableWAL(durability == Durability.NO_WAL).setSync(durability == Durability.SYNC);
  }

  /** The shard's limiter on background writes (tests read its rate and counters). */
  RateLimiter rewritePaceForTests() {
    return rewritePace;
  }

  /** A new limiter on a shard's background writes, unpaced. */
  static RateLimiter newRewritePace() {
    return new RateLimiter(
        UNPACED_BYTES_PER_SECOND, PACE_REFILL_MICROS, RateLimiter.DEFAULT_FAIRNESS, RateLimiterMode.WRITES_ONLY, false);
  }

  /** Sets the shard's background-write rate, unless a close lifted the pace for good. */
  private void pace(long bytesPerSecond) {
    synchronized (rewritePace) {
      if (!hurried && !closed) {
        rewritePace.setBytesPerSecond(bytesPerSecond);
      }
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>Lifts the rate limiter to unpaced: the compaction in progress writes the rest of its
   * output at full speed, and no further file is rewritten.
   */
  @Override
  public void hurryRewrites() {
    synchronized (rewritePace) {
      hurried = true;
      if (!closed) {
        rewritePace.setBytesPerSecond(UNPACED_BYTES_PER_SECOND);
      }
    }
  }

  /**
   * Where a level-0 file goes when it is rewritten: the first deeper level holding files (where
   * RocksDB's own level-0 compaction would put it), or the last level if none does (with dynamic
   * level sizes, a tree whose data fit in level 0 grows from the last level).
   *
   * @param files the data column family's live files
   * @return the output level
   */
  private int l0Target(List<LiveFileMetaData> files) {
    int target = options.numLevels() - 1;
    for (LiveFileMetaData f : files) {
      if (f.level() > 0 && f.level() < target) {
        target = f.level();
      }
    }
    return target;
  }

  /** Bytes of the files at {@code level} whose key range overlaps {@code f}'s (which RocksDB adds). */
  private static long overlappedBytes(List<LiveFileMetaData> files, LiveFileMetaData f, int level) {
    long bytes = 0;
    for (LiveFileMetaData o : files) {
      if (o.level() == level
          && Arrays.compareUnsigned(o.smallestKey(), f.largestKey()) <= 0
          && Arrays.compareUnsigned(f.smallestKey(), o.largestKey()) <= 0) {
        bytes += o.size();
      }
    }
    return bytes;
  }

  @Override
  public byte[] loadTunerState() {
    List<byte[][]> saved = scanMeta(TUNER_STATE_KEY);
    return saved.isEmpty() || !Arrays.equals(saved.get(0)[0], TUNER_STATE_KEY) ? null : saved.get(0)[1];
  }

  @Override
  public void saveTunerState(byte[] state) {
    putMeta(TUNER_STATE_KEY, state);
  }

  @Override
  public void applySeparation(SeparationSettings settings) {
    tuneLock.lock();
    try {
      if (!BlobOptionsMapping.sameOptions(settings, separation)) {
        db.setOptions(dataCf, BlobOptionsMapping.mutable(settings));
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
      db.flush(flushOptions, List.of(dataCf, metaCf)); // both: a NO_WAL batch's undo records too
    } catch (RocksDBException e) {
      throw failure("flush", e);
    }
  }

  @Override
  public void compact() {
    tuneLock.lock();
    try {
      // Collect every blob file's garbage, whatever the settings (the adaptive policy turns
      // collection off while it sees only inserts; the user asked for a full compaction).
      // Under a size-aware placement, medium values go inline at the last level, where a full
      // compaction puts every pair (Parallax's in-place merge of medium values).
      SeparationSettings s = separation;
      SeparationSettings during = s.withGc(1.0, s.gcGarbageRatio());
      if (s.largeFromBytes() > 0 && s.minBlobBytes() < s.largeFromBytes()) {
        during = during.withPlacement(s.largeFromBytes(), s.blobFromLevel());
      }
      compactAll(during);
    } catch (RocksDBException e) {
      throw failure("compact", e);
    } finally {
      tuneLock.unlock();
    }
  }

  /**
   * Compacts the whole data column family, the bottom level included, with {@code during} in
   * force, then restores the settings. Called under {@code tuneLock}.
   */
  private void compactAll(SeparationSettings during) throws RocksDBException {
    SeparationSettings s = separation;
    boolean changed = !BlobOptionsMapping.sameOptions(during, s);
    try (CompactRangeOptions range =
        new CompactRangeOptions()
            .setBottommostLevelCompaction(CompactRangeOptions.BottommostLevelCompaction.kForceOptimized)) {
      if (changed) {
        db.setOptions(dataCf, BlobOptionsMapping.mutable(during));
      }
      try {
        db.compactRange(dataCf, null, null, range);
      } finally {
        if (changed) {
          db.setOptions(dataCf, BlobOptionsMapping.mutable(s));
        }
      }
    }
  }

  /**
   * A failed write: RocksDB keeps a failed WAL or memtable write as a background error and
   * refuses every later write to this shard (rocksdbjni has no {@code Resume}), so the message
   * says so and what to do.
   */
  private EngineException writeFailure(String operation, RocksDBException e) {
    writeFailed = true;
    boolean ioError = e.getStatus() != null && e.getStatus().getCode() == Status.Code.IOError;
    return failure(
        operation,
        e,
        ioError
            ? " (this shard refuses writes from now on; reads keep working. Free the cause, disk space for"
                + " example, then close the store and open it again)"
            : "");
  }

  EngineException failure(String operation, RocksDBException e) {
    return failure(operation, e, "");
  }

  /** A failure p2kv finds before RocksDB is called (no RocksDB status). */
  EngineException failure(String operation, String message) {
    return new EngineException(operation + " failed on shard " + shard + " (" + dir + "): " + message, null);
  }

  private EngineException failure(String operation, RocksDBException e, String advice) {
    String status = e.getStatus() == null ? "" : " [" + e.getStatus().getCodeString() + "]";
    return new EngineException(
        "RocksDB " + operation + " failed on shard " + shard + " (" + dir + ")" + status + ": " + e.getMessage() + advice,
        e);
  }

  /**
   * Close order: iterators still open (none if the store closed its own), snapshots still open
   * (likewise), idle pooled iterators,
   * their read options, column-family handles, DB (which flushes memtables only
   * when writes skipped the WAL: the store's or a batch's {@code NO_WAL}), write options, the tuning hook, the options objects, then the shard's
   * statistics.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (RocksDbIterator iterator : openIterators) {
      iterator.close();
    }
    for (RocksDbSnapshot view : openSnapshots) {
      view.release();
    }
    for (RocksDbCheckpoint checkpoint : openCheckpoints) {
      try {
        checkpoint.close();
      } catch (EngineException e) {
        LOG.warn("p2kv shard {} ({}): {}", shard, dir, e.getMessage());
      }
    }
    drainIdle();
    pooledReadOptions.close();
    metaCf.close();
    dataCf.close();
    try {
      db.closeE();
    } catch (RocksDBException e) {
      if (!writeFailed) {
        throw failure("close", e);
      }
      // The write error is what RocksDB reports again (for instance "Seen error. Skip writing
      // buffer." after a full disk): the requests it failed were told, the acknowledged writes
      // are in the WAL, and the shard is closed.
      LOG.warn("p2kv shard {} ({}) closed after an earlier write error; RocksDB reports: {}", shard, dir, e.getMessage());
    } finally {
      writeOptions.close();
      for (WriteOptions o : writeOptionsBy) {
        o.close();
      }
      metaDeleteOptions.close();
      if (configurer != null) {
        configurer.close(shard, options);
      }
      metaCfOptions.close();
      dataCfOptions.close();
      dbOptions.close();
      options.close();
      statistics.close();
      synchronized (rewritePace) {
        rewritePace.close();
      }
    }
  }
}
