package io.p2kv;

import io.p2kv.internal.engine.Engine;
import io.p2kv.internal.engine.EngineAdmin;
import io.p2kv.internal.engine.EngineBatch;
import io.p2kv.internal.engine.EngineException;
import io.p2kv.internal.engine.EngineFactory;
import io.p2kv.internal.engine.EngineIterator;
import io.p2kv.internal.engine.EngineSnapshot;
import io.p2kv.internal.engine.rocksdb.RocksDbEngineFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;

/**
 * Real RocksDB engines with switches to inject faults into chosen shards: engine errors, a worker
 * that blocks inside a write (to fill its queue), a worker that dies.
 */
final class FaultyEngines implements Function<Integer, EngineFactory> {
  enum Fault {
    NONE,
    FAIL_WRITES,
    BLOCK_WRITES,
    DIE_ON_WRITE,
    FAIL_COMMIT_RECORD,
    FAIL_ITERATORS,
    /** Iterators are created, and their {@link #FAILING_STEP}th step forward fails. */
    FAIL_ITERATOR_STEPS,
    /** The shard's compactions cannot be started (the last step of an open). */
    FAIL_START_COMPACTIONS,
    /** A checkpoint of the shard is made, but releasing it fails (after it did release it). */
    FAIL_CHECKPOINT_RELEASE
  }

  /** With {@link Fault#FAIL_ITERATOR_STEPS}: which call of next() fails (1 = the first). */
  static final int FAILING_STEP = 5;

  /** Engine iterators created and closed, on every shard. */
  final java.util.concurrent.atomic.AtomicInteger iteratorsOpened = new java.util.concurrent.atomic.AtomicInteger();
  final java.util.concurrent.atomic.AtomicInteger iteratorsClosed = new java.util.concurrent.atomic.AtomicInteger();

  final ConcurrentHashMap<Integer, Fault> faults = new ConcurrentHashMap<>();

  /** Run when a cross-shard commit record is about to be written, on the deciding thread; or null. */
  volatile Runnable onCommitRecord;

  /** The durability each cross-shard commit record was asked to have at least ("null": the store's), in order. */
  final java.util.Queue<String> commitRecordDurabilities = new java.util.concurrent.ConcurrentLinkedQueue<>();
  final CountDownLatch release = new CountDownLatch(1);
  final CountDownLatch blocked = new CountDownLatch(1);

  P2kv.Builder builder(int shards) {
    return P2kv.builder().shards(shards).memoryBudgetBytes(64L << 20).engineFactory(this);
  }

  @Override
  public EngineFactory apply(Integer shards) {
    RocksDbEngineFactory real = new RocksDbEngineFactory(shards, 64L << 20, Durability.WAL, null);
    return new EngineFactory() {
      @Override
      public Engine open(int shard, Path dir, boolean create) {
        return new Faulty(shard, real.open(shard, dir, create));
      }

      @Override
      public void close() {
        real.close();
      }
    };
  }

  private final class Faulty implements Engine {
    private final int shard;
    private final Engine d;

    Faulty(int shard, Engine delegate) {
      this.shard = shard;
      this.d = delegate;
    }

    private void beforeWrite() {
      switch (faults.getOrDefault(shard, Fault.NONE)) {
        case FAIL_WRITES -> throw new EngineException(
            "RocksDB write failed on shard " + shard + ": IO error: No space left on device", new RuntimeException("ENOSPC"));
        case BLOCK_WRITES -> {
          blocked.countDown();
          try {
            release.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
        case DIE_ON_WRITE -> throw new IllegalStateException("injected bug in shard " + shard);
        case NONE, FAIL_COMMIT_RECORD, FAIL_ITERATORS, FAIL_ITERATOR_STEPS, FAIL_START_COMPACTIONS, FAIL_CHECKPOINT_RELEASE -> {}
      }
    }

    @Override
    public void put(byte[] key, byte[] value) {
      beforeWrite();
      d.put(key, value);
    }

    @Override
    public void delete(byte[] key) {
      beforeWrite();
      d.delete(key);
    }

    @Override
    public void deleteRange(byte[] fromInclusive, byte[] toExclusive) {
      beforeWrite();
      d.deleteRange(fromInclusive, toExclusive);
    }

    @Override
    public TableWriter openTable(java.nio.file.Path file) {
      return d.openTable(file);
    }

    @Override
    public void ingest(java.nio.file.Path file) {
      beforeWrite();
      d.ingest(file);
    }

    @Override
    public EngineBatch newBatch() {
      return d.newBatch();
    }

    @Override
    public void write(EngineBatch batch, io.p2kv.Durability durability) {
      try {
        beforeWrite();
      } catch (RuntimeException e) {
        batch.clear(); // an injected failure writes nothing, as a real failed write
        throw e;
      }
      d.write(batch, durability);
    }

    @Override
    public void putMeta(byte[] key, byte[] value, Durability atLeast) {
      boolean commitRecord = key.length > 0 && key[0] == 'c';
      if (faults.get(shard) == Fault.FAIL_COMMIT_RECORD && commitRecord) {
        throw new EngineException("injected commit-record failure on shard " + shard, new RuntimeException("EIO"));
      }
      if (commitRecord) {
        commitRecordDurabilities.add(String.valueOf(atLeast));
        Runnable hook = onCommitRecord;
        if (hook != null) {
          hook.run();
        }
      }
      d.putMeta(key, value, atLeast);
    }

    @Override
    public void deleteMeta(byte[] key) {
      d.deleteMeta(key);
    }

    @Override
    public List<byte[][]> scanMeta(byte[] prefix) {
      return d.scanMeta(prefix);
    }

    @Override
    public byte[] get(byte[] key) {
      return d.get(key);
    }

    @Override
    public List<byte[]> multiGet(List<byte[]> keys) {
      return d.multiGet(keys);
    }

    @Override
    public EngineIterator newIterator(byte[] lowerInclusive, byte[] upperExclusive) {
      if (faults.getOrDefault(shard, Fault.NONE) == Fault.FAIL_ITERATORS) {
        throw new EngineException(
            "RocksDB iterator failed on shard " + shard + ": Corruption: block checksum mismatch", new RuntimeException("corrupt"));
      }
      return new Counted(d.newIterator(lowerInclusive, upperExclusive), faults.getOrDefault(shard, Fault.NONE) == Fault.FAIL_ITERATOR_STEPS);
    }

    @Override
    public EngineSnapshot snapshot() {
      return d.snapshot();
    }

    @Override
    public EngineAdmin admin() {
      EngineAdmin real = d.admin();
      Fault fault = faults.getOrDefault(shard, Fault.NONE);
      if (fault != Fault.FAIL_START_COMPACTIONS && fault != Fault.FAIL_CHECKPOINT_RELEASE) {
        return real;
      }
      return (EngineAdmin) java.lang.reflect.Proxy.newProxyInstance(
          EngineAdmin.class.getClassLoader(), new Class<?>[] {EngineAdmin.class}, (proxy, method, args) -> {
            if (fault == Fault.FAIL_START_COMPACTIONS && method.getName().equals("startCompactions")) {
              throw new EngineException("injected: cannot start the compactions of shard " + shard, new RuntimeException("EIO"));
            }
            if (fault == Fault.FAIL_CHECKPOINT_RELEASE && method.getName().equals("beginCheckpoint")) {
              EngineAdmin.Checkpoint c = real.beginCheckpoint();
              return new EngineAdmin.Checkpoint() {
                @Override
                public void writeTo(Path target) {
                  c.writeTo(target);
                }

                @Override
                public void close() {
                  c.close();
                  throw new EngineException("injected: cannot release the checkpoint of shard " + shard, new RuntimeException("EIO"));
                }
              };
            }
            try {
              return method.invoke(real, args);
            } catch (java.lang.reflect.InvocationTargetException e) {
              throw e.getCause();
            }
          });
    }

    @Override
    public void close() {
      d.close();
    }
  }

  /** An engine iterator that counts its close and may fail a step. */
  private final class Counted implements EngineIterator {
    private final EngineIterator d;
    private final boolean failStep;
    private int steps;
    private boolean closed;

    Counted(EngineIterator d, boolean failStep) {
      this.d = d;
      this.failStep = failStep;
      iteratorsOpened.incrementAndGet();
    }

    @Override
    public void seekToFirst() {
      d.seekToFirst();
    }

    @Override
    public void seekToLast() {
      d.seekToLast();
    }

    @Override
    public void seek(byte[] key) {
      d.seek(key);
    }

    @Override
    public void seekForPrev(byte[] key) {
      d.seekForPrev(key);
    }

    @Override
    public boolean valid() {
      return d.valid();
    }

    @Override
    public byte[] key() {
      return d.key();
    }

    @Override
    public byte[] value() {
      return d.value();
    }

    @Override
    public void next() {
      if (failStep && ++steps == FAILING_STEP) {
        throw new EngineException("RocksDB iterator failed: Corruption: bad block in step " + steps, new RuntimeException("corrupt"));
      }
      d.next();
    }

    @Override
    public void prev() {
      d.prev();
    }

    @Override
    public void close() {
      if (!closed) {
        closed = true;
        iteratorsClosed.incrementAndGet();
      }
      d.close();
    }
  }
}
