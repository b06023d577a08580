package io.p2kv.internal;

import io.p2kv.Batch;
import io.p2kv.P2kvException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
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
 * writes with). The parts are enqueued as {@link Request.LoadPart}s under the cross-shard lock
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
    List<Shard> targets = new ArrayList<>();
    List<Request.LoadPart> requests = new ArrayList<>();
    List<Path> files = new ArrayList<>();
    createStaging();
    try {
      for (int i = 0; i < parts.size(); i++) {
        List<Batch.Op> ops = parts.get(i);
        if (ops.isEmpty()) {
          continue;
        }
        Shard shard = shards.get(i);
        Path file = staging.resolve(i + "-" + fileIds.incrementAndGet() + ".sst");
        files.add(file);
        shard.direct((engine, o) -> {
          engine.writeTable(file, o);
          return null;
        }, ops);
        byte[] from = ops.get(0).key();
        byte[] last = ops.get(ops.size() - 1).key();
        targets.add(shard);
        requests.add(
            new Request.LoadPart(file, from, Arrays.copyOf(last, last.length + 1), ops.size(), CrossShardCoordinator.payloadBytes(ops), null));
      }
      Request.LoadPart[] loads = requests.toArray(new Request.LoadPart[0]);
      coordinator.startOrdered(targets.toArray(new Shard[0]), loads);
      for (Request.LoadPart part : loads) {
        dispatcher.await(part);
      }
      for (Request.LoadPart part : loads) {
        part.resultOrThrow();
      }
    } finally {
      // An ingested file is gone (moved into its shard); one that was not is deleted.
      for (Path file : files) {
        deleteQuietly(file);
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
