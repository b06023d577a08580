package io.p2kv.kafka;

import io.p2kv.Batch;
import io.p2kv.Durability;
import io.p2kv.KvIterator;
import io.p2kv.P2kv;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.internals.ChangelogRecordDeserializationHelper;
import org.apache.kafka.streams.processor.internals.RecordBatchingStateRestoreCallback;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.internals.PositionSerde;
import org.apache.kafka.streams.state.internals.StoreQueryUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Thread-safe for the task's stream thread plus interactive-query readers: one task's key-value
 * store, a key range of the application instance's shared p2kv store (see {@link SharedStore}).
 *
 * <h2>Write buffer</h2>
 * Writes ({@code put}, {@code putAll}, {@code delete}) go to a buffer of the task's store, which
 * keeps the last write of each key, and reach p2kv as one atomic batch, in key order (for a
 * transactional store, only at a commit: see "Transactions"), when it
 * holds {@value #WRITE_BUFFER_RECORDS} keys or {@value #WRITE_BUFFER_BYTES} bytes, when Kafka
 * flushes or commits the store (before each commit of the task), before every range, scan or
 * count, and at close. Point reads, the stream thread's and interactive queries', see buffered
 * writes. A sync hand-off to a shard worker per record would cost more than the write itself;
 * Kafka's own RocksDB store likewise keeps writes in memory (its write-ahead log is off) until it
 * flushes at commit, which is all the durability Kafka Streams asks of a store: the changelog
 * holds every write, and an uncommitted one is restored from it. The buffer goes in key order:
 * RocksDB inserts a batch's keys into its memtable faster in key order, each insert starting where
 * the last one ended (see {@link #sortedBuffer}).
 *
 * <h2>Restores</h2>
 * Restored changelog records wait in a {@link RestoreBuffer} (a file in the task's state
 * directory, not the heap) and reach p2kv as a bulk load ({@link P2kv#loadSorted}: sorted table
 * files ingested whole, without the write-ahead log or the memtable; the records sorted as bytes,
 * not objects, see {@link RestoreBuffer#drainSorted}) when the task's buffer holds {@value
 * #RESTORE_BUFFER_BYTES} bytes or the instance's buffers not yet handed to a write together half
 * its memory budget (then on the instance's loader thread, while the restoring thread goes on),
 * and before anything else reads or writes the store: a read, a write, a flush, close, and the
 * first commit after the last changelog records (a commit during a restore records only the
 * offsets of restored records already in p2kv; see {@link #commit}).
 * Fewer than {@value #LOAD_MIN_RECORDS} records go as a write batch instead. A load is durable
 * when it returns, so a commit's offsets never count a restored record a crash could lose, and no
 * commit needs to flush. Through the write-ahead log and memtable, restores were measured slower:
 * one shard worker inserted every record into one large memtable, while Kafka's 32 RocksDB stores
 * are filled by both restoring threads (docs/benchmarks/KAFKA-STREAMS.md, "Restores as bulk
 * loads"). Writing them as unlogged batches into a store that logged its other writes was slower
 * too, since every task's first commit then had to flush the shared store.
 *
 * <h2>Durability</h2>
 * On a shared store of one shard every write is unlogged ({@code Durability.NO_WAL}: data, offsets,
 * position and status alike), as Kafka's RocksDB stores write; a crash keeps a prefix of them, so
 * the committed offsets never count a write it lost. On more shards every write is logged. See
 * {@link SharedStore#writeDurability}. Deletes of a dropped partition are logged in both cases: a
 * logged delete that outlives the unlogged writes before it leaves less data, never more.
 *
 * <h2>Offsets and exactly-once (KIP-1035)</h2>
 * The store manages its changelog offsets: {@link #commit(Map)} writes them, with the IQv2 {@link
 * Position} of the data written so far, in one atomic p2kv batch with the buffered writes they
 * cover, in the store's own key range; {@code init} reads the position back. Under exactly-once Kafka
 * Streams (4.3, and 4.4 without {@code enable.transactional.statestores}) commits stores only when
 * a task is restored, suspended or closed, not at each transaction (StreamTask.postCommit), so the
 * store cannot keep uncommitted writes apart from committed ones without holding every write of a
 * running task in memory. Like Kafka's RocksDB store, it marks the partition open when it opens and
 * closed when it closes, but only after a commit: a close after uncommitted writes is a dirty one
 * (Kafka commits a store before closing it cleanly). Opening a partition still marked open (the
 * process died, or the task was closed dirty) under exactly-once drops the partition's keys,
 * offsets and status, as a wipe of the task would, and Kafka restores it from the changelog. The
 * store drops it itself rather than reporting the task corrupted: Kafka 4.4 with {@code
 * enable.transactional.statestores} re-creates a corrupted task without wiping its directory, so
 * the report would come again at every attempt.
 *
 * <h2>Transactions (KIP-892)</h2>
 * With Kafka 4.4's {@code enable.transactional.statestores}, Kafka commits every store after each
 * transaction and no longer wipes a task after a crash or a task error, and the store is
 * transactional. Its writes stay in the buffer (a {@link TreeMap} then) until a commit writes
 * them with the offsets, however many there are: Kafka commits early when the stores' {@link
 * #approximateNumUncommittedBytes} pass {@code statestore.uncommitted.max.bytes}. The task's reads
 * see its uncommitted writes (scans merge a copy of the buffer's range over p2kv, {@link
 * StagedIterator}); a read-committed interactive query ({@link #readOnly}, IQv2's isolation level)
 * sees p2kv alone and the committed position. A close drops the uncommitted writes. p2kv thus
 * holds only committed writes: the partition is never marked open, and after a crash or a task
 * error it is kept, so Kafka restores only the changelog's records after the last commit. A
 * partition a store without transactions left open is still dropped.
 *
 * <h2>Life of a partition's data</h2>
 * A marker file in the task directory says the store's data belongs to that directory. Kafka
 * deletes the task directory when it wipes a task (corruption, or a dirty close under
 * exactly-once) and when its cleaner removes a task that moved away; an {@code init} that finds
 * no marker deletes the partition's keys, offsets and status before anything reads them, so the
 * store never serves data Kafka believes gone.
 */
public class P2kvKeyValueStore implements KeyValueStore<Bytes, byte[]> {
  private static final Logger LOG = LoggerFactory.getLogger(P2kvKeyValueStore.class);
  private static final byte[] OPEN = {1};
  private static final byte[] CLOSED = {0};
  /** Writes a task's store holds before they go to p2kv as one batch (see the class comment). */
  static final int WRITE_BUFFER_RECORDS = 1000;
  /** Bytes of keys and values a task's store holds before they go to p2kv as one batch. */
  static final long WRITE_BUFFER_BYTES = 4L << 20;
  /**
   * Restored records fewer than this go to p2kv as a write batch, more as a bulk load ({@link
   * P2kv#load}), whose table file, MANIFEST update and compaction cost more than a small batch's
   * write (docs/benchmarks/BULK-LOAD.md: a load is 1.22x a write at 2,048 pairs, 1.71x at 4,096).
   */
  static final int LOAD_MIN_RECORDS = 4096;
  /**
   * Bytes of restored records a task's store holds before it loads them (see "Restores"); a load
   * holds their bytes on the heap while it runs.
   */
  static final long RESTORE_BUFFER_BYTES = 16L << 20;
  /** First part of the names of the files restored records wait in (see {@link RestoreBuffer}). */
  static final String RESTORE_FILE_PREFIX = "p2kv-";

  private final String name;
  /** The IQv2 position of the data in p2kv (committed, for a transactional store); new at each {@link #init}. */
  private Position position = Position.emptyPosition();
  /** Guards the write buffer: the task's stream thread writes, interactive queries read. */
  private final Object bufferLock = new Object();
  /** The iterators handed out and not closed: closing the store closes them (see {@link TrackedIterator}). */
  private final Set<TrackedIterator> openIterators = java.util.concurrent.ConcurrentHashMap.newKeySet();
  /**
   * The buffered writes by user key, the last write of each (a null value a delete), with its store
   * key: what reads see before p2kv does.
   */
  private Map<Bytes, Batch.Op> buffered = new HashMap<>();
  private long bufferedBytes;
  /**
   * Whether Kafka's {@code enable.transactional.statestores} is on (see "Transactions"): then
   * {@link #buffered} is a {@link TreeMap} and reaches p2kv only at a commit. Set by {@link #init}.
   */
  private boolean transactional;
  /**
   * A transactional store's position of its uncommitted writes, merged into {@link #position} at a
   * commit and dropped at a close; written under {@link #bufferLock}.
   */
  private volatile Position uncommittedPosition = Position.emptyPosition();
  /** What a read-committed interactive query sees of a transactional store. */
  private final ReadOnlyKeyValueStore<Bytes, byte[]> committedView = new CommittedView();
  /**
   * Whether the store took a write since its last {@link #commit}; guarded by {@link #bufferLock}.
   * {@link #close} marks the partition closed only if not: Kafka commits a store before it closes
   * it cleanly, so a close after uncommitted writes is a dirty one (a task error), whose writes
   * under exactly-once may belong to a transaction that aborts.
   */
  private boolean writtenSinceCommit;
  /** Checks each buffered write against p2kv's limits when it comes (an empty batch between uses). */
  private final Batch limitsCheck = new Batch();
  /**
   * Restored records not yet in p2kv, in changelog order (see "Restores"); guarded by {@link
   * #bufferLock}. Everything that reads or writes p2kv writes them first. Null until {@link #init}.
   */
  private RestoreBuffer restored;
  /** The task's state directory, where restored records wait in files ({@link RestoreBuffer}). */
  private Path taskDir;
  /** Restore files this store has started, for their names. */
  private int restoreFiles;
  /** The bytes of {@link #restored}, as counted in the instance's restore buffers. */
  private long restoredBytes;
  /**
   * The write of the restored records last taken from {@link #restored}, or null once awaited; it
   * completes with their offsets (as {@link #restoredOffsets}).
   */
  private CompletableFuture<Map<TopicPartition, Long>> restoreWrite;
  /**
   * Why restored records taken from {@link #restored} never reached p2kv, or null; guarded by
   * {@link #bufferLock}, cleared by {@link #init}. Until then every restore, commit, read and write
   * fails with it, whichever thread met the failure first (an interactive query's read writes the
   * restored records too): else the restoring thread would go on and commit offsets past the lost
   * records, which no restore would then bring back.
   */
  private ProcessorStateException restoreFailure;
  /** Per changelog partition, the offset of the last record in {@link #restored}. */
  private Map<TopicPartition, Long> restoredOffsets = new HashMap<>();
  /**
   * Per changelog partition, the offset of the last restored record written to p2kv since the
   * last commit: what a commit during a restore may record (see {@link #commit}).
   */
  private final Map<TopicPartition, Long> writtenOffsets = new HashMap<>();
  /** Whether changelog records came since the last commit: the task is restoring. */
  private boolean restoredSinceCommit;
  private volatile boolean open;
  private SharedStore shared;
  private P2kv store;
  /** The durability of the store's writes: {@link SharedStore#writeDurability}. */
  private Durability durability;
  private StoreKeys keys;
  private StateStoreContext context;

  /**
   * A store, opened by {@link #init}; use {@link P2kvStores} rather than this constructor.
   *
   * @param name the store's name
   */
  P2kvKeyValueStore(String name) {
    this.name = name;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void init(StateStoreContext stateStoreContext, StateStore root) {
    File taskDir = stateStoreContext.stateDir();
    Path sharedDir = taskDir.getAbsoluteFile().toPath().getParent().resolve("p2kv");
    Map<String, Object> configs = stateStoreContext.appConfigs();
    boolean eos = StreamsConfig.EXACTLY_ONCE_V2.equals(configs.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG));
    transactional = StreamsConfig.InternalConfig.getBoolean(configs, StreamsConfig.TRANSACTIONAL_STATE_STORES_CONFIG, false);
    // Kafka may open the same store object again (a revived task): nothing of its last life
    // carries over, since its partition may have been dropped since.
    buffered = transactional ? new TreeMap<>() : new HashMap<>();
    bufferedBytes = 0;
    writtenSinceCommit = false;
    position = Position.emptyPosition();
    uncommittedPosition = Position.emptyPosition();
    restoredOffsets = new HashMap<>();
    writtenOffsets.clear();
    restoredSinceCommit = false;
    restoreFailure = null;
    P2kvStoreConfig config = P2kvStoreConfig.from(configs);
    SharedStore s;
    try {
      s = SharedStore.acquire(sharedDir, config);
    } catch (RuntimeException e) { // locked by another process, corrupt, another shard count, ...
      throw new ProcessorStateException("store " + name + ": cannot open the shared p2kv store in " + sharedDir + ": "
          + e.getMessage(), e);
    }
    try {
      store = s.store();
      durability = s.writeDurability();
      keys = new StoreKeys(name, stateStoreContext.taskId().partition());
      Path marker = taskDir.toPath().resolve("p2kv-" + name);
      synchronized (s) {
        boolean marked = Files.exists(marker);
        if (marked && eos && Arrays.equals(store.get(keys.status()), OPEN)) {
          // Not closed: the process died, and under exactly-once the partition may hold writes of
          // a transaction that never committed. Drop it as if Kafka had wiped the task, and Kafka
          // restores it from the changelog (its offsets go too). The marker goes first, so a crash
          // during the drop drops again.
          Files.delete(marker);
          marked = false;
          LOG.warn("store {} of task {} was not closed (the process died); under exactly-once it may hold"
              + " uncommitted writes, so its keys, offsets and status are dropped and restored from the changelog",
              name, stateStoreContext.taskId());
        }
        if (!marked) {
          dropPartition();
          LOG.info("store {} of task {}: no marker in {}, dropped its keys, offsets and status",
              name, stateStoreContext.taskId(), taskDir);
          Files.createDirectories(taskDir.toPath());
          Files.writeString(marker, "p2kv data of store " + name + " lives in " + sharedDir + "\n");
        }
      }
      this.taskDir = taskDir.toPath();
      deleteRestoreFiles();
      restored = newRestoreBuffer();
      // Open: the partition may hold writes Kafka has not committed. A transactional store writes
      // only at commits, so its partition is never open.
      writeStatus(transactional ? CLOSED : OPEN);
      byte[] savedPosition = store.get(keys.position());
      if (savedPosition != null) {
        synchronized (position) {
          position.merge(PositionSerde.deserialize(ByteBuffer.wrap(savedPosition)));
        }
      }
    } catch (IOException e) {
      s.release();
      throw new ProcessorStateException("store " + name + ": cannot write its marker or delete its old restore files in " + taskDir, e);
    } catch (RuntimeException e) {
      s.release();
      throw new ProcessorStateException("store " + name + ": cannot open in " + sharedDir, e);
    }
    shared = s;
    context = stateStoreContext;
    boolean consistency = StreamsConfig.InternalConfig.getBoolean(
        configs, StreamsConfig.InternalConfig.IQ_CONSISTENCY_OFFSET_VECTOR_ENABLED, false);
    try {
      stateStoreContext.register(root, (RecordBatchingStateRestoreCallback) records -> restore(records, consistency));
    } catch (RuntimeException e) { // e.g. a store of this name already registered: leave the shared store
      shared = null;
      store = null;
      s.release();
      throw e;
    }
    open = true;
  }

  /**
   * Buffers a batch of changelog records, and loads the buffer into p2kv when this store's or the
   * instance's restore buffers are full (see "Restores").
   */
  private void restore(Collection<ConsumerRecord<byte[], byte[]>> records, boolean consistency) {
    synchronized (bufferLock) {
      validateOpen();
      checkRestoreFailure();
      try {
        ConsumerRecord<byte[], byte[]> last = null;
        for (ConsumerRecord<byte[], byte[]> r : records) {
          restored.add(r.key(), r.value());
          last = r;
        }
        if (last != null) {
          restoredOffsets.put(new TopicPartition(last.topic(), last.partition()), last.offset());
          restoredSinceCommit = true;
        }
      } catch (java.io.UncheckedIOException e) {
        throw new ProcessorStateException("store " + name + ": cannot buffer restored records", e.getCause());
      }
      long bytes = restored.bytes();
      long instanceBytes = shared.addRestoreBytes(bytes - restoredBytes);
      restoredBytes = bytes;
      synchronized (position) {
        for (ConsumerRecord<byte[], byte[]> r : records) {
          ChangelogRecordDeserializationHelper.applyChecksAndUpdatePosition(r, consistency, position);
        }
      }
      if (restoredBytes >= RESTORE_BUFFER_BYTES || instanceBytes >= shared.restoreBufferBytes()) {
        startRestoredWrite();
      }
    }
  }

  /**
   * Writes the buffered restored records to p2kv, and waits until they are there; the caller holds
   * {@link #bufferLock}.
   */
  private void writeRestored() {
    awaitRestoredWrite();
    if (!restored.isEmpty()) {
      // On this thread: it would wait for the loader anyway, and two restoring threads then load
      // in parallel.
      Map<TopicPartition, Long> offsets = restoredOffsets;
      RestoreBuffer buffer = takeRestored();
      try {
        writeRecords(store, keys, buffer, durability);
        writtenOffsets.putAll(offsets);
      } catch (RuntimeException e) {
        throw restoreFailed(e);
      }
    }
  }

  /**
   * Hands the buffered restored records over to a write, and takes their bytes out of the
   * instance's count at once. Counted until their write ended, a load in flight kept the count
   * over its cap, and other stores then wrote what little they held at their next restore call: a
   * restore of 12 M records made 148 writes, 59 of them under {@value #LOAD_MIN_RECORDS} records
   * (through the log), against 79 loads and no small write since (docs/benchmarks/KAFKA-STREAMS.md,
   * stop 51).
   */
  private RestoreBuffer takeRestored() {
    RestoreBuffer buffer = restored;
    restored = newRestoreBuffer();
    shared.addRestoreBytes(-restoredBytes);
    restoredBytes = 0;
    restoredOffsets = new HashMap<>();
    return buffer;
  }

  /** How the names of this store's restore files begin; a number ends each. */
  private String restoreFilePrefix() {
    // '~' is in no store name (P2kvStores accepts Kafka's characters only), so no store's marker
    // ("p2kv-" + its name) can look like another store's restore file, which init deletes.
    return RESTORE_FILE_PREFIX + name + "~restore-";
  }

  /** A restore buffer whose records wait in a new file of the task's state directory. */
  private RestoreBuffer newRestoreBuffer() {
    return new RestoreBuffer(taskDir.resolve(restoreFilePrefix() + restoreFiles++));
  }

  /** Deletes the restore files of this store that a process that died left in the task's directory. */
  private void deleteRestoreFiles() throws IOException {
    String prefix = restoreFilePrefix();
    try (java.util.stream.Stream<Path> files = Files.list(taskDir)) {
      for (Path f : files.filter(f -> f.getFileName().toString().startsWith(prefix)).toList()) {
        Files.deleteIfExists(f);
      }
    }
  }

  /**
   * Writes {@code buffer}'s records, in key order (each key's records in arrival order, so the
   * result is what arrival order would leave): a bulk load when there are many, else a write batch
   * per shard.
   */
  private static void writeRecords(P2kv store, StoreKeys keys, RestoreBuffer buffer, Durability durability) {
    if (buffer.records() >= LOAD_MIN_RECORDS) {
      store.loadSorted(buffer.drainSorted(keys));
    } else {
      Batch batch = new Batch(buffer.records());
      buffer.drainSorted(keys).forEachRemaining(op -> add(batch, op));
      writeAsync(store, perShard(store, batch), durability).join();
    }
  }

  /**
   * Starts writing the buffered restored records to p2kv on the instance's loader thread, after
   * this store's previous such write has finished, and returns: the restoring thread goes on
   * fetching and parsing changelog records meanwhile. A bulk load when there are many, else a
   * write batch per shard. The caller holds {@link #bufferLock}.
   */
  private void startRestoredWrite() {
    awaitRestoredWrite();
    if (restored.isEmpty()) {
      return;
    }
    Map<TopicPartition, Long> offsets = restoredOffsets;
    RestoreBuffer buffer = takeRestored();
    P2kv s = store;
    StoreKeys k = keys;
    Durability d = durability;
    restoreWrite = CompletableFuture.supplyAsync(() -> {
      writeRecords(s, k, buffer, d);
      return offsets;
    }, shared.loader());
  }

  /**
   * Waits until the last restored records written are in p2kv; the caller holds {@link
   * #bufferLock}. On failure they are lost to the store, which fails until it is opened again
   * ({@link #restoreFailure}): Kafka closes the task and restores it again from its committed
   * offsets, which never count them.
   */
  private void awaitRestoredWrite() {
    checkRestoreFailure();
    CompletableFuture<Map<TopicPartition, Long>> w = restoreWrite;
    if (w == null) {
      return;
    }
    try {
      writtenOffsets.putAll(w.join());
    } catch (CompletionException e) {
      throw restoreFailed(e.getCause());
    } finally {
      restoreWrite = null;
    }
  }

  /** Records that restored records were lost to p2kv (see {@link #restoreFailure}) and returns the failure. */
  private ProcessorStateException restoreFailed(Throwable cause) {
    restoreFailure = new ProcessorStateException("store " + name + ": restored records failed", cause);
    return restoreFailure;
  }

  /**
   * Throws if restored records were lost to p2kv since {@link #init}: Kafka must close the task and
   * restore it again from its committed offsets, which never count them. The caller holds {@link
   * #bufferLock}.
   */
  private void checkRestoreFailure() {
    if (restoreFailure != null) {
      throw new ProcessorStateException(
          "store " + name + ": restored records were lost to an earlier failure; the task must be restored again",
          restoreFailure);
    }
  }

  /**
   * Deletes this partition's data, offsets, position and status: a p2kv range delete of the data
   * and one of the offsets (one range tombstone per shard each, whatever the number of keys) and two
   * deletes, each only if there is something to delete. A task that starts on a new state directory
   * (a new application, a restore from the changelog) thus writes no tombstones that the
   * partition's reads would pass until compaction removes them. Not atomic, and need not be: the
   * marker file is written only after this returns, so a crash in between drops again.
   */
  private void dropPartition() {
    deleteIfPresent(store, keys.status());
    deleteIfPresent(store, keys.position());
    deleteRangeIfAny(store, keys.dataStart(), keys.dataEnd());
    deleteRangeIfAny(store, keys.offsetStart(), keys.offsetEnd());
  }

  /** Deletes {@code key} if {@code store} holds it; returns whether it did. */
  static boolean deleteIfPresent(P2kv store, byte[] key) {
    if (store.get(key) == null) {
      return false;
    }
    store.delete(key);
    return true;
  }

  /** Range-deletes {@code [from, to)} if {@code store} holds a key in it; returns whether it did. */
  static boolean deleteRangeIfAny(P2kv store, byte[] from, byte[] to) {
    if (store.range(from, to, 1).isEmpty()) {
      return false;
    }
    store.deleteRange(from, to);
    return true;
  }

  /** Writes the partition's status, with the durability of its data (see {@link #durability}). */
  private void writeStatus(byte[] status) {
    write(new Batch(1).put(keys.status(), status));
  }

  private void write(Batch batch) {
    if (!batch.isEmpty()) {
      try {
        store.write(batch, durability);
      } catch (RuntimeException e) {
        throw new ProcessorStateException("store " + name + ": a batch of " + batch.size() + " writes failed", e);
      }
    }
  }

  /**
   * {@code batch} split by shard, in its order: entry i holds the writes to shard i. Each part is a
   * single-shard write, which its shard's worker applies on its own, in parallel with the others;
   * one batch across shards would be a cross-shard atomic write, which the data need not be (see
   * {@link #writeBuffer}).
   */
  private static Batch[] perShard(P2kv store, Batch batch) {
    if (store.shardCount() == 1) {
      return new Batch[] {batch};
    }
    Batch[] parts = new Batch[store.shardCount()];
    for (int i = 0; i < parts.length; i++) {
      parts[i] = new Batch();
    }
    for (Batch.Op op : batch.ops()) {
      add(parts[store.shardOf(op.key())], op);
    }
    return parts;
  }

  /** Starts the non-empty parts' writes, one per shard; completes when all of them have. */
  private static CompletableFuture<Void> writeAsync(P2kv store, Batch[] parts, Durability durability) {
    CompletableFuture<?>[] writes = new CompletableFuture<?>[parts.length];
    int n = 0;
    for (Batch part : parts) {
      if (!part.isEmpty()) {
        writes[n++] = store.writeAsync(part, durability);
      }
    }
    return n == 1 ? writes[0].thenApply(v -> null) : CompletableFuture.allOf(Arrays.copyOf(writes, n));
  }

  // ------------------------------------------------------------------ the write buffer

  /** Buffers one write; the caller holds {@link #bufferLock}. */
  private void buffer(Bytes key, byte[] value) {
    byte[] storeKey = keys.data(key.get());
    Batch.Op op = new Batch.Op(storeKey, value);
    limitsCheck.clear();
    add(limitsCheck, op); // p2kv's limits, checked as the write comes
    Batch.Op replaced = buffered.put(key, op);
    bufferedBytes += opBytes(op) - (replaced == null ? 0 : opBytes(replaced));
    writtenSinceCommit = true;
  }

  /** The bytes a buffered write holds: its store key, and its value unless it is a delete. */
  private static long opBytes(Batch.Op op) {
    return op.key().length + (op.isDelete() ? 0 : op.value().length);
  }

  /** The position a write moves: for a transactional store, that of its uncommitted writes. */
  private Position writesPosition() {
    return transactional ? uncommittedPosition : position;
  }

  /** Writes the buffer to p2kv if it is full; the caller holds {@link #bufferLock}. */
  private void writeBufferIfFull() {
    if (!transactional && (buffered.size() >= WRITE_BUFFER_RECORDS || bufferedBytes >= WRITE_BUFFER_BYTES)) {
      writeBuffer(new Batch());
    }
  }

  /**
   * Writes the buffer, then {@code extra}, to p2kv as one atomic batch and empties the buffer; the
   * caller holds {@link #bufferLock}. The buffer holds the last write of each key and goes in key
   * order. On failure the buffer keeps its writes (Kafka then closes the task dirty).
   */
  private void writeBuffer(Batch extra) {
    writeRestored();
    Batch batch = sortedBuffer();
    if (store.shardCount() == 1) {
      for (Batch.Op op : extra.ops()) {
        add(batch, op);
      }
      write(batch);
    } else {
      // The data, split by shard and written in parallel, then the offsets: a commit's offsets
      // still never count a write a crash could lose, without a cross-shard atomic write per
      // buffer. A crash between the two leaves data newer than the offsets, which a restore from
      // those offsets writes again (Kafka's RocksDB store flushes its memtables whenever it likes
      // too); under exactly-once the partition is still marked open, so it is wiped.
      try {
        writeAsync(store, perShard(store, batch), durability).join();
      } catch (CompletionException e) {
        throw new ProcessorStateException("store " + name + ": a batch of " + batch.size() + " writes failed", e.getCause());
      }
      write(extra);
    }
    buffered.clear();
    bufferedBytes = 0;
  }

  /**
   * The buffered writes as a batch in key order ({@link Batch#sortByKey}): RocksDB inserts a batch's
   * keys into its memtable faster in key order than in random order, as each insert starts its
   * search where the last one ended. The buffer holds one write per key, so the order of a key's
   * writes does not arise.
   */
  private Batch sortedBuffer() {
    Batch batch = new Batch(buffered.size());
    for (Batch.Op op : buffered.values()) {
      add(batch, op);
    }
    return batch.sortByKey();
  }

  /** Adds {@code op} to {@code batch}: a put, or a delete for a null value. */
  private static void add(Batch batch, Batch.Op op) {
    add(batch, op.key(), op.value());
  }

  /** Adds a put of {@code key}, or its delete for a null value, to {@code batch}. */
  private static void add(Batch batch, byte[] key, byte[] value) {
    if (value == null) {
      batch.delete(key);
    } else {
      batch.put(key, value);
    }
  }

  /**
   * Writes the buffered writes to p2kv (Kafka calls it before each commit); a transactional store
   * writes them only at a commit.
   */
  @Override
  public void flush() {
    synchronized (bufferLock) {
      if (open && !transactional) {
        writeBuffer(new Batch());
      }
    }
  }

  // ------------------------------------------------------------------ offsets (KIP-1035)

  @Override
  @SuppressWarnings("deprecation")
  public boolean managesOffsets() {
    return true;
  }

  /**
   * Writes the buffered writes with the offsets and the position, as one atomic batch; or, during a
   * restore (changelog records came since the last commit and some wait for their write), only the
   * offsets of the restored records already in p2kv. Such a commit does not write the waiting
   * records: under exactly-once Kafka commits a restoring store every 100 ms, and writing them at
   * each commit made a restore many small writes (one task's 62,500 records in about 3 instead of
   * one load; the restore ran at 0.84x of Kafka's stores, 1.20x without). A crash then redoes at
   * most the records not yet written. The first commit with no changelog records since the last
   * writes them all with the offsets, and so does every read, write and close.
   */
  @Override
  public void commit(Map<TopicPartition, Long> changelogOffsets) {
    synchronized (bufferLock) {
      if (!open) {
        return;
      }
      checkRestoreFailure();
      boolean restoring = restoredSinceCommit && (!restored.isEmpty() || restoreWrite != null);
      restoredSinceCommit = false;
      if (restoring && buffered.isEmpty() && !changelogOffsets.isEmpty()) {
        commitWrittenOffsets();
      } else {
        commitWithBuffer(changelogOffsets);
      }
    }
  }

  /**
   * Writes the offsets of the restored records already in p2kv, if any (a finished background
   * write counts); the caller holds {@link #bufferLock}.
   */
  private void commitWrittenOffsets() {
    if (restoreWrite != null && restoreWrite.isDone()) {
      awaitRestoredWrite();
    }
    if (!writtenOffsets.isEmpty()) {
      Batch batch = new Batch();
      writtenOffsets.forEach((partition, offset) -> batch.put(keys.offset(partition), offsetBytes(offset)));
      write(batch);
      writtenOffsets.clear();
    }
  }

  private static byte[] offsetBytes(long offset) {
    return ByteBuffer.allocate(Long.BYTES).putLong(offset).array();
  }

  /**
   * The buffered writes, then the offsets and the position, as one atomic batch.
   */
  private void commitWithBuffer(Map<TopicPartition, Long> changelogOffsets) {
    Batch batch = new Batch();
    if (changelogOffsets.isEmpty()) {
      try (KvIterator it = store.iterator(keys.offsetStart(), keys.offsetEnd())) {
        it.forEachRemaining(kv -> batch.delete(kv.key()));
      }
    }
    for (Map.Entry<TopicPartition, Long> e : changelogOffsets.entrySet()) {
      if (e.getValue() == null) {
        batch.delete(keys.offset(e.getKey()));
      } else {
        batch.put(keys.offset(e.getKey()), offsetBytes(e.getValue()));
      }
    }
    synchronized (position) {
      // The position as of the data written so far, so a reopened store answers IQv2 position
      // bounds as it did (Kafka's RocksDB store keeps its position too).
      ByteBuffer serialized = PositionSerde.serialize(getPosition());
      byte[] bytes = new byte[serialized.remaining()];
      serialized.get(bytes);
      batch.put(keys.position(), bytes);
    }
    writeBuffer(batch);
    writtenOffsets.clear(); // the offsets just written cover them
    if (transactional) {
      synchronized (position) {
        position.merge(uncommittedPosition);
      }
      uncommittedPosition = Position.emptyPosition();
    }
    writtenSinceCommit = false;
  }

  @Override
  public Long committedOffset(TopicPartition partition) {
    validateOpen();
    byte[] v = store.get(keys.offset(partition));
    return v == null ? null : ByteBuffer.wrap(v).getLong();
  }

  // ------------------------------------------------------------------ writes

  @Override
  public void put(Bytes key, byte[] value) {
    Objects.requireNonNull(key, "key cannot be null");
    synchronized (bufferLock) {
      validateOpen();
      buffer(key, value);
      StoreQueryUtils.updatePosition(writesPosition(), context);
      writeBufferIfFull();
    }
  }

  @Override
  public byte[] putIfAbsent(Bytes key, byte[] value) {
    byte[] old = get(key);
    if (old == null && value != null) {
      put(key, value);
    }
    return old;
  }

  @Override
  public void putAll(List<KeyValue<Bytes, byte[]>> entries) {
    for (KeyValue<Bytes, byte[]> e : entries) {
      Objects.requireNonNull(e.key, "key cannot be null");
    }
    synchronized (bufferLock) {
      validateOpen();
      for (KeyValue<Bytes, byte[]> e : entries) {
        buffer(e.key, e.value);
      }
      StoreQueryUtils.updatePosition(writesPosition(), context);
      writeBufferIfFull(); // after all of them: the entries go to p2kv in one batch
    }
  }

  @Override
  public byte[] delete(Bytes key) {
    byte[] old = get(key);
    put(key, null);
    return old;
  }

  // ------------------------------------------------------------------ reads

  @Override
  public byte[] get(Bytes key) {
    return get(key, true);
  }

  /** The value of {@code key}; with {@code uncommitted}, as the buffered writes leave it. */
  private byte[] get(Bytes key, boolean uncommitted) {
    Objects.requireNonNull(key, "key cannot be null");
    P2kv s;
    synchronized (bufferLock) {
      validateOpen();
      Batch.Op op = uncommitted ? buffered.get(key) : null;
      if (op != null) {
        return op.value();
      }
      writeRestored();
      s = store;
    }
    try {
      return s.get(keys.data(key.get()));
    } catch (io.p2kv.StoreClosedException e) { // this task closed, and with it the last user of p2kv
      throw new InvalidStateStoreException("store " + name + " is not open", e);
    }
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
    return range(from, to, false, true);
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> reverseRange(Bytes from, Bytes to) {
    return range(from, to, true, true);
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> all() {
    return range(null, null, false, true);
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> reverseAll() {
    return range(null, null, true, true);
  }

  @Override
  public <PS extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(P prefix, PS prefixKeySerializer) {
    return prefixScan(prefix, prefixKeySerializer, true);
  }

  private <PS extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(
      P prefix, PS prefixKeySerializer, boolean uncommitted) {
    validateOpen();
    byte[] p = prefixKeySerializer.serialize(null, prefix);
    return iterator(keys.data(p), keys.dataPrefixEnd(p), false, uncommitted);
  }

  private KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to, boolean reverse, boolean uncommitted) {
    validateOpen();
    if (from != null && to != null && from.compareTo(to) > 0) {
      LOG.warn("store {}: range from {} to {} is empty, as from is after to (serdes whose byte order is not "
          + "the key order cause this)", name, from, to);
      return iterator(keys.dataStart(), keys.dataStart(), reverse, uncommitted);
    }
    byte[] start = from == null ? keys.dataStart() : keys.data(from.get());
    byte[] end = to == null ? keys.dataEnd() : keys.dataAfter(to.get());
    return iterator(start, end, reverse, uncommitted);
  }

  /**
   * An iterator over the store keys {@code [start, end)} of this partition: over p2kv after the
   * buffered writes have gone there, or for a transactional store, over its uncommitted writes (a
   * copy, with {@code uncommitted}) merged over p2kv.
   */
  private KeyValueIterator<Bytes, byte[]> iterator(byte[] start, byte[] end, boolean reverse, boolean uncommitted) {
    synchronized (bufferLock) { // registered before a close can come: the close closes it
      return new TrackedIterator(openIterator(start, end, reverse, uncommitted), name, openIterators);
    }
  }

  /**
   * {@link #iterator}, before the store registers it; the caller holds {@link #bufferLock}, which
   * close takes too, so the store stays open until the iterator is made, and for a transactional
   * store a commit cannot move writes from one side of the merge to the other in between.
   */
  private KeyValueIterator<Bytes, byte[]> openIterator(byte[] start, byte[] end, boolean reverse, boolean uncommitted) {
    validateOpen();
    if (!transactional) {
      writeBuffer(new Batch());
      return new PartitionIterator(reverse ? store.reverseIterator(start, end) : store.iterator(start, end), keys);
    }
    writeRestored();
    List<KeyValue<Bytes, byte[]>> staged = new ArrayList<>();
    if (uncommitted && !buffered.isEmpty()) {
      Bytes lo = Bytes.wrap(keys.userKey(start));
      NavigableMap<Bytes, Batch.Op> sorted = (NavigableMap<Bytes, Batch.Op>) buffered;
      NavigableMap<Bytes, Batch.Op> inRange = Arrays.equals(end, keys.dataEnd())
          ? sorted.tailMap(lo, true)
          : sorted.subMap(lo, true, Bytes.wrap(keys.userKey(end)), false);
      for (Map.Entry<Bytes, Batch.Op> e : (reverse ? inRange.descendingMap() : inRange).entrySet()) {
        staged.add(KeyValue.pair(e.getKey(), e.getValue().value()));
      }
    }
    KvIterator committed = reverse ? store.reverseIterator(start, end) : store.iterator(start, end);
    return new StagedIterator(staged, new PartitionIterator(committed, keys), reverse);
  }

  /** Counts the pairs (Kafka asks for an estimate; this is exact and reads the whole partition). */
  @Override
  public long approximateNumEntries() {
    return count(true);
  }

  private long count(boolean uncommitted) {
    validateOpen();
    long n = 0;
    try (KeyValueIterator<Bytes, byte[]> it = iterator(keys.dataStart(), keys.dataEnd(), false, uncommitted)) {
      while (it.hasNext()) {
        it.next();
        n++;
      }
    }
    return n;
  }

  /**
   * This store, or for a read-committed view of a transactional store, a view of its data as of
   * its last commit (Kafka's IQv2 queries take their isolation level here).
   */
  @Override
  public ReadOnlyKeyValueStore<Bytes, byte[]> readOnly(IsolationLevel isolationLevel) {
    Objects.requireNonNull(isolationLevel, "isolationLevel cannot be null");
    return transactional && isolationLevel == IsolationLevel.READ_COMMITTED ? committedView : this;
  }

  /** Thread-safe: a transactional store's data as of its last commit. */
  private final class CommittedView implements ReadOnlyKeyValueStore<Bytes, byte[]> {
    @Override
    public byte[] get(Bytes key) {
      return P2kvKeyValueStore.this.get(key, false);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
      return P2kvKeyValueStore.this.range(from, to, false, false);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseRange(Bytes from, Bytes to) {
      return P2kvKeyValueStore.this.range(from, to, true, false);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> all() {
      return P2kvKeyValueStore.this.range(null, null, false, false);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseAll() {
      return P2kvKeyValueStore.this.range(null, null, true, false);
    }

    @Override
    public <PS extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(P prefix, PS prefixKeySerializer) {
      return P2kvKeyValueStore.this.prefixScan(prefix, prefixKeySerializer, false);
    }

    @Override
    public long approximateNumEntries() {
      return count(false);
    }
  }

  /** The bytes of a transactional store's uncommitted writes (Kafka commits early past its limit). */
  @Override
  public long approximateNumUncommittedBytes() {
    synchronized (bufferLock) {
      return transactional ? bufferedBytes : 0;
    }
  }

  // ------------------------------------------------------------------ queries, life cycle

  @Override
  public <R> QueryResult<R> query(Query<R> query, PositionBound positionBound, QueryConfig config) {
    Position p = config.getIsolationLevel() == IsolationLevel.READ_COMMITTED ? position : getPosition();
    return StoreQueryUtils.handleBasicQueries(query, positionBound, config, this, p, context);
  }

  /** The position of the data written so far, committed or not. */
  @Override
  public Position getPosition() {
    return transactional ? position.copy().merge(uncommittedPosition) : position;
  }

  @Override
  public boolean persistent() {
    return true;
  }

  @Override
  public boolean isOpen() {
    return open;
  }

  /**
   * Marks the partition closed (or for a transactional store, drops its uncommitted writes) and
   * leaves the shared store; idempotent.
   */
  @Override
  public void close() {
    synchronized (bufferLock) {
      if (!open) {
        return;
      }
      try {
        if (transactional) {
          // A rollback: the uncommitted writes go, and the partition holds its last commit.
          writeRestored();
          if (!buffered.isEmpty()) {
            LOG.info("store {} closed with {} uncommitted writes; dropped them (transactional)", name, buffered.size());
          }
          buffered.clear();
          bufferedBytes = 0;
          uncommittedPosition = Position.emptyPosition();
          persistUnlogged();
        } else {
          writeBuffer(new Batch());
          if (writtenSinceCommit) {
            // A dirty close: Kafka did not commit first. Left marked open, so that under
            // exactly-once the next init drops the partition and Kafka restores it.
            LOG.info("store {} closed with writes after its last commit; left marked open", name);
          } else {
            writeStatus(CLOSED);
            persistUnlogged();
          }
        }
      } finally {
        for (TrackedIterator it : List.copyOf(openIterators)) {
          it.closeWithStore();
        }
        restored.discard(); // empty unless the write failed: those records are restored again
        shared.addRestoreBytes(-restoredBytes);
        restoredBytes = 0;
        open = false;
        shared.release();
        shared = null;
        store = null;
      }
    }
  }

  /**
   * At a clean close, flushes the shared store if it was written without its log and stays open
   * for other tasks (the last one's release closes it, and a close flushes): a task closed cleanly
   * keeps its state through a later crash of the process, as a Kafka RocksDB store does, which
   * flushes when it closes.
   */
  private void persistUnlogged() {
    if (durability == Durability.NO_WAL && shared.hasOtherUsers()) {
      try {
        store.flush();
      } catch (RuntimeException e) {
        throw new ProcessorStateException("store " + name + ": cannot flush the shared store at close", e);
      }
    }
  }

  private void validateOpen() {
    if (!open) {
      throw new InvalidStateStoreException("store " + name + " is not open");
    }
  }
}
