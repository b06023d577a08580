package io.p2kv.internal;

import io.p2kv.BackupInfo;
import io.p2kv.CutStats;
import io.p2kv.P2kvException;
import io.p2kv.internal.engine.Engine;
import io.p2kv.internal.engine.EngineAdmin;
import io.p2kv.internal.engine.EngineSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.ObjIntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one store does at a consistent cut ({@link Cut}, whose Javadoc states the guarantee and the
 * protocol): take a snapshot of every shard ({@link StoreSnapshot}), write a checkpoint (a {@link
 * StoreCopy}), or add a backup ({@link Backups}). Only the cut itself holds the workers; copying
 * happens after it, with the workers running, each shard's part inside its reader guard so that
 * the store's close waits for it.
 */
final class Cuts {
  private static final Logger LOG = LoggerFactory.getLogger(Cuts.class);

  /** A shard's started checkpoint and where to write it. */
  private record ShardCopy(EngineAdmin.Checkpoint checkpoint, Path target) {}

  private final Path dir;
  /**
   * Held by a backup of this store from its checkpoint to its copy: backups stage their checkpoint
   * in one directory of the store ({@link Backups#STAGING}), so two at once would delete or mix
   * each other's files. A second backup waits for the first.
   */
  private final ReentrantLock backupLock = new ReentrantLock();
  private final String name;
  private final ShardSet shards;
  private final StoreState state;
  private final CrossShardCoordinator crossShard;
  private final OpenIterators registry;
  private final Runnable flush;
  /** {@link CutStats}: cuts that held the workers, their hold times added up, the longest. */
  private final AtomicLong cutCount = new AtomicLong();
  private final AtomicLong holdNanos = new AtomicLong();
  private final AtomicLong maxHoldNanos = new AtomicLong();

  /**
   * The cuts of one store.
   *
   * @param dir the store directory, absolute and normalised
   * @param shards its shards
   * @param state its state
   * @param crossShard orders the barriers with cross-shard batches
   * @param registry where snapshots are registered with the iterators
   * @param flush flushes every shard
   */
  Cuts(Path dir, ShardSet shards, StoreState state, CrossShardCoordinator crossShard, OpenIterators registry, Runnable flush) {
    this.dir = dir;
    this.name = dir.toString();
    this.shards = shards;
    this.state = state;
    this.crossShard = crossShard;
    this.registry = registry;
    this.flush = flush;
  }

  /** A snapshot of every shard at one cut, registered until closed. */
  StoreSnapshot snapshot() {
    List<EngineSnapshot> views = cut((shard, engine) -> engine.snapshot(), (view, shard) -> release(shard, view::close));
    return new StoreSnapshot(shards, views.toArray(new EngineSnapshot[0]), registry, name);
  }

  /**
   * A consistent, openable copy of the store in {@code target}, outside the store directory.
   *
   * @param target absent or an empty directory
   */
  void checkpoint(Path target) {
    Path to = target.toAbsolutePath().normalize();
    if (to.startsWith(dir)) {
      throw new IllegalArgumentException("checkpoint target " + to + " is inside the store " + dir + "; give a directory outside it");
    }
    checkpointTo(to);
  }

  /**
   * Adds a backup: a checkpoint staged inside the store directory (hard links, on the store's file
   * system), which {@link Backups} copies without holding the workers.
   *
   * @param backupDir the backup directory, created if absent
   * @return the new backup
   */
  BackupInfo backup(Path backupDir) {
    // Before the lock: a worker waiting for it would never reach the barrier of the backup that
    // holds it.
    RequestDispatcher.checkNotWorkerThread();
    Path staging = dir.resolve(Backups.STAGING);
    backupLock.lock();
    try {
      return Backups.add(backupDir.toAbsolutePath().normalize(), staging, identity(), () -> checkpointTo(staging));
    } finally {
      backupLock.unlock();
    }
  }

  /**
   * Writes a checkpoint (see {@link StoreCopy} for how an interrupted one is recognised): every
   * shard flushed first, with the workers running, so the log prefixes to copy are short and a
   * backup's table files are shared with the next one; at the cut each worker only starts its
   * shard's checkpoint ({@link EngineAdmin#beginCheckpoint()}: which files, which log prefixes);
   * then the files are linked and copied; the manifest last.
   */
  private void checkpointTo(Path to) {
    RequestDispatcher.checkNotWorkerThread();
    state.checkOpen();
    Manifest manifest = Manifest.read(dir);
    StoreCopy.begin(to, "checkpoint of store " + dir);
    boolean done = false;
    List<EngineAdmin.Checkpoint> started = List.of();
    try {
      flush.run();
      started = cut((shard, engine) -> engine.admin().beginCheckpoint(), (c, shard) -> release(shard, c::close));
      for (int i = 0; i < started.size(); i++) {
        shards.get(i).direct(Cuts::writeShard, new ShardCopy(started.get(i), Manifest.shardDir(to, i)));
      }
      manifest.write(to);
      Backups.newLine(to);
      StoreCopy.publish(to);
      done = true;
    } catch (IOException e) {
      throw new P2kvException("cannot write the manifest of checkpoint " + to + ": " + e, e);
    } finally {
      RuntimeException release = null;
      for (int i = 0; i < started.size(); i++) {
        RuntimeException e = release(i, started.get(i)::close); // every shard's, whatever one did
        release = release == null ? e : release;
      }
      if (!done) {
        StoreCopy.deleteQuietly(to);
      }
      if (release != null && done) {
        throw release;
      }
    }
    LOG.info("p2kv store {}: checkpoint written to {}", dir, to);
  }

  private static Void writeShard(Engine engine, ShardCopy copy) {
    copy.checkpoint.writeTo(copy.target);
    return null;
  }

  /**
   * Runs {@code action} on every shard's worker at one consistent cut and waits.
   *
   * @param action what each worker runs on its engine once all have reached the barrier
   * @param discard frees a shard's result if the cut fails
   * @return each shard's result, by shard index
   */
  <T> List<T> cut(Cut.Action<T> action, ObjIntConsumer<T> discard) {
    RequestDispatcher.checkNotWorkerThread();
    state.checkOpen();
    Cut<T> cut = new Cut<>(shards.count(), action, discard);
    try {
      crossShard.startCut(cut);
      return cut.await();
    } finally {
      long held = cut.heldNanos(); // 0 if the cut failed before any worker arrived
      if (held > 0) {
        cutCount.incrementAndGet();
        holdNanos.addAndGet(held);
        maxHoldNanos.accumulateAndGet(held, Math::max);
        LOG.debug("p2kv store {}: a cut held the workers for {} us", dir, held / 1000);
      }
    }
  }

  /** How long cuts held the writers, since the store opened. */
  CutStats stats() {
    return new CutStats(cutCount.get(), holdNanos.get(), maxHoldNanos.get());
  }

  /**
   * Frees something of one shard's engine inside the shard's guard; if the store is closing, the
   * engine frees it when it closes. An engine failure of the free is logged and returned, not
   * dropped: a checkpoint that cannot re-enable its shard's file deletions leaves that shard keeping
   * every obsolete file until it reopens, which the caller must hear of.
   *
   * @return the failure, or null if freed (or left to a closing store)
   */
  private RuntimeException release(int shard, Runnable free) {
    try {
      shards.get(shard).direct(Cuts::run, free);
      return null;
    } catch (io.p2kv.StoreClosedException | io.p2kv.StoreFailedException notOpen) {
      return null; // the engine frees every snapshot and checkpoint still open when it closes
    } catch (P2kvException e) {
      LOG.error("p2kv store {}: shard {} could not release a snapshot or checkpoint: {}", dir, shard, e.getMessage());
      return e;
    }
  }

  private static Void run(Engine engine, Runnable free) {
    free.run();
    return null;
  }

  /**
   * The store's identity for backups: its line of backups if it is a copy ({@link
   * Backups#LINE_FILE}), else shard 0's RocksDB {@code IDENTITY} (a UUID made when the DB was
   * created), or the directory's name if there is none.
   */
  private String identity() {
    String id;
    try {
      Path line = dir.resolve(Backups.LINE_FILE);
      id = Files.exists(line) ? Files.readString(line).trim() : Files.readString(Manifest.shardDir(dir, 0).resolve("IDENTITY")).trim();
    } catch (IOException e) {
      id = "store-" + dir.getFileName();
    }
    String clean = id.replaceAll("[^A-Za-z0-9-]", "");
    return clean.isEmpty() ? "store" : clean;
  }
}
