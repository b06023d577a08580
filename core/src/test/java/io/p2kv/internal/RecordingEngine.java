package io.p2kv.internal;

import io.p2kv.internal.engine.Engine;
import io.p2kv.internal.engine.EngineAdmin;
import io.p2kv.internal.engine.EngineBatch;
import io.p2kv.internal.engine.EngineException;
import io.p2kv.internal.engine.EngineIterator;
import io.p2kv.internal.engine.EngineProperty;
import io.p2kv.internal.engine.EngineSnapshot;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An in-memory engine that records every call, for stepping a worker in tests. A second engine
 * behind the {@link Engine} interface, which also shows the worker does not depend on RocksDB.
 */
class RecordingEngine implements Engine, EngineAdmin {
  /** Calls in order, e.g. "put", "batch:3", "get", "multiGet:2". */
  final List<String> calls = new CopyOnWriteArrayList<>();
  final TreeMap<String, byte[]> data = new TreeMap<>();
  /** The same data in unsigned key order, for iterators. */
  private final TreeMap<byte[], byte[]> ordered = new TreeMap<>(Arrays::compareUnsigned);
  volatile boolean failWrites;

  private static String k(byte[] key) {
    return Arrays.toString(key);
  }

  @Override
  public synchronized void put(byte[] key, byte[] value) {
    calls.add("put");
    checkFail();
    data.put(k(key), value);
    ordered.put(key, value);
  }

  @Override
  public synchronized void delete(byte[] key) {
    calls.add("delete");
    checkFail();
    data.remove(k(key));
    ordered.remove(key);
  }

  /** A table file: its ops in a form this engine reads back (no format of its own needed). */
  @Override
  public TableWriter openTable(java.nio.file.Path file) {
    List<io.p2kv.Batch.Op> ops = new ArrayList<>();
    return new TableWriter() {
      @Override
      public void put(byte[] key, byte[] value) {
        ops.add(new io.p2kv.Batch.Op(key, value));
      }

      @Override
      public void delete(byte[] key) {
        ops.add(new io.p2kv.Batch.Op(key, null));
      }

      @Override
      public void finish() {
        calls.add("writeTable:" + ops.size());
        try (java.io.DataOutputStream out = new java.io.DataOutputStream(java.nio.file.Files.newOutputStream(file))) {
          out.writeInt(ops.size());
          for (io.p2kv.Batch.Op op : ops) {
            out.writeInt(op.key().length);
            out.write(op.key());
            out.writeInt(op.isDelete() ? -1 : op.value().length);
            if (!op.isDelete()) {
              out.write(op.value());
            }
          }
        } catch (java.io.IOException e) {
          throw new EngineException("write table: " + e, e);
        }
      }

      @Override
      public void close() {}
    };
  }

  @Override
  public synchronized void ingest(java.nio.file.Path file) {
    calls.add("ingest");
    checkFail();
    try (java.io.DataInputStream in = new java.io.DataInputStream(java.nio.file.Files.newInputStream(file))) {
      int n = in.readInt();
      for (int i = 0; i < n; i++) {
        byte[] key = in.readNBytes(in.readInt());
        int length = in.readInt();
        if (length < 0) {
          data.remove(k(key));
          ordered.remove(key);
        } else {
          byte[] value = in.readNBytes(length);
          data.put(k(key), value);
          ordered.put(key, value);
        }
      }
      java.nio.file.Files.delete(file);
    } catch (java.io.IOException e) {
      throw new EngineException("ingest: " + e, e);
    }
  }

  @Override
  public synchronized void deleteRange(byte[] fromInclusive, byte[] toExclusive) {
    calls.add("deleteRange");
    checkFail();
    NavigableMap<byte[], byte[]> range = ordered.subMap(fromInclusive, true, toExclusive, false);
    for (byte[] key : range.keySet()) {
      data.remove(k(key));
    }
    range.clear();
  }

  /** The pending operations of one batch, applied by {@link #write}. */
  static final class RecordingBatch implements EngineBatch {
    final List<Object[]> ops = new ArrayList<>();
    final List<Object[]> metaOps = new ArrayList<>();

    @Override
    public void put(byte[] key, byte[] value) {
      ops.add(new Object[] {key, value});
    }

    @Override
    public void delete(byte[] key) {
      ops.add(new Object[] {key, null});
    }

    @Override
    public void putMeta(byte[] key, byte[] value) {
      metaOps.add(new Object[] {key, value});
    }

    @Override
    public void deleteMeta(byte[] key) {
      metaOps.add(new Object[] {key, null});
    }

    @Override
    public int count() {
      return ops.size() + metaOps.size();
    }

    @Override
    public void clear() {
      ops.clear();
      metaOps.clear();
    }

    @Override
    public void close() {
      clear();
    }
  }

  @Override
  public EngineBatch newBatch() {
    return new RecordingBatch();
  }

  @Override
  public synchronized void write(EngineBatch engineBatch, io.p2kv.Durability durability) {
    RecordingBatch batch = (RecordingBatch) engineBatch;
    calls.add("batch:" + batch.ops.size() + (durability == null ? "" : ":" + durability));
    try {
      checkFail();
      for (Object[] op : batch.metaOps) {
        if (op[1] == null) {
          meta.remove(k((byte[]) op[0]));
        } else {
          meta.put(k((byte[]) op[0]), new byte[][] {(byte[]) op[0], (byte[]) op[1]});
        }
      }
      for (Object[] op : batch.ops) {
        if (op[1] == null) {
          data.remove(k((byte[]) op[0]));
          ordered.remove((byte[]) op[0]);
        } else {
          data.put(k((byte[]) op[0]), (byte[]) op[1]);
          ordered.put((byte[]) op[0], (byte[]) op[1]);
        }
      }
    } finally {
      batch.clear();
    }
  }

  final TreeMap<String, byte[][]> meta = new TreeMap<>();

  @Override
  public EngineAdmin admin() {
    return this;
  }

  @Override
  public synchronized void putMeta(byte[] key, byte[] value, io.p2kv.Durability atLeast) {
    meta.put(k(key), new byte[][] {key, value});
  }

  @Override
  public synchronized void deleteMeta(byte[] key) {
    meta.remove(k(key));
  }

  @Override
  public synchronized List<byte[][]> scanMeta(byte[] prefix) {
    List<byte[][]> out = new ArrayList<>();
    for (byte[][] kv : meta.values()) {
      if (kv[0].length >= prefix.length && Arrays.equals(kv[0], 0, prefix.length, prefix, 0, prefix.length)) {
        out.add(kv);
      }
    }
    return out;
  }

  private void checkFail() {
    if (failWrites) {
      throw new EngineException("injected write failure", new RuntimeException("disk full"));
    }
  }

  @Override
  public synchronized byte[] get(byte[] key) {
    calls.add("get");
    return copy(data.get(k(key)));
  }

  @Override
  public synchronized List<byte[]> multiGet(List<byte[]> keys) {
    calls.add("multiGet:" + keys.size());
    List<byte[]> out = new ArrayList<>();
    for (byte[] key : keys) {
      out.add(copy(data.get(k(key))));
    }
    return out;
  }

  /** Reads return arrays the caller owns, as RocksDB's do (the {@link Engine} contract). */
  private static byte[] copy(byte[] v) {
    return v == null ? null : v.clone();
  }

  @Override
  public synchronized EngineIterator newIterator(byte[] lowerInclusive, byte[] upperExclusive) {
    calls.add("iterator");
    return iterator(new TreeMap<>(ordered), lowerInclusive, upperExclusive);
  }

  private static EngineIterator iterator(NavigableMap<byte[], byte[]> data, byte[] lowerInclusive, byte[] upperExclusive) {
    NavigableMap<byte[], byte[]> view = data;
    if (lowerInclusive != null) {
      view = view.tailMap(lowerInclusive, true);
    }
    if (upperExclusive != null) {
      view = view.headMap(upperExclusive, false);
    }
    return new SnapshotIterator(view);
  }

  @Override
  public synchronized EngineSnapshot snapshot() {
    calls.add("snapshot");
    NavigableMap<byte[], byte[]> copy = new TreeMap<>(ordered);
    return new EngineSnapshot() {
      @Override
      public byte[] get(byte[] key) {
        return copy.get(key);
      }

      @Override
      public List<byte[]> multiGet(List<byte[]> keys) {
        List<byte[]> out = new ArrayList<>();
        for (byte[] key : keys) {
          out.add(copy.get(key));
        }
        return out;
      }

      @Override
      public EngineIterator newIterator(byte[] lowerInclusive, byte[] upperExclusive) {
        return iterator(copy, lowerInclusive, upperExclusive);
      }

      @Override
      public void close() {}
    };
  }

  @Override
  public Checkpoint beginCheckpoint() {
    calls.add("checkpoint");
    return new Checkpoint() {
      @Override
      public void writeTo(java.nio.file.Path target) {}

      @Override
      public void close() {}
    };
  }

  /** An iterator over a copy of the data taken when it was created. */
  private static final class SnapshotIterator implements EngineIterator {
    private final NavigableMap<byte[], byte[]> view;
    private Map.Entry<byte[], byte[]> at;
    private boolean closed;

    SnapshotIterator(NavigableMap<byte[], byte[]> view) {
      this.view = view;
    }

    private void check() {
      if (closed) {
        throw new IllegalStateException("use after close");
      }
    }

    @Override
    public void seekToFirst() {
      check();
      at = view.firstEntry();
    }

    @Override
    public void seekToLast() {
      check();
      at = view.lastEntry();
    }

    @Override
    public void seek(byte[] key) {
      check();
      at = view.ceilingEntry(key);
    }

    @Override
    public void seekForPrev(byte[] key) {
      check();
      at = view.floorEntry(key);
    }

    @Override
    public boolean valid() {
      check();
      return at != null;
    }

    @Override
    public byte[] key() {
      check();
      return at.getKey().clone();
    }

    @Override
    public byte[] value() {
      check();
      return at.getValue().clone();
    }

    @Override
    public void next() {
      check();
      at = view.higherEntry(at.getKey());
    }

    @Override
    public void prev() {
      check();
      at = view.lowerEntry(at.getKey());
    }

    @Override
    public void close() {
      closed = true;
    }
  }

  @Override
  public long property(EngineProperty property) {
    return -1;
  }

  @Override
  public void flush() {}

  @Override
  public void compact() {}

  @Override
  public void close() {}
}
