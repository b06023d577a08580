package io.p2kv.internal;

import io.p2kv.Batch;
import io.p2kv.P2kvException;
import io.p2kv.internal.engine.Engine;
import io.p2kv.internal.engine.EngineException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Bulk loads ({@code P2kv.load}): a batch written as one sorted table file per shard on the
 * caller's thread, then ingested by each shard's worker, bypassing the write-ahead log and the
 * memtable.
 *
 * <p>The caller sorts the batch's operations by unsigned key (stably, so of two writes of a key
 * the later one is kept), splits them by shard, and writes each shard's part to a file in {@link
 * #STAGING} inside the engine's reader guard (so a concurrent close cannot free the options it
 * writes with). A sorted load ({@code P2kv.loadSorted}) takes operations already in key order from
 * an iterator and writes each to its shard's file as it comes, every shard's file open at once, so
 * it holds no operation longer than it takes to write it. The parts are enqueued as {@link Request.LoadPart}s under the cross-shard lock
 * ({@link CrossShardCoordinator#startOrdered}), as range deletes are: on every shard each
 * cross-shard batch and each consistent cut is ahead of all of a load's parts or behind all of
 * them. Each worker ingests its part alone, after the requests queued before it, with the value
 * cache and the update pre-reads bracketed as for a range delete of the part's key range. A part
 * is atomic and durable once ingested; parts on different shards are not atomic together. Files
 * left by a failure are deleted here; files left by a crash are deleted when the store opens.
 */
final class BulkLoads {
  /** The directory, inside the store's, where callers write table files before their ingest. */
  static final String STAGING = ".load-staging";

  private final Path staging;
  private final ShardSet shards;
  private final StoreState state;
  private final CrossShardCoordinator coordinator;
  private final RequestDispatcher dispatcher;
  private final AtomicLong fileIds = new AtomicLong();

  BulkLoads(Path dir, ShardSet shards, StoreState state, CrossShardCoordinator coordinator, RequestDispatcher dispatcher) {
    this.staging = dir.resolve(STAGING);
    this.shards = shards;
    this.state = state;
    this.coordinator = coordinator;
    this.dispatcher = dispatcher;
  }

  /** Loads {@code batch} (validated, not empty) and waits until every shard's part is ingested. */
  void load(Batch batch) {
    RequestDispatcher.checkNotWorkerThread();
    state.checkOpen();
    List<List<Batch.Op>> parts = lastWriteOfEachKeyByShard(batch.ops(), shards);
    try (Tables tables = new Tables()) {
      for (List<Batch.Op> part : parts) {
        for (Batch.Op op : part) {
          tables.write(op);
        }
        tables.finishOpen(); // one shard's file at a time, as the batch comes split by shard
      }
      tables.ingest();
    }
  }

  /**
   * Loads {@code ops} (each validated as the iterator yields it), which come in ascending unsigned
   * key order, the last of adjacent operations on one key kept, writing each shard's table file as
   * they come; waits until every shard's part is ingested. Nothing is ingested if the iterator
   * throws or a key is out of order.
   *
   * @throws IllegalArgumentException if a key is below the key before it
   */
  void loadSorted(Iterator<Batch.Op> ops) {
    RequestDispatcher.checkNotWorkerThread();
    state.checkOpen();
    try (Tables tables = new Tables()) {
      Batch.Op pending = null;
      long n = 0;
      while (ops.hasNext()) {
        Batch.Op op = ops.next();
        if (pending != null) {
          int order = Arrays.compareUnsigned(pending.key(), op.key());
          if (order > 0) {
            throw new IllegalArgumentException(
                "operation " + n + " of a sorted load has a key below the key before it: keys must come in ascending unsigned order");
          }
          if (order < 0) {
            tables.write(pending);
          }
        }
        pending = op;
        n++;
      }
      if (pending == null) {
        return;
      }
      tables.write(pending);
      tables.ingest();
    }
  }

  /**
   * Not thread-safe: one load's table files, a file per shard, each written inside its shard's
   * reader guard (so a concurrent close cannot free the options it is written with) from its first
   * operation until it is finished. Closing deletes every file not ingested.
   */
  private final class Tables implements AutoCloseable {
    private final Part[] parts = new Part[shards.count()];
    private final List<Path> files = new ArrayList<>();

    /** Adds {@code op} to its shard's file; keys come in strictly increasing order per shard. */
    void write(Batch.Op op) {
      int i = shards.indexOf(op.key()); // no hash with one shard
      Part part = parts[i];
      if (part == null) {
        part = parts[i] = open(shards.get(i));
      }
      part.write(op);
    }

    private Part open(Shard shard) {
      if (files.isEmpty()) {
        createStaging();
      }
      Path file = staging.resolve(shard.index + "-" + fileIds.incrementAndGet() + ".sst");
      files.add(file);
      shard.enterDirect();
      try {
        return new Part(shard, file, shard.engine.openTable(file));
      } catch (EngineException e) {
        shard.exitDirect();
        throw Errors.shardFailed(shard.index, e);
      } catch (RuntimeException | Error e) {
        shard.exitDirect();
        throw e;
      }
    }

    /** Finishes every file still open, and leaves its shard's reader guard. */
    void finishOpen() {
      for (Part part : parts) {
        if (part != null && part.writer != null) {
          part.finish();
        }
      }
    }

    /** Finishes the files and has each shard's worker ingest its own; waits for all of them. */
    void ingest() {
      finishOpen();
      List<Shard> targets = new ArrayList<>();
      List<Request.LoadPart> requests = new ArrayList<>();
      for (Part part : parts) {
        if (part != null) {
          targets.add(part.shard);
          requests.add(new Request.LoadPart(part.file, part.first, Arrays.copyOf(part.last, part.last.length + 1),
              (int) Math.min(Integer.MAX_VALUE, part.ops), part.bytes, null));
        }
      }
      Request.LoadPart[] loads = requests.toArray(new Request.LoadPart[0]);
      coordinator.startOrdered(targets.toArray(new Shard[0]), loads);
      for (Request.LoadPart part : loads) {
        dispatcher.await(part);
      }
      for (Request.LoadPart part : loads) {
        part.resultOrThrow();
      }
    }

    /** Frees the writers still open; deletes the files (an ingested file is gone already). */
    @Override
    public void close() {
      for (Part part : parts) {
        if (part != null && part.writer != null) {
          part.abandon();
        }
      }
      for (Path file : files) {
        deleteQuietly(file);
      }
    }
  }

  /** One shard's table file of a load, its writer while open, and its key range. */
  private static final class Part {
    final Shard shard;
    final Path file;
    Engine.TableWriter writer;
    byte[] first;
    byte[] last;
    long ops;
    long bytes;

    Part(Shard shard, Path file, Engine.TableWriter writer) {
      this.shard = shard;
      this.file = file;
      this.writer = writer;
    }

    void write(Batch.Op op) {
      try {
        if (op.isDelete()) {
          writer.delete(op.key());
        } else {
          writer.put(op.key(), op.value());
        }
      } catch (EngineException e) {
        throw Errors.shardFailed(shard.index, e);
      }
      if (first == null) {
        first = op.key();
      }
      last = op.key();
      ops++;
      bytes += op.key().length + (op.isDelete() ? 0 : op.value().length);
    }

    void finish() {
      try {
        writer.finish();
      } catch (EngineException e) {
        throw Errors.shardFailed(shard.index, e);
      } finally {
        abandon();
      }
    }

    /** Closes the writer and leaves the shard's reader guard. */
    void abandon() {
      try {
        writer.close();
      } finally {
        writer = null;
        shard.exitDirect();
      }
    }
  }

  /**
   * The last write of each key of {@code ops}, in unsigned key order, split by shard: entry i holds
   * shard i's writes.
   */
  static List<List<Batch.Op>> lastWriteOfEachKeyByShard(List<Batch.Op> ops, ShardSet shards) {
    Batch.Op[] sorted = KeyOrder.sort(ops.toArray(new Batch.Op[0]));
    List<List<Batch.Op>> parts = new ArrayList<>(shards.count());
    for (int i = 0; i < shards.count(); i++) {
      parts.add(new ArrayList<>(sorted.length / shards.count() + 16));
    }
    for (int i = 0; i < sorted.length; i++) {
      if (i + 1 < sorted.length && Arrays.equals(sorted[i].key(), sorted[i + 1].key())) {
        continue; // a later write of the same key follows
      }
      parts.get(shards.indexOf(sorted[i].key())).add(sorted[i]); // no hash with one shard
    }
    return parts;
  }

  private void createStaging() {
    try {
      Files.createDirectories(staging);
    } catch (IOException e) {
      throw new P2kvException("cannot create " + staging + " for a bulk load: " + e, e);
    }
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // Deleted at the next open.
    }
  }
}
