package io.p2kv;

import io.p2kv.internal.Backups;
import io.p2kv.internal.KeyOrder;
import io.p2kv.internal.StoreConfig;
import io.p2kv.internal.StoreCore;
import io.p2kv.internal.StoreIterator;
import io.p2kv.internal.StoreOpener;
import io.p2kv.internal.StoreSnapshot;
import io.p2kv.internal.engine.EngineFactory;
import io.p2kv.internal.separation.SeparationTuner;
import io.p2kv.rocksdb.RocksDbConfigurer;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Thread-safe: an open p2kv store, an embedded key-value store that hash-partitions keys over N
 * RocksDB instances, each driven by one worker thread that merges queued requests into batches
 * (the p2KVS design, EuroSys '22).
 *
 * <pre>{@code
 * try (P2kv store = P2kv.builder().shards(4).open(Path.of("/var/lib/app/kv"))) {
 *   store.put(key, value);
 *   byte[] v = store.get(key);
 *   store.putAsync(key, value).thenRun(() -> ...);
 * }
 * }</pre>
 *
 * <h2>Keys and values</h2>
 * Keys and values are byte arrays. Keys order as unsigned bytes. The empty key and the empty value
 * are valid. Keys are at most {@link #MAX_KEY_BYTES} bytes, values at most {@link
 * #MAX_VALUE_BYTES}. The store keeps references to the arrays it is given until the operation
 * completes: do not modify them before that. Arrays returned by reads belong to the caller.
 *
 * <h2>Ordering and consistency</h2>
 * Each key lives on exactly one shard, and each shard applies its requests in queue order, so the
 * operations one thread issues on one key apply in the order issued, and a thread always reads its
 * own completed writes. There is no ordering between different keys issued concurrently by
 * different threads.
 *
 * <h2>Atomic batches</h2>
 * {@link #write(Batch)} applies a batch all-or-nothing, also across shards and across a crash
 * (p2KVS section 4.5). A batch on one shard is one RocksDB write batch and costs what any write
 * costs. A batch that spans shards gets a global sequence number (GSN) and is split per shard;
 * each shard applies its part atomically together with an undo record and waits; once every part
 * is in, a commit record on shard 0 decides; on reopen after a crash, parts without a commit
 * record are rolled back. What survives which crash depends on {@link Durability}:
 *
 * <ul>
 *   <li>{@link Durability#SYNC}: an acknowledged batch survives power loss; no batch is ever seen
 *       torn after recovery.
 *   <li>{@link Durability#WAL}: an acknowledged batch survives a process crash, and no batch is
 *       torn after one. After an OS crash or power loss each shard keeps a prefix of its writes,
 *       independently: recent writes may be lost and a recent cross-shard batch may be torn.
 *   <li>{@link Durability#NO_WAL}: recent writes are lost on any crash, and a cross-shard batch
 *       may be torn after one (shards flush independently).
 * </ul>
 *
 * <p>Readers of the store itself are not isolated from a cross-shard batch in flight: until it is
 * acknowledged, a reader may see its part on one shard and not yet on another, and if it aborts (a
 * part failed) may briefly see values that are then rolled back. Once the writer's call returns,
 * every part is visible. Read through a {@link #snapshot()} for a view no batch is half in (see
 * "Consistent cuts"). A shard holding a prepared part executes nothing else until the batch is
 * decided, so cross-shard batches cost their shards a round trip each; prefer single-shard batches
 * (keys with the same {@link #shardOf(byte[])}) where the data model allows.
 *
 * <h2>Updates: read-modify-write without locks</h2>
 * {@link #update}, {@link #merge} and {@link #increment} read a key's value, compute the new one
 * and write it, atomically with respect to every other write of that key, with no lock: they are
 * executed by the key's shard worker, the one thread that applies every write of the shard, in
 * queue order. Several threads updating one key never lose each other's change.
 *
 * <pre>{@code
 * long views = store.increment(pageKey, 1);                  // counters: 8-byte big-endian longs
 * byte[] profile = store.update(userKey, v -> addTag(v, "vip")); // any function of the value
 * store.merge(logKey, entry, "append");                       // operators declared at open
 * }</pre>
 *
 * <ul>
 *   <li><b>Order.</b> Updates are writes: the worker batches them with the puts, deletes and
 *       single-shard batches queued around them (one multiGet for the keys the run did not write
 *       itself, then one engine write), and applies them in queue order. An update sees every
 *       write queued before it on its shard, earlier updates of the same run included; a thread's
 *       own operations on a key apply in the order issued.
 *   <li><b>The function</b> gets the current value (null if the key is absent), in an array of its
 *       own that it may modify and return, and returns the new value: null deletes the key (an
 *       absent key stays absent and nothing is written). It is called exactly once per request,
 *       on the worker thread, after the requests queued before it. It should be a pure function
 *       of its argument: if the engine write of its run fails, its result is discarded and the
 *       caller gets the failure.
 *   <li><b>Functions must be short and must not call the store.</b> While one runs, its shard
 *       executes nothing else: a function that takes a millisecond stalls every request queued on
 *       that shard for that millisecond (other shards go on). A blocking call of this store from
 *       it throws {@link IllegalStateException} (it would wait for its own worker); a read from
 *       it would not see the writes of the run it belongs to. {@link ShardStats#updates()},
 *       {@link ShardStats#updateNanos()} and {@link ShardStats#maxUpdateNanos()} report how long
 *       functions take.
 *   <li><b>Failures.</b> A function that throws, or returns a value longer than {@link
 *       #MAX_VALUE_BYTES}, fails only its own request, with {@link UpdateFunctionException} whose
 *       cause is what it threw; the other requests of the run apply. The function must not keep
 *       its argument or its result: the store writes the result and returns it to the caller.
 *   <li><b>Not in a {@link Batch}.</b> A batch holds blind puts and deletes only.
 * </ul>
 *
 * <h2>Sync, async, callbacks</h2>
 * Sync methods block the calling thread (platform or virtual) until the operation is applied.
 * {@code *Async} methods return at once; their futures and callbacks complete in the shard's
 * worker role: on the shard's worker thread, or on the thread of a sync caller of the same shard
 * that executes the worker's queue itself while the worker is idle (see docs/ARCHITECTURE.md,
 * "Flat combining"). So dependent stages and callbacks must be short and must never call a
 * blocking method of this store (doing so throws {@link IllegalStateException}); use {@code
 * thenApplyAsync(fn, executor)} for heavy work. Argument errors (null, oversized) throw at once
 * from every method; store errors (closed, failed, queue full, engine errors) are thrown by sync
 * methods and delivered through the future or callback by async ones.
 *
 * <h2>Ordered reads</h2>
 * {@link #scan}, {@link #range}, their async variants and the iterators ({@link #iterator}, {@link
 * #reverseIterator}, {@link #prefixIterator}) return pairs in unsigned byte order of keys
 * (descending for a reverse iterator), each key at most once, all within the bounds: start
 * inclusive, end exclusive, {@code null} for open-ended. A start at or after the end gives nothing.
 * Keys are hash-partitioned, so every ordered read asks every shard and merges their sorted parts
 * (p2KVS section 4.4); a store created with {@link Builder#rangePartitioning} asks only the shards
 * the range overlaps, one after the other. While writes run, an ordered read guarantees:
 *
 * <ul>
 *   <li><b>Per shard, one point in time.</b> Everything read from one shard comes from one view of
 *       that shard (a RocksDB iterator and its implicit snapshot): each write to that shard, a
 *       single-shard {@link Batch} included, is wholly in or wholly out of the view, and no key
 *       appears twice or in two versions.
 *   <li><b>Across shards, views taken together, not atomically.</b> The views of all shards are
 *       taken one after another at the start of the read, before it returns anything: by the sync
 *       methods during the call, by an iterator while {@link #iterator} runs ({@link
 *       KvIterator#seek} reuses them), by reads on the workers when each shard's worker reaches
 *       the read. Every write completed before the call is visible (a thread reads its own completed
 *       writes); no write issued after the read returned (after the iterator was created) is.
 *       A write running concurrently with the call may be visible on one shard and not on another:
 *       of two writes to different shards issued one after the other while a read starts, the
 *       read may see the second and miss the first, and a cross-shard {@link Batch} in flight
 *       may be seen on some shards only (see "Atomic batches"). A single point in time across all
 *       shards is what a {@link #snapshot()} offers.
 *   <li><b>Reads on the workers and queued writes.</b> Each shard's part of {@link #scanAsync},
 *       {@link #rangeAsync} or {@link #range(byte[], byte[])} runs on the shard's worker after the
 *       requests queued before it, so it also sees the caller's own earlier async writes to that
 *       shard even if their futures have not completed yet.
 * </ul>
 *
 * {@link #scan}, {@link #range(byte[], byte[], int)} and the iterators read on the calling thread,
 * incrementally: a {@code scan(start, n)} reads n pairs plus at most one per shard, and an
 * iterator holds at most one pair per shard in memory. A limit of {@code Integer.MAX_VALUE} means
 * none: such a scan or range reads as {@link #range(byte[], byte[])} does (below). Close every iterator: it holds a RocksDB
 * iterator per shard; one dropped open is reclaimed only after the garbage collector finds it,
 * and counted as a leak ({@link KvIterator}, "Life cycle"). {@link #range(byte[], byte[])} (no limit)
 * and the async methods fan out to the shards' workers, which read in parallel, each up to the
 * limit, and merge the parts; each shard's part then runs after the requests queued before it on
 * that shard, as described above.
 *
 * <h2>Consistent cuts</h2>
 * {@link #snapshot()}, {@link #checkpoint(Path)} and {@link #backup(Path)} read or copy the store
 * at a <em>consistent cut</em>: one instant across all shards, with these guarantees.
 *
 * <ul>
 *   <li>Every cross-shard {@link Batch} is in the cut entirely or not at all.
 *   <li>Every write that completed before the call was made is in the cut.
 *   <li>If a write W2 was issued after a write W1 completed, and W2 is in the cut, W1 is in it too,
 *       whatever their shards: nothing in a cut shows an effect without its cause.
 * </ul>
 *
 * How: the call queues a barrier on every shard, under the lock that orders cross-shard batches
 * (so each batch is wholly ahead of the barriers or wholly behind them). Each shard's worker stops
 * at its barrier, finishing any batch ahead of it first, and waits until every worker has reached
 * its own: at that instant each shard holds exactly the writes queued before its barrier. Then each
 * worker takes its RocksDB snapshot (or fixes the files and log sizes of its checkpoint) and goes
 * on. A shard's writers therefore wait from the moment its worker reaches the barrier until the
 * last worker has, plus that step; {@link StoreStats#cuts()} counts that hold time, and
 * docs/benchmarks/RESULTS.md measures it. Copying (checkpoint, backup) happens after, with the
 * workers running.
 *
 * <h2>Errors</h2>
 * All store errors extend {@link P2kvException}: {@link StoreClosedException}, {@link
 * StoreFailedException}, {@link ShardFailedException}, {@link QueueFullException}, {@link
 * StoreLockedException}, {@link ManifestMismatchException}, {@link StoreCorruptedException}.
 * {@link #health()} tells open, failed and closed apart without an exception; the README's
 * "Failure and recovery" says what each failure does to the store and what to do.
 */
public final class P2kv implements AutoCloseable {
  /** The longest key, in bytes. */
  public static final int MAX_KEY_BYTES = 65_535;

  /** The longest value, in bytes (64 MiB). */
  public static final int MAX_VALUE_BYTES = 64 << 20;

  /**
   * The most key and value bytes one {@link #write(Batch)} (or {@link #writeAsync(Batch)}) takes
   * (256 MiB): a shard's worker encodes the batch for RocksDB on its own heap, in copies of a
   * few times its size, so a larger one could run the worker out of memory and fail the store for
   * every caller. Larger imports go through {@link #load(Batch)} or {@link #loadSorted}, which
   * write table files instead. A batch across shards keeps the old values of its keys until it
   * commits (its rollback): one whose old values on a shard exceed this fails with {@link
   * IllegalArgumentException} too, and writes nothing.
   */
  public static final long MAX_BATCH_BYTES = 256L << 20;

  private final StoreCore core;
  /** The merge operators declared at open, by name (immutable). */
  private final Map<String, MergeOperator> mergeOperators;

  private P2kv(StoreCore core, Map<String, MergeOperator> mergeOperators) {
    this.core = core;
    this.mergeOperators = mergeOperators;
  }

  /**
   * A builder with the defaults.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  // ------------------------------------------------------------------------ sync

  /**
   * Stores a value, replacing any previous one.
   *
   * @param key the key
   * @param value the value
   * @throws NullPointerException if key or value is null
   * @throws IllegalArgumentException if key or value is too long
   * @throws P2kvException if the store is closed or failed, the queue is full (fail-fast mode) or
   *     the shard's engine failed the write
   */
  public void put(byte[] key, byte[] value) {
    Limits.checkKey(key);
    Limits.checkValue(value);
    core.put(key, value);
  }

  /**
   * Reads a value.
   *
   * @param key the key
   * @return the value, or null if the key is absent
   * @throws NullPointerException if key is null
   * @throws IllegalArgumentException if key is too long
   * @throws P2kvException as for {@link #put}
   */
  public byte[] get(byte[] key) {
    Limits.checkKey(key);
    return core.get(key);
  }

  /**
   * Removes a key; removing an absent key is not an error.
   *
   * @param key the key
   * @throws NullPointerException if key is null
   * @throws IllegalArgumentException if key is too long
   * @throws P2kvException as for {@link #put}
   */
  public void delete(byte[] key) {
    Limits.checkKey(key);
    core.delete(key);
  }

  /**
   * Deletes every key in {@code [fromInclusive, toExclusive)} (unsigned byte order), whatever their
   * number, at the cost of a few writes: each shard whose keys may fall in the range (every shard
   * under hash partitioning, the overlapping ones under {@link Builder#rangePartitioning}) writes
   * one RocksDB range tombstone ({@code DeleteRange}), durable as any write under the store's
   * {@link Durability}. Equal bounds delete nothing.
   *
   * <ul>
   *   <li><b>Order.</b> On each shard the range delete applies in queue order with the other
   *       writes: a write of a key in the range that completed before this call is deleted, one
   *       issued after this call returned is kept. Writes running concurrently with the call may
   *       land on either side of it.
   *   <li><b>Across shards.</b> Not atomic for live readers: until the call returns, a reader may
   *       find the range deleted on one shard and not yet on another. Every cross-shard {@link
   *       Batch} and every consistent cut is ordered wholly before or wholly after it, on all
   *       shards: a {@link #snapshot()}, checkpoint or backup holds the range delete on every
   *       shard or on none, and sees no batch half deleted.
   *   <li><b>Failures.</b> If a shard fails its part, the others' parts stay applied and this
   *       throws; a range delete is idempotent, so repeat it. After a crash each shard has its
   *       part or not, as for other writes under the store's {@link Durability}.
   *   <li><b>Not in a {@link Batch}.</b> An atomic batch across shards is rolled back from undo
   *       records of the old values, which for a range would be every key in it. To make a range
   *       delete and other writes crash-safe together, order them: delete the range first, then
   *       write a record that says it is done; after a crash, repeat the delete if the record is
   *       missing.
   *   <li><b>Cost.</b> The call waits for one write per shard involved. Reads of the range stay
   *       correct at once and its space is reclaimed by later compactions; many range tombstones
   *       over live data slow reads until then, so delete large ranges, not single keys. With a
   *       value cache, each shard also removes the range's cached keys (one pass over the cache).
   * </ul>
   *
   * @param fromInclusive the first key deleted
   * @param toExclusive the first key after the range
   * @throws NullPointerException if a bound is null (there are no open-ended range deletes)
   * @throws IllegalArgumentException if a bound is longer than {@link #MAX_KEY_BYTES}, or {@code
   *     fromInclusive} is after {@code toExclusive}
   * @throws P2kvException as for {@link #put}
   */
  public void deleteRange(byte[] fromInclusive, byte[] toExclusive) {
    Limits.checkRange(fromInclusive, toExclusive);
    core.deleteRange(fromInclusive, toExclusive);
  }

  /**
   * Reads many keys. Keys are split by shard and read with one engine multiGet per shard and run
   * of at most {@code maxBatch} keys. Each shard's part is consistent in itself; parts on
   * different shards are read independently.
   *
   * @param keys the keys (duplicates allowed)
   * @return a new mutable list of values in the order of {@code keys}, null where absent
   * @throws NullPointerException if the list or a key is null
   * @throws IllegalArgumentException if a key is too long
   * @throws P2kvException as for {@link #put}
   */
  public List<byte[]> multiGet(List<byte[]> keys) {
    checkKeys(keys);
    return core.multiGet(keys);
  }

  /**
   * Applies a batch atomically: all of its operations or none, in order (a later operation on the
   * same key wins), on one shard or across shards; see "Atomic batches" above.
   *
   * @param batch the batch
   * @throws NullPointerException if batch is null
   * @throws IllegalArgumentException if the batch holds more than {@link #MAX_BATCH_BYTES} of keys and values
   * @throws P2kvException as for {@link #put}; a cross-shard batch that fails on any shard is
   *     rolled back on all of them before this throws
   */
  public void write(Batch batch) {
    Objects.requireNonNull(batch, "batch is null");
    Limits.checkBatch(batch.payloadBytes());
    core.write(batch, batch.payloadBytes(), null);
  }

  /**
   * Applies a batch atomically as {@link #write(Batch)} does, with its own durability instead of
   * the store's {@link Builder#durability}: {@link Durability#SYNC} to fsync one important batch in
   * a store that does not, or {@link Durability#NO_WAL} for a bulk load that can be redone (a
   * restore from another source of truth), which skips the write-ahead log as RocksDB's {@code
   * disableWAL} does.
   *
   * <p><b>A batch written without the log is lost on a crash until a {@link #flush()} called after
   * it completed returns</b>
   * (a clean {@link #close()} flushes it too), and a crash may keep later logged writes while
   * losing it, on its own shards or across shards. So use it only for data whose loss the
   * application detects and repairs: write the bulk, call {@link #flush()}, and only then record
   * (with a logged write) that the bulk is in. Such a batch is written in a run of its own (it is
   * never merged with logged writes); checkpoints and backups flush the shards it wrote before they
   * copy them, so they include it.
   *
   * <p>On a store whose durability is {@link Durability#SYNC} a {@code NO_WAL} batch is written to
   * the log, without an fsync: such a store recycles its log files, and RocksDB refuses writes
   * without the log there. It is then as durable as a {@link Durability#WAL} write.
   *
   * @param batch the batch
   * @param durability this batch's durability
   * @throws NullPointerException if batch or durability is null
   * @throws IllegalArgumentException if the batch holds more than {@link #MAX_BATCH_BYTES} of keys and values
   * @throws P2kvException as for {@link #write(Batch)}
   */
  public void write(Batch batch, Durability durability) {
    Objects.requireNonNull(batch, "batch is null");
    Objects.requireNonNull(durability, "durability is null");
    Limits.checkBatch(batch.payloadBytes());
    core.write(batch, batch.payloadBytes(), durability);
  }

  /**
   * Bulk-loads a batch: writes its operations as sorted table files, one per shard, and adds each
   * to its shard whole (RocksDB's {@code SstFileWriter} and {@code IngestExternalFile}), without
   * the write-ahead log or the memtable. For large batches of data arriving at once (an import, a
   * restore from another store): the caller's thread sorts and encodes the batch, and each shard's
   * worker only links a file in, so a load of many thousands of pairs costs the workers almost
   * nothing and fills no memtable. Below about 2,000 pairs {@link #write(Batch)} is cheaper: each
   * load costs each shard a file and a MANIFEST update, and small files cost compactions
   * (measured in docs/benchmarks/BULK-LOAD.md: 0.69x of a write at 1,024 pairs, 1.7x at 4,096,
   * 3.5x at 32,768).
   *
   * <ul>
   *   <li><b>Order.</b> Of two writes of one key in the batch, the later one is kept. On each shard
   *       the load applies after every request queued before the call and before every request
   *       queued after it returns; reads, snapshots and iterators see each shard's part whole or
   *       not at all.
   *   <li><b>Durable on return</b>, whatever the store's {@link Builder#durability}: the files are
   *       synced and recorded in each shard's MANIFEST.
   *   <li><b>Atomic per shard, not across shards</b>: a load that fails on one shard (the call then
   *       throws) or a crash during the call may leave other shards' parts applied. Repeating the
   *       load completes it; an application that needs to know records, with a write after the
   *       call returned, that the load is in.
   *   <li><b>Values stay inline</b> in the loaded files whatever the value-separation policy; a
   *       later compaction of the files applies the policy.
   *   <li>A load whose keys overlap recent writes still in the memtable makes RocksDB flush the
   *       memtable first; one that overlaps older data lands higher in the LSM-tree than one into
   *       an empty key range, and is merged down by compaction. With a value cache, each shard
   *       drops the cached keys of its part's key range (one pass over the cache).
   * </ul>
   *
   * @param batch the batch; the store does not keep it
   * @throws NullPointerException if batch is null
   * @throws P2kvException as for {@link #put}, or if a shard fails to write or ingest its file
   */
  public void load(Batch batch) {
    Objects.requireNonNull(batch, "batch is null");
    core.load(batch);
  }

  /**
   * Bulk-loads operations that come in ascending unsigned key order, as {@link #load} does, without
   * holding them: each operation goes into its shard's table file as the iterator yields it, so
   * the input may be larger than the heap, and the garbage collector sees each operation only
   * briefly. For data sorted already (an export of a sorted store, the output of an external
   * sort), or sorted by the caller in a compact form of its own: {@link #load} holds a whole batch
   * of {@link Batch.Op}s, which a load of millions of pairs keeps alive long enough for the
   * collector to copy and promote (p2kv's Kafka Streams store restores through this method for that
   * reason; docs/benchmarks/KAFKA-STREAMS.md).
   *
   * <p>Keys must not decrease. Of adjacent operations on one key the last is kept, as in {@link
   * #load}. Otherwise it behaves as {@link #load}: ordered against the requests queued before and
   * after it, durable on return, atomic per shard and not across shards, values inline. Until every
   * file is written, the call holds each shard it has written to open: {@link #close} waits for it.
   *
   * @param ops the operations, ascending by key; the store keeps none of them
   * @throws NullPointerException if ops is null, or yields null
   * @throws IllegalArgumentException if a key is below the key before it, or a key or value is too
   *     long; nothing is loaded
   * @throws IllegalStateException if called from a worker thread (a callback or an update function)
   * @throws P2kvException as for {@link #load}; if the iterator throws, that exception propagates
   *     and nothing is loaded
   */
  public void loadSorted(Iterator<Batch.Op> ops) {
    Objects.requireNonNull(ops, "ops is null");
    core.loadSorted(new Iterator<>() {
      @Override
      public boolean hasNext() {
        return ops.hasNext();
      }

      @Override
      public Batch.Op next() {
        Batch.Op op = Objects.requireNonNull(ops.next(), "ops yielded a null operation");
        Limits.checkKey(op.key());
        if (!op.isDelete()) {
          Limits.checkValue(op.value());
        }
        return op;
      }
    });
  }

  // ------------------------------------------------------------------------ updates

  /**
   * Replaces a key's value with {@code fn} of it, atomically: no other write of the key comes
   * between the read and the write, and no lock is taken (see "Updates" above, which also says
   * what the function may and must not do). Like {@link
   * java.util.concurrent.ConcurrentMap#compute}, without the key argument.
   *
   * @param key the key
   * @param fn maps the current value (null if absent; the function's own copy) to the new value
   *     (null deletes the key); short, and must not call the store
   * @return the new value (the array {@code fn} returned), or null if the key is now absent
   * @throws NullPointerException if key or fn is null
   * @throws IllegalArgumentException if key is too long
   * @throws UpdateFunctionException if fn threw (the cause) or returned a value longer than {@link
   *     #MAX_VALUE_BYTES}; nothing was written
   * @throws IllegalStateException if called from a worker thread (a callback or an update function)
   * @throws P2kvException as for {@link #put}
   */
  public byte[] update(byte[] key, UnaryOperator<byte[]> fn) {
    Limits.checkKey(key);
    Objects.requireNonNull(fn, "fn is null");
    return core.update(key, fn, 0);
  }

  /**
   * Async {@link #update}.
   *
   * @param key the key
   * @param fn the function, as for {@link #update}
   * @return completes on the worker thread with the new value (null if the key is now absent), or
   *     exceptionally as {@link #update} throws
   */
  public CompletableFuture<byte[]> updateAsync(byte[] key, UnaryOperator<byte[]> fn) {
    Limits.checkKey(key);
    Objects.requireNonNull(fn, "fn is null");
    return core.updateAsync(key, fn, 0);
  }

  /**
   * Folds {@code operand} into a key's value with a merge operator declared at open ({@link
   * Builder#mergeOperator}): an {@link #update} whose function is {@code existing ->
   * operator.merge(existing, operand)}, with the same atomicity and rules. The order of arguments
   * is {@link java.util.concurrent.ConcurrentMap#merge}'s; unlike it, the operator is also called
   * for an absent key (with null).
   *
   * <p>Operators are applied when the merge executes and the result is stored as a plain value, so
   * nothing on disk refers to an operator and a store can be reopened with other operators or
   * none; a merge names one declared in this open.
   *
   * @param key the key
   * @param operand the operand
   * @param operator the name the operator was declared with
   * @return the new value, or null if the operator deleted the key
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if key or operand is too long, or no operator of that name
   *     was declared when this store was opened
   * @throws UpdateFunctionException if the operator threw (the cause) or returned a value longer
   *     than {@link #MAX_VALUE_BYTES}; nothing was written
   * @throws P2kvException as for {@link #put}
   */
  public byte[] merge(byte[] key, byte[] operand, String operator) {
    Limits.checkKey(key);
    Limits.checkValue(operand);
    return core.update(key, merging(operand, operator), operand.length);
  }

  /**
   * Async {@link #merge}.
   *
   * @param key the key
   * @param operand the operand
   * @param operator the name the operator was declared with
   * @return completes on the worker thread with the new value, or exceptionally as {@link #merge}
   *     throws
   * @throws IllegalArgumentException (at once) for an operator not declared at open
   */
  public CompletableFuture<byte[]> mergeAsync(byte[] key, byte[] operand, String operator) {
    Limits.checkKey(key);
    Limits.checkValue(operand);
    return core.updateAsync(key, merging(operand, operator), operand.length);
  }

  private UnaryOperator<byte[]> merging(byte[] operand, String name) {
    Objects.requireNonNull(name, "operator is null");
    MergeOperator op = mergeOperators.get(name);
    if (op == null) {
      throw new IllegalArgumentException(
          "no merge operator named \"" + name + "\" was declared when store " + core.dir()
              + " was opened (Builder.mergeOperator); declared: " + mergeOperators.keySet());
    }
    return existing -> op.merge(existing, operand);
  }

  /**
   * Adds {@code delta} to the counter at {@code key}, atomically (see "Updates" above), and returns
   * the sum. A counter is stored as 8 bytes, a big-endian two's-complement signed long ({@code
   * ByteBuffer.allocate(8).putLong(v).array()}; read one back with {@code
   * ByteBuffer.wrap(store.get(key)).getLong()}); an absent key counts as 0 and is created.
   *
   * @param key the key
   * @param delta the amount to add, negative to subtract, 0 to read (which still writes)
   * @return the counter's new value
   * @throws NullPointerException if key is null
   * @throws IllegalArgumentException if key is too long
   * @throws IllegalStateException if the key holds a value that is not 8 bytes (nothing is written)
   * @throws ArithmeticException if the sum overflows a long (nothing is written)
   * @throws P2kvException as for {@link #put}
   */
  public long increment(byte[] key, long delta) {
    Limits.checkKey(key);
    return core.increment(key, delta);
  }

  /**
   * Async {@link #increment}.
   *
   * @param key the key
   * @param delta the amount to add
   * @return completes on the worker thread with the counter's new value, or exceptionally as
   *     {@link #increment} throws
   */
  public CompletableFuture<Long> incrementAsync(byte[] key, long delta) {
    Limits.checkKey(key);
    return core.incrementAsync(key, delta);
  }

  // ------------------------------------------------------------------------ ordered reads

  /**
   * Reads up to {@code limit} pairs with key {@code >= startKey}, in key order. See "Ordered
   * reads" above for what it sees while writes run.
   *
   * @param startKey the smallest key to return, or null to start at the first key
   * @param limit most pairs to return; 0 returns an empty list
   * @return a new mutable list in unsigned key order
   * @throws IllegalArgumentException if limit is negative or startKey is too long
   * @throws P2kvException if the store is closed or failed, or a shard's engine failed
   */
  public List<KeyValue> scan(byte[] startKey, int limit) {
    checkBound(startKey);
    checkLimit(limit);
    return core.range(startKey, null, limit);
  }

  /**
   * Reads every pair with key in {@code [startInclusive, endExclusive)}, in key order. Each shard's
   * worker reads its part in parallel, while other requests to that shard wait behind it, and the
   * whole range is held in memory: use {@link #iterator} for ranges of unknown size.
   *
   * @param startInclusive the smallest key, or null for no lower bound
   * @param endExclusive the first key after the range, or null for no upper bound
   * @return a new mutable list in unsigned key order; empty if start is at or after end
   * @throws IllegalArgumentException if a bound is too long
   * @throws P2kvException if the store is closed or failed, or a shard's engine failed
   */
  public List<KeyValue> range(byte[] startInclusive, byte[] endExclusive) {
    return range(startInclusive, endExclusive, Integer.MAX_VALUE);
  }

  /**
   * Reads up to {@code limit} pairs with key in {@code [startInclusive, endExclusive)}, the
   * smallest keys first.
   *
   * @param startInclusive the smallest key, or null for no lower bound
   * @param endExclusive the first key after the range, or null for no upper bound
   * @param limit most pairs to return; 0 returns an empty list
   * @return a new mutable list in unsigned key order; empty if start is at or after end
   * @throws IllegalArgumentException if limit is negative or a bound is too long
   * @throws P2kvException if the store is closed or failed, or a shard's engine failed
   */
  public List<KeyValue> range(byte[] startInclusive, byte[] endExclusive, int limit) {
    checkBound(startInclusive);
    checkBound(endExclusive);
    checkLimit(limit);
    return core.range(startInclusive, endExclusive, limit);
  }

  /**
   * A forward streaming iterator over {@code [startInclusive, endExclusive)}; close it.
   *
   * @param startInclusive the smallest key, or null for no lower bound
   * @param endExclusive the first key after the range, or null for no upper bound
   * @return an open iterator, positioned before the smallest key of the range
   * @throws IllegalArgumentException if a bound is too long
   * @throws P2kvException if the store is closed or failed, or a shard's engine failed
   */
  public KvIterator iterator(byte[] startInclusive, byte[] endExclusive) {
    checkBound(startInclusive);
    checkBound(endExclusive);
    return kvIterator(core.openIterator(startInclusive, endExclusive, false));
  }

  /**
   * A reverse streaming iterator over {@code [startInclusive, endExclusive)}: from the largest key
   * below {@code endExclusive} down to {@code startInclusive}; close it.
   *
   * @param startInclusive the smallest key, or null for no lower bound
   * @param endExclusive the first key after the range, or null for no upper bound
   * @return an open iterator, positioned after the largest key of the range
   * @throws IllegalArgumentException if a bound is too long
   * @throws P2kvException if the store is closed or failed, or a shard's engine failed
   */
  public KvIterator reverseIterator(byte[] startInclusive, byte[] endExclusive) {
    checkBound(startInclusive);
    checkBound(endExclusive);
    return kvIterator(core.openIterator(startInclusive, endExclusive, true));
  }

  /**
   * A forward streaming iterator over the keys that start with {@code prefix}; close it. The empty
   * prefix iterates over every key.
   *
   * @param prefix the prefix
   * @return an open iterator
   * @throws NullPointerException if prefix is null
   * @throws IllegalArgumentException if prefix is too long
   * @throws P2kvException if the store is closed or failed, or a shard's engine failed
   */
  public KvIterator prefixIterator(byte[] prefix) {
    Limits.checkKey(prefix);
    return kvIterator(core.openIterator(prefix.length == 0 ? null : prefix, prefixEnd(prefix), false));
  }

  /** The smallest key greater than every key starting with prefix, or null if there is none. */
  static byte[] prefixEnd(byte[] prefix) {
    for (int i = prefix.length - 1; i >= 0; i--) {
      if (prefix[i] != (byte) 0xFF) {
        byte[] end = java.util.Arrays.copyOf(prefix, i + 1);
        end[i]++;
        return end;
      }
    }
    return null;
  }

  /** {@link Batch#sortByKey}'s sort: the API's files other than this one name no internal type. */
  static Batch.Op[] sortByKey(Batch.Op[] ops) {
    return KeyOrder.sort(ops);
  }

  static void checkBound(byte[] bound) {
    if (bound != null) {
      Limits.checkKey(bound);
    }
  }

  static void checkLimit(int limit) {
    if (limit < 0) {
      throw new IllegalArgumentException("limit must not be negative: " + limit);
    }
  }

  // ------------------------------------------------------------------------ consistent cuts

  /**
   * A consistent, read-only view of the whole store, across all shards, at one instant (see
   * "Consistent cuts" above); close it. Every read of the snapshot sees the same cut.
   *
   * @return the open snapshot
   * @throws IllegalStateException if called on a worker thread (a callback)
   * @throws P2kvException if the store is closed or failed, a queue is full (fail-fast mode), or a
   *     shard's engine failed
   */
  public Snapshot snapshot() {
    StoreSnapshot s = core.snapshot();
    return new Snapshot(
        new Snapshot.Reads() {
          @Override
          public byte[] get(byte[] key) {
            return s.get(key);
          }

          @Override
          public List<byte[]> multiGet(List<byte[]> keys) {
            return s.multiGet(keys);
          }

          @Override
          public List<KeyValue> range(byte[] lower, byte[] upper, int limit) {
            return s.range(lower, upper, limit);
          }

          @Override
          public KvIterator iterator(byte[] lower, byte[] upper, boolean reverse) {
            return kvIterator(s.openIterator(lower, upper, reverse));
          }

          @Override
          public void close() {
            s.close();
          }
        });
  }

  /**
   * Writes a consistent copy of the whole store, while it runs, into {@code target}: a complete
   * store that {@link Builder#open} opens (MANIFEST, every shard, the cross-shard batch metadata),
   * holding exactly the store's state at one consistent cut (see "Consistent cuts"). Each shard
   * is a RocksDB checkpoint: its files are hard-linked where the file system allows (the target on
   * the same file system as the store), so a checkpoint costs little space and time until the
   * store's compactions replace the shared files. Every shard is flushed first; at the cut each
   * worker only notes which files and which prefix of its write-ahead log make its state (no
   * copying; a store with {@link Durability#NO_WAL} flushes there, as no log holds its writes);
   * the links and copies are made after, with the workers running.
   *
   * <p>A crash or failure in the middle leaves the store untouched and the target marked
   * incomplete (an {@code INCOMPLETE} file): opening it fails with {@link
   * StoreCorruptedException}; delete it and take the checkpoint again. A failed checkpoint
   * deletes what it wrote.
   *
   * @param target absent or an empty directory, outside the store's directory
   * @throws NullPointerException if target is null
   * @throws IllegalArgumentException if target is a file, a non-empty directory or inside the store
   * @throws IllegalStateException if called on a worker thread (a callback)
   * @throws P2kvException if the store is closed or failed, a queue is full (fail-fast mode), or
   *     writing the copy failed
   */
  public void checkpoint(Path target) {
    Objects.requireNonNull(target, "target is null");
    core.checkpoint(target);
  }

  /**
   * Adds a consistent, incremental backup of the store, while it runs, to {@code backupDir}: the
   * store at one consistent cut (see "Consistent cuts"), as a checkpoint taken inside the store's
   * directory (hard links) and then copied into the backup directory without holding the workers.
   * Only files no earlier backup of this store has are copied (RocksDB's table and blob files never
   * change once written), each with a CRC32C checksum. A backup exists once its file list is
   * published, atomically, after every file is synced: a crash in the middle leaves the earlier
   * backups intact and its own leftovers, which the next backup removes. One operation at a time
   * per backup directory (a lock file; others fail at once), and one backup at a time per store
   * (another waits for it).
   *
   * @param backupDir the backup directory, created if absent; keep it off the store's disk
   * @return the new backup
   * @throws IllegalStateException if called on a worker thread (a callback)
   * @throws P2kvException if the store is closed or failed, the directory is in use, or copying
   *     failed
   */
  public BackupInfo backup(Path backupDir) {
    Objects.requireNonNull(backupDir, "backupDir is null");
    return core.backup(backupDir);
  }

  /**
   * The backups in a backup directory, oldest first. Needs no open store.
   *
   * @param backupDir the backup directory
   * @return the backups, empty if there are none
   * @throws StoreCorruptedException if a backup's file list is damaged
   */
  public static List<BackupInfo> listBackups(Path backupDir) {
    Objects.requireNonNull(backupDir, "backupDir is null");
    return Backups.list(backupDir.toAbsolutePath().normalize());
  }

  /**
   * Retention: deletes all but the newest {@code keep} backups, and the files only they used.
   * Needs no open store.
   *
   * @param backupDir the backup directory
   * @param keep how many to keep, at least 1
   * @return the ids of the deleted backups
   * @throws IllegalArgumentException if keep is less than 1 or the directory does not exist
   * @throws P2kvException if the directory is in use or cannot be changed
   */
  public static List<Long> keepLastBackups(Path backupDir, int keep) {
    Objects.requireNonNull(backupDir, "backupDir is null");
    return Backups.keepLast(backupDir.toAbsolutePath().normalize(), keep);
  }

  /**
   * Reads every file of a backup and checks its size and CRC32C checksum. Needs no open store.
   *
   * @param backupDir the backup directory
   * @param id the backup
   * @return the backup, if it is whole
   * @throws IllegalArgumentException if there is no such backup
   * @throws StoreCorruptedException naming the first file that is missing or damaged
   */
  public static BackupInfo verifyBackup(Path backupDir, long id) {
    Objects.requireNonNull(backupDir, "backupDir is null");
    return Backups.verify(backupDir.toAbsolutePath().normalize(), id);
  }

  /**
   * Restores a backup as a new store in {@code target}, checking every file's checksum as it is
   * copied; then {@link Builder#open} opens it. Until the restore has finished the target is
   * marked incomplete, so an interrupted restore is refused by {@code open} ({@link
   * StoreCorruptedException}) instead of opening as a partial store. Needs no open store.
   *
   * @param backupDir the backup directory
   * @param id the backup to restore (see {@link #listBackups})
   * @param target absent or an empty directory
   * @return the backup restored
   * @throws IllegalArgumentException if there is no such backup, or target is not empty
   * @throws StoreCorruptedException if a file of the backup is damaged (nothing is left in target)
   */
  public static BackupInfo restore(Path backupDir, long id, Path target) {
    Objects.requireNonNull(backupDir, "backupDir is null");
    Objects.requireNonNull(target, "target is null");
    if (id < 1) {
      throw new IllegalArgumentException("backup ids start at 1: " + id);
    }
    return Backups.restore(backupDir.toAbsolutePath().normalize(), id, target);
  }

  /**
   * Restores the newest backup of a backup directory; see {@link #restore(Path, long, Path)}.
   *
   * @param backupDir the backup directory
   * @param target absent or an empty directory
   * @return the backup restored
   * @throws IllegalArgumentException if the directory has no backup, or target is not empty
   * @throws StoreCorruptedException if a file of the backup is damaged
   */
  public static BackupInfo restoreLatest(Path backupDir, Path target) {
    Objects.requireNonNull(backupDir, "backupDir is null");
    Objects.requireNonNull(target, "target is null");
    return Backups.restore(backupDir.toAbsolutePath().normalize(), 0, target);
  }

  // ------------------------------------------------------------------------ async

  /**
   * Async {@link #put}.
   *
   * @param key the key
   * @param value the value
   * @return completes on the worker thread once the put is applied
   */
  public CompletableFuture<Void> putAsync(byte[] key, byte[] value) {
    Limits.checkKey(key);
    Limits.checkValue(value);
    return core.putAsync(key, value);
  }

  /**
   * Async {@link #put} with a callback instead of a future: no future is allocated and completed,
   * the cheapest way to keep many writes in flight.
   *
   * @param key the key
   * @param value the value
   * @param callback called exactly once, in the shard's worker role (the worker thread, or a sync
   *     caller's thread executing the worker's queue; on this caller's thread if the request could
   *     not be enqueued), with {@code (null, null)} on success or {@code (null,
   *     error)}; exceptions it throws are logged and ignored
   */
  public void putAsync(byte[] key, byte[] value, BiConsumer<? super Void, ? super Throwable> callback) {
    Limits.checkKey(key);
    Limits.checkValue(value);
    Objects.requireNonNull(callback, "callback is null");
    core.putAsync(key, value, callback);
  }

  /**
   * Async {@link #get}.
   *
   * @param key the key
   * @return the value or null
   */
  public CompletableFuture<byte[]> getAsync(byte[] key) {
    Limits.checkKey(key);
    return core.getAsync(key);
  }

  /**
   * Async {@link #get} with a callback.
   *
   * @param key the key
   * @param callback called exactly once with {@code (value-or-null, null)} or {@code (null,
   *     error)}, on the worker thread, or on the caller's thread for the direct read path
   */
  public void getAsync(byte[] key, BiConsumer<? super byte[], ? super Throwable> callback) {
    Limits.checkKey(key);
    Objects.requireNonNull(callback, "callback is null");
    core.getAsync(key, callback);
  }

  /**
   * Async {@link #delete}.
   *
   * @param key the key
   * @return completes once the delete is applied
   */
  public CompletableFuture<Void> deleteAsync(byte[] key) {
    Limits.checkKey(key);
    return core.deleteAsync(key);
  }

  /**
   * Async {@link #deleteRange}: returns once every shard's part is queued.
   *
   * @param fromInclusive the first key deleted
   * @param toExclusive the first key after the range
   * @return completes once every shard has applied its part, or exceptionally with the first
   *     failure once every part has completed
   * @throws NullPointerException if a bound is null
   * @throws IllegalArgumentException if a bound is too long, or {@code fromInclusive} is after
   *     {@code toExclusive}
   */
  public CompletableFuture<Void> deleteRangeAsync(byte[] fromInclusive, byte[] toExclusive) {
    Limits.checkRange(fromInclusive, toExclusive);
    return core.deleteRangeAsync(fromInclusive, toExclusive);
  }

  /**
   * Async {@link #multiGet}.
   *
   * @param keys the keys
   * @return the values in the order of {@code keys}
   */
  public CompletableFuture<List<byte[]>> multiGetAsync(List<byte[]> keys) {
    checkKeys(keys);
    return core.multiGetAsync(keys);
  }

  /**
   * Async {@link #write(Batch)}. The batch's operations are copied, so the batch may be reused
   * once this returns (the key and value arrays must still not be modified until completion).
   *
   * @param batch the batch
   * @return completes once the batch is applied, or exceptionally once it is rolled back
   * @throws IllegalArgumentException if the batch holds more than {@link #MAX_BATCH_BYTES} of keys and values
   */
  public CompletableFuture<Void> writeAsync(Batch batch) {
    Objects.requireNonNull(batch, "batch is null");
    Limits.checkBatch(batch.payloadBytes());
    return core.writeAsync(batch, batch.payloadBytes(), null);
  }

  /**
   * Async {@link #write(Batch, Durability)}. The batch's operations are copied, as for {@link
   * #writeAsync(Batch)}.
   *
   * @param batch the batch
   * @param durability this batch's durability
   * @return completes once the batch is applied, or exceptionally once it is rolled back
   * @throws NullPointerException if batch or durability is null
   * @throws IllegalArgumentException if the batch holds more than {@link #MAX_BATCH_BYTES} of keys and values
   */
  public CompletableFuture<Void> writeAsync(Batch batch, Durability durability) {
    Objects.requireNonNull(batch, "batch is null");
    Objects.requireNonNull(durability, "durability is null");
    Limits.checkBatch(batch.payloadBytes());
    return core.writeAsync(batch, batch.payloadBytes(), durability);
  }

  /**
   * Async {@link #scan}: each shard's worker reads up to {@code limit} pairs, in parallel; the
   * parts are merged on the worker that answers last.
   *
   * @param startKey the smallest key to return, or null
   * @param limit most pairs to return
   * @return completes with a new mutable list in unsigned key order
   * @throws IllegalArgumentException if limit is negative or startKey is too long
   */
  public CompletableFuture<List<KeyValue>> scanAsync(byte[] startKey, int limit) {
    checkBound(startKey);
    checkLimit(limit);
    return core.rangeAsync(startKey, null, limit);
  }

  /**
   * Async {@link #range(byte[], byte[])}. Each shard's worker reads its whole part of the range
   * while other requests to that shard wait behind it: for large ranges prefer {@link #iterator},
   * which reads on the calling thread and holds one pair per shard.
   *
   * @param startInclusive the smallest key, or null
   * @param endExclusive the first key after the range, or null
   * @return completes with a new mutable list in unsigned key order
   * @throws IllegalArgumentException if a bound is too long
   */
  public CompletableFuture<List<KeyValue>> rangeAsync(byte[] startInclusive, byte[] endExclusive) {
    return rangeAsync(startInclusive, endExclusive, Integer.MAX_VALUE);
  }

  /**
   * Async {@link #range(byte[], byte[], int)}.
   *
   * @param startInclusive the smallest key, or null
   * @param endExclusive the first key after the range, or null
   * @param limit most pairs to return
   * @return completes with a new mutable list in unsigned key order
   * @throws IllegalArgumentException if limit is negative or a bound is too long
   */
  public CompletableFuture<List<KeyValue>> rangeAsync(byte[] startInclusive, byte[] endExclusive, int limit) {
    checkBound(startInclusive);
    checkBound(endExclusive);
    checkLimit(limit);
    return core.rangeAsync(startInclusive, endExclusive, limit);
  }

  static void checkKeys(List<byte[]> keys) {
    Objects.requireNonNull(keys, "keys is null");
    for (byte[] key : keys) {
      Limits.checkKey(key);
    }
  }

  // ------------------------------------------------------------------------ information

  /**
   * The shard a key belongs to. A {@link Batch} whose keys share one shard is the cheapest atomic
   * write.
   *
   * @param key the key
   * @return shard index, from 0 to {@link #shardCount()} - 1
   */
  public int shardOf(byte[] key) {
    Limits.checkKey(key);
    return core.shardOf(key);
  }

  /**
   * Number of shards, fixed when the store was created.
   *
   * @return shard count
   */
  public int shardCount() {
    return core.shardCount();
  }

  /**
   * The store directory.
   *
   * @return its absolute path
   */
  public Path dir() {
    return core.dir();
  }

  /**
   * A snapshot of per-shard counters and engine properties.
   *
   * @return the stats
   * @throws StoreClosedException if the store is closed
   */
  public StoreStats stats() {
    return core.stats();
  }

  /**
   * Flushes every shard's memtables to disk (synced) and waits. Not needed for durability of logged
   * writes (the WAL provides it); it is what makes the batches written with {@link
   * Durability#NO_WAL} (the store's or a batch's) durable, those completed before the call; also
   * useful before measuring on-disk sizes or copying a closed store.
   */
  public void flush() {
    core.flush();
  }

  /**
   * Flushes and fully compacts every shard, and waits. An administrative operation (before a
   * read benchmark, after a bulk load); concurrent reads and writes keep working meanwhile.
   */
  public void compact() {
    core.compact();
  }

  /**
   * The store's state now, for applications that decide without catching exceptions (a health
   * check, a supervisor that reopens a failed store). Never throws.
   *
   * @return open, failed with its cause, or closed
   */
  public Health health() {
    return core.health();
  }

  /**
   * What {@link #health()} reports.
   *
   * <ul>
   *   <li>{@link Status#OPEN}: operations are served.
   *   <li>{@link Status#FAILED}: a shard worker died, or a cross-shard batch is in doubt because
   *       its commit record could not be written (a full disk). Every operation throws {@link
   *       StoreFailedException}; {@link #failure()} says what happened. Close the store and open it
   *       again (after freeing disk space): reopening finishes or rolls back the batch in doubt,
   *       and writes acknowledged before the failure are kept as the durability mode promises.
   *   <li>{@link Status#CLOSED}: {@link #close()} was called (it may still be finishing on another
   *       thread); every operation throws {@link StoreClosedException}. {@link #failure()} still
   *       names the failure if the store had failed before it was closed.
   * </ul>
   *
   * @param status the state
   * @param failure why the store failed, or null if it never did
   */
  public record Health(Status status, StoreFailedException failure) {
    /** The three states of a store. */
    public enum Status {
      /** Serving operations. */
      OPEN,
      /** Failed: close and reopen it. */
      FAILED,
      /** Closed. */
      CLOSED
    }
  }

  private static KvIterator kvIterator(StoreIterator it) {
    return new KvIterator(it, it::seek, it::close);
  }

  StoreCore core() {
    return core;
  }

  /**
   * Closes the store: new calls fail with {@link StoreClosedException}, iterators still open are
   * closed (and counted in a warning; see {@link KvIterator}, "Life cycle", for iterators dropped
   * while the store is open), requests already queued are executed, workers stop, shards close,
   * the directory is unlocked. Idempotent, and safe from several threads at once (a shutdown hook
   * and try-with-resources): every call returns only once the store is closed and its directory
   * unlocked. Called from a callback or a future's stage (a worker thread, which cannot wait for
   * itself to stop), it marks the store closed, hands the rest of the close to a new thread and
   * returns; a later call from another thread waits for that close to finish.
   *
   * @throws P2kvException if an engine failed to close cleanly (the store is closed anyway; thrown
   *     to the call that closed the store, logged if that was a callback)
   */
  @Override
  public void close() {
    core.close();
  }

  /**
   * Not thread-safe: collects options for {@link #open(Path)}. Every option has a default chosen
   * by measurement (see {@code docs/benchmarks/}); setters validate at once. {@code open} never
   * changes the builder, so one builder can open several stores.
   */
  public static final class Builder {
    /** The default of {@link #maxBatch(int)}. */
    public static final int DEFAULT_MAX_BATCH = 128;

    private int shards;
    private int maxBatch = DEFAULT_MAX_BATCH;
    private long maxBatchBytes = 64 * 1024;
    private int maxDurableBatch = 1024;
    private long maxDurableBatchBytes = 1 << 20;
    private int queueCapacity = 4096;
    private QueueFullPolicy queueFullPolicy = QueueFullPolicy.WAIT;
    private IdleMode idleMode = IdleMode.PARK;
    private Pinning pinning = Pinning.AUTO;
    private Durability durability = Durability.WAL;
    private ReadPath readPath = ReadPath.DIRECT;
    private long memoryBudgetBytes = 512L << 20;
    private long yieldWaitNanos = 50_000;
    private boolean recordLatency;
    private boolean jmx;
    private boolean leakDetection;
    private long cacheBytes;
    private RocksDbConfigurer configurer;
    private ValueSeparation valueSeparation = ValueSeparation.sizeAware();
    private SeparationTuner.Limits tunerLimits = SeparationTuner.Limits.DEFAULT;
    private Function<Integer, EngineFactory> engineFactory;
    private List<byte[]> splitKeys;
    private final Map<String, MergeOperator> mergeOperators = new LinkedHashMap<>();

    private Builder() {}

    /**
     * Number of shards (RocksDB instances and worker threads) of a new store. An existing store
     * keeps the count in its manifest; giving another count fails with {@link
     * ManifestMismatchException}. Default: what the scaling model of docs/benchmarks/SCALING.md
     * gives for the available cores, enough shards that their worker threads keep up with what the
     * cores can feed them with async puts and no more (scans over hash partitions seek every
     * shard): 1 up to 3 cores, 2 at 4, 3 at 8, 5 at 16, 9 at 32, at most 16.
     *
     * @param shards 1 to 1024
     * @return this builder
     */
    public Builder shards(int shards) {
      if (shards < 1 || shards > 1024) {
        throw new IllegalArgumentException("shards must be between 1 and 1024: " + shards);
      }
      this.shards = shards;
      return this;
    }

    /**
     * Most operations a worker merges into one engine call (write batch or multiGet). 1 turns
     * batching off. Default {@value #DEFAULT_MAX_BATCH}. The cap binds only when more requests
     * are queued than it allows (many async puts in flight, or more blocked callers than the
     * cap): a worker never waits for a run to fill. Then a larger run costs the worker less per
     * operation (RocksDB's cost per write call is shared by more keys) and, since the queue is
     * long anyway, shortens the wait of the requests behind it. The p2KVS paper caps runs at 32
     * to bound the latency of the run's first requests; on the 2-core reference machine 16 async
     * callers with 64 puts in flight each ran about 10 % faster with 128
     * (docs/benchmarks/WRITE-PATH.md, stop 45). {@link #maxBatchBytes} bounds a run of large
     * values.
     *
     * @param maxBatch 1 to 4096
     * @return this builder
     */
    public Builder maxBatch(int maxBatch) {
      if (maxBatch < 1 || maxBatch > 4096) {
        throw new IllegalArgumentException("maxBatch must be between 1 and 4096: " + maxBatch);
      }
      this.maxBatch = maxBatch;
      return this;
    }

    /**
     * Most key + value bytes a worker merges into one write batch; bounds latency with large
     * values. A single request larger than this still runs, alone. Default 64 KiB.
     *
     * @param maxBatchBytes at least 1
     * @return this builder
     */
    public Builder maxBatchBytes(long maxBatchBytes) {
      if (maxBatchBytes < 1) {
        throw new IllegalArgumentException("maxBatchBytes must be positive: " + maxBatchBytes);
      }
      this.maxBatchBytes = maxBatchBytes;
      return this;
    }

    /**
     * With {@link Durability#SYNC}: most operations a worker merges into one write batch, and so
     * into one fsync (group commit); replaces {@link #maxBatch} for writes in that mode (reads keep
     * {@code maxBatch}). An fsync costs about the same for one write as for hundreds, so a durable
     * batch takes whatever is queued up to this cap, and a worker whose queue runs dry before the
     * batch has as many requests as the last ones waits up to one fsync's mean time (at most 1 ms)
     * for their callers to come back. A write is acknowledged only after the fsync of the batch that holds it.
     * Default 1024.
     *
     * @param maxDurableBatch 1 to 65536
     * @return this builder
     */
    public Builder maxDurableBatch(int maxDurableBatch) {
      if (maxDurableBatch < 1 || maxDurableBatch > 65536) {
        throw new IllegalArgumentException("maxDurableBatch must be between 1 and 65536: " + maxDurableBatch);
      }
      this.maxDurableBatch = maxDurableBatch;
      return this;
    }

    /**
     * With {@link Durability#SYNC}: most key + value bytes a worker merges into one write batch
     * (one fsync); replaces {@link #maxBatchBytes} in that mode. A single request larger than this
     * still runs, alone. Default 1 MiB.
     *
     * @param maxDurableBatchBytes at least 1
     * @return this builder
     */
    public Builder maxDurableBatchBytes(long maxDurableBatchBytes) {
      if (maxDurableBatchBytes < 1) {
        throw new IllegalArgumentException("maxDurableBatchBytes must be positive: " + maxDurableBatchBytes);
      }
      this.maxDurableBatchBytes = maxDurableBatchBytes;
      return this;
    }

    /**
     * Capacity of each shard's request queue, rounded up to a power of two. Default 4096.
     *
     * @param queueCapacity 2 to 2^24
     * @return this builder
     */
    public Builder queueCapacity(int queueCapacity) {
      if (queueCapacity < 2 || queueCapacity > (1 << 24)) {
        throw new IllegalArgumentException("queueCapacity must be between 2 and 16777216: " + queueCapacity);
      }
      this.queueCapacity = queueCapacity;
      return this;
    }

    /**
     * What callers do when a queue is full. Default {@link QueueFullPolicy#WAIT}.
     *
     * @param policy the policy
     * @return this builder
     */
    public Builder queueFullPolicy(QueueFullPolicy policy) {
      this.queueFullPolicy = Objects.requireNonNull(policy, "queueFullPolicy is null");
      return this;
    }

    /**
     * What an idle worker does. Default {@link IdleMode#PARK}.
     *
     * @param idleMode the mode
     * @return this builder
     */
    public Builder idleMode(IdleMode idleMode) {
      this.idleMode = Objects.requireNonNull(idleMode, "idleMode is null");
      return this;
    }

    /**
     * Whether workers are pinned to cores. Default {@link Pinning#AUTO}.
     *
     * @param pinning the mode
     * @return this builder
     */
    public Builder pinning(Pinning pinning) {
      this.pinning = Objects.requireNonNull(pinning, "pinning is null");
      return this;
    }

    /**
     * Durability of acknowledged writes. Default {@link Durability#WAL}.
     *
     * @param durability the mode
     * @return this builder
     */
    public Builder durability(Durability durability) {
      this.durability = Objects.requireNonNull(durability, "durability is null");
      return this;
    }

    /**
     * Where point reads run. Default {@link ReadPath#DIRECT}.
     *
     * @param readPath the path
     * @return this builder
     */
    public Builder readPath(ReadPath readPath) {
      this.readPath = Objects.requireNonNull(readPath, "readPath is null");
      return this;
    }

    /**
     * The store's whole memory budget. The value cache ({@link #cacheBytes}), if any, comes out of
     * it; RocksDB gets the rest: one block cache shared by all shards, with the memtables (capped
     * at half of RocksDB's part) charged to it, and, while the value-separation policy may write
     * blob files, one blob cache beside it. The blob cache takes a quarter of RocksDB's part in a
     * new store; at every later open, the share of the store's data that is in blob files, at
     * least a thirty-second and at most a quarter, so a store whose values are inline gives
     * nearly all of it to the block cache. {@link StoreStats#blobCacheCapacityBytes()} shows the
     * split. Default 512 MiB.
     *
     * @param bytes at least 16 MiB
     * @return this builder
     */
    public Builder memoryBudgetBytes(long bytes) {
      if (bytes < (16L << 20)) {
        throw new IllegalArgumentException("memoryBudgetBytes must be at least 16 MiB: " + bytes);
      }
      this.memoryBudgetBytes = bytes;
      return this;
    }

    /**
     * Advanced: how long a blocked sync caller, and an idle worker in {@link IdleMode#PARK}, keep
     * polling, yielding the CPU between polls, before they park. Within this window a completion
     * or a new request costs no park/unpark pair; yielding rather than spinning leaves the core to
     * any other runnable thread. 0 parks at once. Virtual-thread callers (JDK 21+) always park
     * at once: their yield keeps the carrier threads busy polling. Default 50 microseconds.
     *
     * @param nanos 0 to 10 ms
     * @return this builder
     */
    public Builder yieldWaitNanos(long nanos) {
      if (nanos < 0 || nanos > 10_000_000L) {
        throw new IllegalArgumentException("yieldWaitNanos must be between 0 and 10000000: " + nanos);
      }
      this.yieldWaitNanos = nanos;
      return this;
    }

    /**
     * Partitions a new store by key range instead of by hash, for scan-heavy stores: shard i holds
     * the keys in {@code [splitKeys[i-1], splitKeys[i])} (the first shard everything below the
     * first split key, the last everything from the last one up), so there are {@code
     * splitKeys.size() + 1} shards. An ordered read then touches only the shards its range
     * overlaps and seeks them one at a time, so a short scan costs about what it costs on one
     * RocksDB instance; but writes are no longer spread by hashing: a hot key range, or keys
     * inserted in order, load one shard. The split keys are kept in the manifest: reopening needs
     * either no partitioning option or the same split keys ({@link ManifestMismatchException}
     * otherwise). Default: hash partitioning.
     *
     * @param splitKeys strictly increasing in unsigned byte order, none empty, at most 1023; copied
     * @return this builder
     * @throws IllegalArgumentException if the keys are not strictly increasing, one is empty or too
     *     long, or there are too many
     */
    public Builder rangePartitioning(List<byte[]> splitKeys) {
      Objects.requireNonNull(splitKeys, "splitKeys is null");
      if (splitKeys.size() > 1023) {
        throw new IllegalArgumentException("at most 1023 split keys (1024 shards): " + splitKeys.size());
      }
      List<byte[]> copy = new java.util.ArrayList<>(splitKeys.size());
      for (byte[] k : splitKeys) {
        Objects.requireNonNull(k, "a split key is null");
        Limits.checkKey(k);
        copy.add(k.clone());
      }
      String problem = io.p2kv.internal.Partitioner.checkSplits(copy);
      if (problem != null) {
        throw new IllegalArgumentException(problem);
      }
      this.splitKeys = List.copyOf(copy);
      return this;
    }

    /**
     * Whether to record the latency of every operation, per {@link OperationType}, into
     * HdrHistograms; read them with {@link P2kv#stats()} ({@link StoreStats#latencies()}) or
     * through JMX. Costs two clock reads and two atomic increments per operation. Default off.
     *
     * @param enabled true to record
     * @return this builder
     */
    public Builder recordLatency(boolean enabled) {
      this.recordLatency = enabled;
      return this;
    }

    /**
     * Whether to export the stats as JMX MBeans on the platform MBean server while the store is
     * open: {@code io.p2kv:type=Store,dir="<dir>"} for the store (totals over shards, and the
     * latencies if recorded) and {@code io.p2kv:type=Shard,dir="<dir>",shard=<i>} for each shard
     * (the fields of {@link ShardStats}). Every attribute read takes a fresh snapshot. Default off.
     *
     * @param enabled true to register the MBeans at open and unregister them at close
     * @return this builder
     */
    public Builder jmx(boolean enabled) {
      this.jmx = enabled;
      return this;
    }

    /**
     * Whether to record where each iterator is created, to tell where a leaked one came from. An
     * iterator the application drops without closing it is always closed by p2kv once the garbage
     * collector finds it unreachable, and counted in {@link StoreStats#leakedIterators()} (see
     * {@link KvIterator}, "Life cycle"). With leak detection on, every iterator captures a stack
     * trace when it is created (a {@code Throwable}: some microseconds per iterator, so for
     * development and tests), and each leak is logged once at WARN with that stack trace. Off,
     * nothing is captured and opening an iterator costs nothing more; only the store's first leak
     * is logged, at WARN, with a hint to turn this on, and later ones are only counted. Modelled
     * on Netty's leak detector. Default off.
     *
     * @param enabled true to record creation sites and log every leak with its own
     * @return this builder
     */
    public Builder leakDetection(boolean enabled) {
      this.leakDetection = enabled;
      return this;
    }

    /**
     * Bytes of the on-heap cache of point-read results (values and absent keys), taken from {@link
     * #memoryBudgetBytes}: RocksDB's caches and memtables get the rest. The cache is exactly
     * coherent with the store: a get that starts after a write completed never returns an older
     * value (every key's writes pass through its shard's worker, which updates the cache before it
     * completes them; see docs/ARCHITECTURE.md). {@code get}, {@code multiGet} and their async
     * variants use it; ordered reads do not. It pays off on skewed reads (a few hot keys) and
     * costs a lookup and a fill per miss otherwise. 0 turns it off. Default 0 (off): with an
     * eighth of the budget on by default, the demo's uniform random gets measured 0.71x of plain
     * RocksDB (1.03x without the cache), so it stays opt-in until its miss path is cheaper. The
     * cached values live on the Java heap: size the heap for them.
     *
     * @param bytes 0 (off) up to half of the memory budget
     * @return this builder
     */
    public Builder cacheBytes(long bytes) {
      if (bytes < 0) {
        throw new IllegalArgumentException("cacheBytes must be at least 0: " + bytes);
      }
      this.cacheBytes = bytes;
      return this;
    }

    /**
     * Which values are kept inline in the LSM-trees and which go to blob files (key-value
     * separation), per shard. Default {@link ValueSeparation#sizeAware()}: small values inline,
     * large ones in blob files, medium ones where they cost least, retuned while the store runs.
     * Can change between opens of a store.
     *
     * @param policy the policy
     * @return this builder
     */
    public Builder valueSeparation(ValueSeparation policy) {
      this.valueSeparation = Objects.requireNonNull(policy, "valueSeparation is null");
      return this;
    }

    /**
     * The RocksDB tuning hook, called for each shard after p2kv's defaults.
     *
     * @param configurer the hook, or null for none
     * @return this builder
     */
    public Builder rocksDbConfigurer(RocksDbConfigurer configurer) {
      this.configurer = configurer;
      return this;
    }

    /**
     * Declares a merge operator for {@link P2kv#merge}, under a name the merges give. Operators are
     * declared for each open, not stored: p2kv applies an operator when the merge executes and
     * stores the resulting value, so no merge operand waits on disk for an operator (as RocksDB's
     * do), and the store's files never depend on one. So the names are not kept in the {@code
     * MANIFEST}: a store reopened without an operator still opens and reads every value; only a
     * merge naming an undeclared operator fails, with {@link IllegalArgumentException}. An
     * application that merges declares its operators every time it opens the store, as it passes
     * its other options.
     *
     * @param name the name, not empty; unique within this builder
     * @param operator the operator (see {@link MergeOperator} for its rules)
     * @return this builder
     * @throws NullPointerException if name or operator is null
     * @throws IllegalArgumentException if name is empty or already declared
     */
    public Builder mergeOperator(String name, MergeOperator operator) {
      Objects.requireNonNull(name, "name is null");
      Objects.requireNonNull(operator, "operator is null");
      if (name.isEmpty()) {
        throw new IllegalArgumentException("a merge operator's name must not be empty");
      }
      if (mergeOperators.putIfAbsent(name, operator) != null) {
        throw new IllegalArgumentException("merge operator \"" + name + "\" is already declared");
      }
      return this;
    }

    /** Test hook: the adaptive tuner's window limits (a period of 0 starts no timer). */
    Builder separationTunerLimits(SeparationTuner.Limits limits) {
      this.tunerLimits = limits;
      return this;
    }

    /** Test hook: replaces the engine factory (fault injection). */
    Builder engineFactory(Function<Integer, EngineFactory> factory) {
      this.engineFactory = factory;
      return this;
    }

    /**
     * Opens the store at {@code dir}, creating it (and the directory) if it does not exist.
     *
     * @param dir the store directory: empty or absent for a new store
     * @return the open store
     * @throws StoreLockedException if the store is already open
     * @throws IllegalArgumentException if {@link #shards} and {@link #rangePartitioning} disagree
     * @throws ManifestMismatchException if the options contradict the existing store
     * @throws StoreCorruptedException if the store's metadata or a shard is damaged
     * @throws P2kvException if the directory is not a store, an engine fails to open, or the JMX
     *     MBeans cannot be registered
     */
    public P2kv open(Path dir) {
      Objects.requireNonNull(dir, "dir is null");
      Map<String, MergeOperator> operators = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(mergeOperators));
      return new P2kv(StoreOpener.open(toConfig(dir)), operators);
    }

    /** Resolves the options for one open; the builder is not changed. */
    private StoreConfig toConfig(Path dir) {
      if (splitKeys != null && shards > 0 && shards != splitKeys.size() + 1) {
        throw new IllegalArgumentException(
            "shards=" + shards + " but " + splitKeys.size() + " split keys make " + (splitKeys.size() + 1) + " shards");
      }
      long cache = cacheBytes;
      if (cache > memoryBudgetBytes / 2) {
        throw new IllegalArgumentException(
            "cacheBytes " + cache + " is more than half of memoryBudgetBytes " + memoryBudgetBytes
                + ": RocksDB needs the rest; raise the budget or lower the cache");
      }
      return new StoreConfig(
          dir,
          shards,
          maxBatch,
          maxBatchBytes,
          maxDurableBatch,
          maxDurableBatchBytes,
          queueCapacity,
          queueFullPolicy,
          idleMode,
          pinning,
          durability,
          readPath,
          memoryBudgetBytes,
          yieldWaitNanos,
          recordLatency,
          jmx,
          configurer,
          valueSeparation,
          tunerLimits,
          engineFactory,
          splitKeys,
          leakDetection,
          cache);
    }
  }
}
