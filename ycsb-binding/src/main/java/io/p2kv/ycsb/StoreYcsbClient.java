package io.p2kv.ycsb;

import io.p2kv.KeyValue;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * Not thread-safe (YCSB gives each client thread its own instance): YCSB's five operations over a
 * {@link YcsbStore} shared by every thread of the directory, with the {@link RecordCodec}
 * encoding. {@link P2kvYcsbClient} and {@link RocksDbYcsbClient} differ only in the store they
 * open and in how that store makes an update atomic ({@link YcsbStore#update}), so both bindings
 * encode, merge and report identically.
 *
 * <h2>Semantics</h2>
 * <ul>
 *   <li>{@code read}: {@code NOT_FOUND} for an absent key; {@code fields == null} returns every
 *       field, otherwise only the requested fields the record has.
 *   <li>{@code scan}: up to {@code recordcount} records with key {@code >= startkey}, in key
 *       order, each filtered like {@code read}; fewer (or none) at the end of the key space is
 *       {@code OK}.
 *   <li>{@code update}: merges the fields into the record (read, merge, write, atomic per key:
 *       p2kv's {@code update} on the shard worker; a striped per-key lock for plain RocksDB);
 *       {@code NOT_FOUND} for an absent key, which is not created.
 *   <li>{@code insert}: writes the record, replacing any record of that key.
 *   <li>{@code delete}: blind (the stores cannot tell cheaply whether the key existed): {@code OK}
 *       also for an absent key.
 *   <li>Any store error is {@code ERROR} (the first ones are logged); a table other than the
 *       store's first is {@code BAD_REQUEST} (see {@link YcsbStore}).
 * </ul>
 */
abstract class StoreYcsbClient extends DB {
  private static final Logger LOG = LoggerFactory.getLogger(StoreYcsbClient.class);
  private static final int MAX_LOGGED_ERRORS = 10;
  private static final AtomicInteger LOGGED_ERRORS = new AtomicInteger();

  private final RecordCodec codec = new RecordCodec();
  /** The fields of the update in progress, for {@link #merger}. */
  private Map<String, ByteIterator> updateFields;
  /**
   * Merges {@link #updateFields} into a record; null for an absent record. Reused by every update
   * of this client; it may run on a p2kv worker thread, while this client's thread waits for it,
   * so it uses this client's codec and fields with no other thread touching them meanwhile.
   */
  private final UnaryOperator<byte[]> merger = record -> record == null ? null : codec.merge(record, updateFields);
  private YcsbStore store;
  private Path dir;

  /** The registry of this binding's open stores. */
  abstract SharedStores stores();

  /**
   * Opens this binding's store.
   *
   * @param config the parsed properties
   * @return the open store
   */
  abstract YcsbStore open(BindingConfig config);

  @Override
  public void init() throws DBException {
    if (store != null) {
      throw new DBException("init() called twice");
    }
    try {
      BindingConfig config = BindingConfig.parse(getProperties());
      store = stores().acquire(config, this::open);
      dir = config.dir();
    } catch (RuntimeException e) {
      throw new DBException(getClass().getSimpleName() + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void cleanup() throws DBException {
    if (store == null) {
      return;
    }
    store = null;
    try {
      stores().release(dir);
    } catch (RuntimeException e) {
      throw new DBException(getClass().getSimpleName() + ": closing " + dir + ": " + e.getMessage(), e);
    }
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    YcsbStore s = store();
    if (!s.acceptsTable(table)) {
      return otherTable(s, table);
    }
    try {
      byte[] record = s.get(codec.key(key));
      if (record == null) {
        return Status.NOT_FOUND;
      }
      codec.decode(record, fields, result);
      return Status.OK;
    } catch (RuntimeException e) {
      return error("read", key, e);
    }
  }

  @Override
  public Status scan(
      String table, String startkey, int recordcount, Set<String> fields, Vector<HashMap<String, ByteIterator>> result) {
    YcsbStore s = store();
    if (!s.acceptsTable(table)) {
      return otherTable(s, table);
    }
    if (recordcount < 0) {
      return Status.BAD_REQUEST;
    }
    try {
      List<KeyValue> pairs = s.scan(codec.key(startkey), recordcount);
      result.ensureCapacity(result.size() + pairs.size());
      for (int i = 0, n = pairs.size(); i < n; i++) {
        HashMap<String, ByteIterator> record = new HashMap<>();
        codec.decode(pairs.get(i).value(), fields, record);
        result.add(record);
      }
      return Status.OK;
    } catch (RuntimeException e) {
      return error("scan", startkey, e);
    }
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    YcsbStore s = store();
    if (!s.acceptsTable(table)) {
      return otherTable(s, table);
    }
    updateFields = values;
    try {
      return s.update(key, codec.key(key), merger) == null ? Status.NOT_FOUND : Status.OK;
    } catch (RuntimeException e) {
      return error("update", key, e);
    } finally {
      updateFields = null;
    }
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    YcsbStore s = store();
    if (!s.acceptsTable(table)) {
      return otherTable(s, table);
    }
    try {
      s.put(codec.key(key), codec.encode(values));
      return Status.OK;
    } catch (RuntimeException e) {
      return error("insert", key, e);
    }
  }

  @Override
  public Status delete(String table, String key) {
    YcsbStore s = store();
    if (!s.acceptsTable(table)) {
      return otherTable(s, table);
    }
    try {
      s.delete(codec.key(key));
      return Status.OK;
    } catch (RuntimeException e) {
      return error("delete", key, e);
    }
  }

  private YcsbStore store() {
    YcsbStore s = store;
    if (s == null) {
      throw new IllegalStateException(getClass().getSimpleName() + " is not initialised (init() failed or not called)");
    }
    return s;
  }

  private Status otherTable(YcsbStore s, String table) {
    if (LOGGED_ERRORS.getAndIncrement() < MAX_LOGGED_ERRORS) {
      LOG.error(
          "{}: table {} refused: the store at {} holds table {} (keys are stored without the table name)",
          getClass().getSimpleName(),
          table,
          dir,
          s.table());
    }
    return Status.BAD_REQUEST;
  }

  private Status error(String operation, String key, RuntimeException e) {
    if (LOGGED_ERRORS.getAndIncrement() < MAX_LOGGED_ERRORS) {
      LOG.error("{}: {} of key {} failed", getClass().getSimpleName(), operation, key, e);
    }
    return Status.ERROR;
  }
}
