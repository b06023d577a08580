package io.p2kv.kafka;

import io.p2kv.Batch;
import io.p2kv.KvIterator;
import io.p2kv.P2kv;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
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
import org.apache.kafka.streams.state.internals.StoreQueryUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Thread-safe for the task's stream thread plus interactive-query readers: one task's key-value
 * store, a key range of the application instance's shared p2kv store (see {@link SharedStore}).
 *
 * <h2>Commits (KIP-1035)</h2>
 * Writes go to an in-memory {@link Overlay} first; {@link #commit(Map)} writes the overlay and the
 * changelog offset in one atomic p2kv {@link Batch}. So the store on disk holds exactly the writes
 * up to its committed offset, also after a crash: under exactly-once a crashed task restores from
 * its committed offset instead of being wiped, and writes of an aborted transaction never reach
 * the disk. Reads see the overlay over the committed pairs. The overlay holds up to one commit
 * interval of writes in memory (with Streams' record cache on, one cache flush).
 *
 * <h2>Life of a partition's data</h2>
 * A marker file in the task directory says the store's data belongs to that directory. Kafka
 * deletes the task directory when it wipes a task (corruption, or a dirty close under
 * exactly-once) and when its cleaner removes a task that moved away; an {@code init} that finds
 * no marker deletes the partition's keys and offsets before anything reads them, so the store
 * never serves data Kafka believes gone.
 */
public class P2kvKeyValueStore implements KeyValueStore<Bytes, byte[]> {
  private static final Logger LOG = LoggerFactory.getLogger(P2kvKeyValueStore.class);
  private static final int DELETE_BATCH = 1024;

  private final String name;
  private final Overlay overlay = new Overlay();
  private final Position position = Position.emptyPosition();
  private volatile boolean open;
  private SharedStore shared;
  private P2kv store;
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
    SharedStore s = SharedStore.acquire(sharedDir, P2kvStoreConfig.from(stateStoreContext.appConfigs()));
    try {
      keys = new StoreKeys(name, stateStoreContext.taskId().partition());
      store = s.store();
      Path marker = taskDir.toPath().resolve("p2kv-" + name);
      synchronized (s) {
        if (!Files.exists(marker)) {
          long dropped = dropPartition();
          LOG.info("store {} of task {}: no marker in {}, dropped {} keys and its offsets",
              name, stateStoreContext.taskId(), taskDir, dropped);
          Files.createDirectories(taskDir.toPath());
          Files.writeString(marker, "p2kv data of store " + name + " lives in " + sharedDir + "\n");
        }
      }
    } catch (IOException e) {
      s.release();
      throw new ProcessorStateException("store " + name + ": cannot write its marker in " + taskDir, e);
    } catch (RuntimeException e) {
      s.release();
      throw new ProcessorStateException("store " + name + ": cannot open in " + sharedDir, e);
    }
    shared = s;
    context = stateStoreContext;
    boolean consistency = StreamsConfig.InternalConfig.getBoolean(
        stateStoreContext.appConfigs(), StreamsConfig.InternalConfig.IQ_CONSISTENCY_OFFSET_VECTOR_ENABLED, false);
    stateStoreContext.register(root, (RecordBatchingStateRestoreCallback) records -> restore(records, consistency));
    open = true;
  }

  /** Writes a batch of changelog records straight into the store (they are committed data). */
  private void restore(Collection<ConsumerRecord<byte[], byte[]>> records, boolean consistency) {
    Batch batch = new Batch();
    for (ConsumerRecord<byte[], byte[]> r : records) {
      if (r.value() == null) {
        batch.delete(keys.data(r.key()));
      } else {
        batch.put(keys.data(r.key()), r.value());
      }
    }
    if (!batch.isEmpty()) {
      store.write(batch);
    }
    synchronized (position) {
      for (ConsumerRecord<byte[], byte[]> r : records) {
        ChangelogRecordDeserializationHelper.applyChecksAndUpdatePosition(r, consistency, position);
      }
    }
  }

  /** Deletes this partition's data and offsets (p2kv has no range delete: in batches of keys). */
  private long dropPartition() {
    return deleteRange(keys.dataStart(), keys.dataEnd()) + deleteRange(keys.offsetStart(), keys.offsetEnd());
  }

  private long deleteRange(byte[] from, byte[] to) {
    long n = 0;
    Batch batch = new Batch();
    try (KvIterator it = store.iterator(from, to)) {
      while (it.hasNext()) {
        batch.delete(it.next().key());
        n++;
        if (batch.size() == DELETE_BATCH) {
          store.write(batch);
          batch = new Batch();
        }
      }
    }
    if (!batch.isEmpty()) {
      store.write(batch);
    }
    return n;
  }

  // ------------------------------------------------------------------ commits (KIP-1035)

  @Override
  @SuppressWarnings("deprecation")
  public boolean managesOffsets() {
    return true;
  }

  @Override
  public void commit(Map<TopicPartition, Long> changelogOffsets) {
    if (!open) {
      return;
    }
    Batch batch = new Batch();
    NavigableMap<Bytes, byte[]> pending = overlay.clone();
    for (Map.Entry<Bytes, byte[]> e : pending.entrySet()) {
      if (Overlay.isTombstone(e.getValue())) {
        batch.delete(keys.data(e.getKey().get()));
      } else {
        batch.put(keys.data(e.getKey().get()), e.getValue());
      }
    }
    if (changelogOffsets.isEmpty()) {
      try (KvIterator it = store.iterator(keys.offsetStart(), keys.offsetEnd())) {
        it.forEachRemaining(kv -> batch.delete(kv.key()));
      }
    }
    for (Map.Entry<TopicPartition, Long> e : changelogOffsets.entrySet()) {
      if (e.getValue() == null) {
        batch.delete(keys.offset(e.getKey()));
      } else {
        batch.put(keys.offset(e.getKey()), ByteBuffer.allocate(Long.BYTES).putLong(e.getValue()).array());
      }
    }
    if (!batch.isEmpty()) {
      try {
        store.write(batch);
      } catch (RuntimeException e) {
        throw new ProcessorStateException("store " + name + ": commit of " + batch.size() + " writes failed", e);
      }
    }
    // Only the stream thread writes the overlay, so nothing was added since the clone; readers
    // that miss a key here find it in the store, where it already is.
    overlay.clear();
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
    validateOpen();
    java.util.Objects.requireNonNull(key, "key cannot be null");
    overlay.put(key, value == null ? Overlay.tombstone() : value);
    StoreQueryUtils.updatePosition(position, context);
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
      put(e.key, e.value);
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
    validateOpen();
    java.util.Objects.requireNonNull(key, "key cannot be null");
    byte[] pending = overlay.get(key);
    if (pending != null) {
      return Overlay.isTombstone(pending) ? null : pending;
    }
    return store.get(keys.data(key.get()));
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
    return range(from, to, false);
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> reverseRange(Bytes from, Bytes to) {
    return range(from, to, true);
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> all() {
    return range(null, null, false);
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> reverseAll() {
    return range(null, null, true);
  }

  @Override
  public <PS extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(P prefix, PS prefixKeySerializer) {
    validateOpen();
    byte[] p = prefixKeySerializer.serialize(null, prefix);
    byte[] end = StoreKeys.successorOfPrefix(p);
    NavigableMap<Bytes, byte[]> pending =
        end == null ? overlay.tailMap(Bytes.wrap(p), true) : overlay.subMap(Bytes.wrap(p), true, Bytes.wrap(end), false);
    return iterator(pending, keys.data(p), keys.dataPrefixEnd(p), false);
  }

  private KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to, boolean reverse) {
    validateOpen();
    if (from != null && to != null && from.compareTo(to) > 0) {
      LOG.warn("store {}: range from {} to {} is empty, as from is after to (serdes whose byte order is not "
          + "the key order cause this)", name, from, to);
      return iterator(Collections.emptyNavigableMap(), keys.dataStart(), keys.dataStart(), reverse);
    }
    NavigableMap<Bytes, byte[]> pending = overlay;
    if (from != null) {
      pending = pending.tailMap(from, true);
    }
    if (to != null) {
      pending = pending.headMap(to, true);
    }
    byte[] start = from == null ? keys.dataStart() : keys.data(from.get());
    byte[] end = to == null ? keys.dataEnd() : keys.dataAfter(to.get());
    return iterator(pending, start, end, reverse);
  }

  private KeyValueIterator<Bytes, byte[]> iterator(
      NavigableMap<Bytes, byte[]> pending, byte[] start, byte[] end, boolean reverse) {
    KvIterator committed = reverse ? store.reverseIterator(start, end) : store.iterator(start, end);
    var overlayPart = (reverse ? pending.descendingMap() : pending).entrySet().iterator();
    return new MergedIterator(overlayPart, committed, keys, reverse, () -> {});
  }

  /** Counts the pairs (Kafka asks for an estimate; this is exact and reads the whole partition). */
  @Override
  public long approximateNumEntries() {
    long n = 0;
    try (KeyValueIterator<Bytes, byte[]> it = all()) {
      while (it.hasNext()) {
        it.next();
        n++;
      }
    }
    return n;
  }

  // ------------------------------------------------------------------ queries, life cycle

  @Override
  public <R> QueryResult<R> query(Query<R> query, PositionBound positionBound, QueryConfig config) {
    return StoreQueryUtils.handleBasicQueries(query, positionBound, config, this, position, context);
  }

  @Override
  public Position getPosition() {
    return position;
  }

  @Override
  public boolean persistent() {
    return true;
  }

  @Override
  public boolean isOpen() {
    return open;
  }

  /** Drops uncommitted writes (Kafka commits before a clean close) and leaves the shared store. */
  @Override
  public void close() {
    if (!open) {
      return;
    }
    open = false;
    if (!overlay.isEmpty()) {
      LOG.debug("store {}: closing with {} uncommitted writes, dropped", name, overlay.size());
      overlay.clear();
    }
    shared.release();
    shared = null;
    store = null;
  }

  private void validateOpen() {
    if (!open) {
      throw new InvalidStateStoreException("store " + name + " is not open");
    }
  }
}
