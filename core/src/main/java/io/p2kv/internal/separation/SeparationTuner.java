package io.p2kv.internal.separation;

import io.p2kv.SeparationSettings;
import io.p2kv.ValueSeparation;
import io.p2kv.internal.engine.EngineAdmin;
import io.p2kv.internal.engine.EngineException;
import io.p2kv.internal.engine.EngineProperty;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Retunes the value separation of a store's shards while it runs (the adaptive size-aware
 * policy).
 *
 * <h2>What it does</h2>
 * Every {@code periodMillis} it looks at each shard: once the shard has written a full window
 * (enough writes, bytes and update-ratio samples since the last one), it reads the window from the
 * shard's {@link WriteProfile} and the engine's flush, compaction and blob counters, asks {@link
 * SeparationModel#propose} for settings, and applies them with {@link
 * EngineAdmin#applySeparation} when the same change was proposed for {@code confirmWindows}
 * consecutive windows. Every change is logged with its reason.
 *
 * <h2>Reads, and values back inline</h2>
 * A window also closes after {@code minWindowReads} reads (the engine's point-read and
 * iterator-step tickers), so a store that is only read is judged too. When the model moves the
 * threshold up because of reads, the tuner marks the shard's next file number, collects every
 * blob file while it works (GC age cutoff 1.0), and on each step rewrites data files from before
 * the mark ({@link EngineAdmin#rewriteFilesBelow}) within a token bucket of {@code
 * inliningBytesPerSecond} per store, until none is left; then GC goes back to the policy's
 * setting. The chosen settings and the mark are saved in the shard's metadata ({@link
 * EngineAdmin#saveTunerState}) after every change and restored at open.
 *
 * <h2>Concurrency</h2>
 * One daemon thread, {@code p2kv-separation-tuner}, shared by the store's shards; nothing runs on
 * the workers. The workers only fill their profiles (see {@link WriteProfile}); {@code setOptions}
 * runs here and does not stop the worker's writes. {@link #retuneNow()} runs one step on the
 * calling thread (tests drive the tuner through it, with no timer); a lock keeps it and the timer
 * from overlapping.
 *
 * <h2>Stability</h2>
 * A window needs at least {@code minWindowWrites} writes, {@code minWindowBytes} bytes and {@code
 * minWindowSamples} update-ratio samples; the model needs a 5 % cost margin to move medium
 * values and separate thresholds to turn garbage collection off and on; class thresholds move in
 * 25 % steps; and a change must be proposed by {@code confirmWindows} consecutive windows.
 *
 * <h2>Shutdown</h2>
 * {@link #close()} stops the thread and waits for a step in progress, before the store closes its
 * engines.
 */
public final class SeparationTuner implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SeparationTuner.class);

  /** Default period of the timer. */
  public static final long DEFAULT_PERIOD_MILLIS = 500;

  /**
   * Window limits and confirmation.
   *
   * @param periodMillis how often the timer looks at the shards
   * @param minWindowWrites writes a window needs
   * @param minWindowBytes key and value bytes a window needs
   * @param minWindowSamples update-ratio samples a window needs
   * @param confirmWindows consecutive windows that must propose the same change
   * @param minWindowReads reads (point reads and scanned pairs) that close a window whatever the
   *     writes
   * @param inliningBytesPerSecond bytes the store rewrites per second, at most, to bring separated
   *     values back inline (data files and the values their rewrite moves, shared by its shards);
   *     {@code Long.MAX_VALUE} for no bound
   */
  public record Limits(
      long periodMillis,
      long minWindowWrites,
      long minWindowBytes,
      long minWindowSamples,
      int confirmWindows,
      long minWindowReads,
      long inliningBytesPerSecond) {
    /**
     * The defaults: half a second, 10,000 writes, 4 MiB, 64 samples, two windows; a window also
     * closes after 20,000 reads; values come back inline at up to 32 MiB rewritten per second per
     * store.
     */
    public static final Limits DEFAULT =
        new Limits(DEFAULT_PERIOD_MILLIS, 10_000, 4L << 20, 64, 2, 20_000, 32L << 20);

    /**
     * Limits with the default read window and no bound on the rate of bringing values inline
     * (tests).
     *
     * @param periodMillis how often the timer looks at the shards
     * @param minWindowWrites writes a window needs
     * @param minWindowBytes key and value bytes a window needs
     * @param minWindowSamples update-ratio samples a window needs
     * @param confirmWindows consecutive windows that must propose the same change
     */
    public Limits(long periodMillis, long minWindowWrites, long minWindowBytes, long minWindowSamples, int confirmWindows) {
      this(periodMillis, minWindowWrites, minWindowBytes, minWindowSamples, confirmWindows, 20_000, Long.MAX_VALUE);
    }
  }

  /**
   * One tuned shard.
   *
   * @param index shard index
   * @param engine its engine
   * @param profile its worker's write profile
   */
  public record TunedShard(int index, EngineAdmin engine, WriteProfile profile) {}

  /**
   * A change applied to a shard.
   *
   * @param shard the shard
   * @param from the settings before
   * @param to the settings after
   * @param reason why
   */
  public record Change(int shard, SeparationSettings from, SeparationSettings to, String reason) {}

  private final String storeName;
  private final ValueSeparation policy;
  private final Limits limits;
  private final ShardState[] shards;
  private final ReentrantLock stepLock = new ReentrantLock();
  private ScheduledExecutorService timer;
  private volatile boolean closed;

  /**
   * Creates a tuner; {@link #start()} starts its timer.
   *
   * @param storeName the store, for the log
   * @param policy the adaptive policy
   * @param limits window limits
   * @param tuned the shards
   */
  public SeparationTuner(String storeName, ValueSeparation policy, Limits limits, List<TunedShard> tuned) {
    this.storeName = storeName;
    this.policy = policy;
    this.limits = limits;
    this.shards = new ShardState[tuned.size()];
    for (int i = 0; i < shards.length; i++) {
      shards[i] = new ShardState(tuned.get(i));
    }
  }

  /** Starts the timer thread. */
  public void start() {
    timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "p2kv-separation-tuner");
              t.setDaemon(true);
              return t;
            });
    timer.scheduleWithFixedDelay(this::timerStep, limits.periodMillis(), limits.periodMillis(), TimeUnit.MILLISECONDS);
  }

  private void timerStep() {
    try {
      retuneNow();
    } catch (RuntimeException e) {
      // Never let the timer die: a failed step is logged and the next one tries again.
      LOG.warn("p2kv store {}: value-separation retune failed: {}", storeName, e.toString());
    }
  }

  /**
   * Runs one tuning step for every shard on the calling thread.
   *
   * @return the changes applied
   */
  public List<Change> retuneNow() {
    List<Change> changes = new ArrayList<>();
    stepLock.lock();
    try {
      if (closed) {
        return changes;
      }
      for (ShardState s : shards) {
        Change c = s.step();
        if (c != null) {
          changes.add(c);
        }
      }
    } finally {
      stepLock.unlock();
    }
    return changes;
  }

  /** Stops the timer and waits for a running step. Idempotent. */
  @Override
  public void close() {
    // A step may be inside a paced rewrite (minutes for a large shard at a low rate): let it end
    // at full speed instead of waiting for it.
    for (ShardState state : shards) {
      state.shard.engine().hurryRewrites();
    }
    stepLock.lock();
    try {
      closed = true;
    } finally {
      stepLock.unlock();
    }
    if (timer != null) {
      timer.shutdownNow();
      boolean interrupted = false;
      while (true) {
        try {
          if (timer.awaitTermination(10, TimeUnit.SECONDS)) {
            break;
          }
          LOG.warn("p2kv store {}: waiting for the value-separation tuner to stop", storeName);
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Per-shard tuning state (touched only under {@code stepLock}). */
  private final class ShardState {
    private final TunedShard shard;
    private WriteProfile.Snapshot last = WriteProfile.Snapshot.EMPTY;
    private long lastReads;
    private long lastFlush;
    private long lastCompaction;
    private long lastBlob;
    private long lastRelocated;
    private double flushedSst;
    private double compactedSst;
    private SeparationSettings pending;
    private int pendingWindows;
    private boolean warnedOverride;
    /** The settings the model chose (applied with full garbage collection while inlining). */
    private SeparationSettings chosen;
    /** Files numbered below this are being rewritten to bring values back inline; 0: none. */
    private long inlineBelow;
    private long inliningStartNanos;
    private long inliningRewritten;
    private long inliningRelocatedStart;
    private long inliningBlobBytesStart;
    private double credit;
    private long creditNanos;

    ShardState(TunedShard shard) {
      this.shard = shard;
      EngineAdmin engine = shard.engine();
      chosen = engine.separation();
      lastReads = reads(engine);
      if (chosen.mediumFromBytes() >= 0 && !engine.separationOverridden()) {
        restore(engine);
      }
      shard.profile().nextWindow(chosen.mediumFromBytes(), chosen.largeFromBytes());
    }

    /**
     * Applies the state saved by the last session, so a store that turned read-heavy does not
     * reopen in insert mode (and one that was bringing values inline goes on). Saved settings that
     * no longer fit the policy (other garbage ratio, other given classes) are ignored.
     */
    private void restore(EngineAdmin engine) {
      TunerState saved;
      try {
        saved = TunerState.decode(engine.loadTunerState());
      } catch (RuntimeException e) {
        LOG.warn("p2kv store {} shard {}: ignoring the saved value-separation state: {}", storeName, shard.index(), e.toString());
        return;
      }
      if (saved == null
          || Double.compare(saved.settings().gcGarbageRatio(), policy.gcGarbageRatio()) != 0
          || (policy.thresholdsGiven()
              && (saved.settings().mediumFromBytes() != policy.mediumFromBytes()
                  || saved.settings().largeFromBytes() != policy.largeFromBytes()))) {
        return;
      }
      if (!apply(engine, saved.settings(), saved.inlineBelow())) {
        return;
      }
      if (inlineBelow > 0) {
        startInliningClock(engine);
        countFilesLeft(engine);
      }
      LOG.info("p2kv store {} shard {}: value separation restored to {}{}", storeName, shard.index(), chosen,
          inlineBelow > 0 ? ", bringing separated values back inline" : "");
    }

    /** What the engine runs: the chosen settings, with every blob file collected while inlining. */
    private SeparationSettings applied() {
      return inlineBelow > 0 ? chosen.withGc(1.0, chosen.gcGarbageRatio()) : chosen;
    }

    Change step() {
      EngineAdmin engine = shard.engine();
      if (engine.separation().mediumFromBytes() < 0) {
        return null; // an engine without size-aware value separation
      }
      if (engine.separationOverridden()) {
        if (!warnedOverride) {
          warnedOverride = true;
          LOG.warn(
              "p2kv store {} shard {}: the RocksDB tuning hook changed the blob options ({}); adaptive value separation leaves this shard alone",
              storeName, shard.index(), engine.separation());
        }
        return null;
      }
      Change inlined = inlineBelow > 0 ? continueInlining(engine) : null;
      WriteProfile.Snapshot now = shard.profile().snapshot();
      WriteProfile.Window w = now.minus(last);
      long readsNow = reads(engine);
      long reads = Math.max(0, readsNow - lastReads);
      long writes = w.puts() + w.deletes();
      long bytes = w.keyBytes() + w.totalValueBytes();
      boolean writeWindow =
          writes >= limits.minWindowWrites() && bytes >= limits.minWindowBytes() && w.sampledWrites() >= limits.minWindowSamples();
      boolean readWindow = reads >= limits.minWindowReads();
      if (!writeWindow && !readWindow) {
        return inlined;
      }
      last = now;
      lastReads = readsNow;
      measureAmplification(engine);
      SeparationSettings current = chosen;
      int[] fixed = policy.thresholdsGiven() ? new int[] {policy.mediumFromBytes(), policy.largeFromBytes()} : null;
      double garbage = ratio(engine.property(EngineProperty.BLOB_GARBAGE_BYTES), engine.property(EngineProperty.BLOB_BYTES));
      long[] large = w.from(Math.max(1, current.largeFromBytes()));
      SeparationModel.Inputs in =
          new SeparationModel.Inputs(
              w.meanKeyBytes(), w.mediumPuts(), w.mediumBytes(), w.updateRatio(), amplification(engine), garbage,
              writes, reads, large[0], large[1], w.sampledWrites() >= limits.minWindowSamples());
      SeparationModel.Proposal p =
          SeparationModel.propose(current, in, fixed, policy.gcAgeCutoff(), policy.gcGarbageRatio());
      // The next window counts medium values by the classes just proposed.
      shard.profile().nextWindow(p.settings().mediumFromBytes(), p.settings().largeFromBytes());
      if (p.settings().equals(current)) {
        pending = null;
        pendingWindows = 0;
        return inlined;
      }
      if (p.settings().equals(pending)) {
        pendingWindows++;
      } else {
        pending = p.settings();
        pendingWindows = 1;
      }
      if (pendingWindows < limits.confirmWindows()) {
        return inlined;
      }
      pending = null;
      pendingWindows = 0;
      SeparationSettings next = p.settings();
      long nextInlineBelow = inlineBelow;
      if (next.minBlobBytes() < current.minBlobBytes()) {
        nextInlineBelow = 0; // separating again: nothing to bring back
      } else if (next.minBlobBytes() > current.minBlobBytes() && p.readDriven() && inlineBelow == 0) {
        nextInlineBelow = engine.fileNumberBoundary();
      }
      boolean starts = nextInlineBelow > 0 && inlineBelow == 0;
      SeparationSettings before = applied();
      if (!apply(engine, next, nextInlineBelow)) {
        return inlined;
      }
      if (starts) {
        startInliningClock(engine);
        countFilesLeft(engine);
      }
      return changed(engine, before,
          p.reason() + (starts ? "; bringing values already separated back inline, at most " + rateText() : ""));
    }

    /**
     * Makes {@code nextChosen} and {@code nextInlineBelow} the shard's state and applies it; on an
     * engine failure, logs it and keeps the state as it was (the next step tries again).
     *
     * @return whether the engine took the settings
     */
    private boolean apply(EngineAdmin engine, SeparationSettings nextChosen, long nextInlineBelow) {
      SeparationSettings previousChosen = chosen;
      long previousInlineBelow = inlineBelow;
      chosen = nextChosen;
      inlineBelow = nextInlineBelow;
      try {
        engine.applySeparation(applied());
        return true;
      } catch (EngineException e) {
        LOG.warn("p2kv store {} shard {}: cannot apply value separation {}: {}", storeName, shard.index(), applied(), e.getMessage());
        chosen = previousChosen;
        inlineBelow = previousInlineBelow;
        return false;
      }
    }

    /** Saves the state applied, logs the change and returns it. */
    private Change changed(EngineAdmin engine, SeparationSettings before, String reason) {
      save(engine);
      LOG.info("p2kv store {} shard {}: value separation {} -> {} ({})", storeName, shard.index(), before, applied(), reason);
      return new Change(shard.index(), before, applied(), reason);
    }

    /** Rewrites nothing; makes {@code stats()} show the files left from the start. */
    private void countFilesLeft(EngineAdmin engine) {
      try {
        engine.rewriteFilesBelow(inlineBelow, 0, Long.MAX_VALUE);
      } catch (EngineException e) {
        LOG.warn("p2kv store {} shard {}: cannot count the files left to rewrite: {}", storeName, shard.index(), e.getMessage());
      }
    }

    /** Starts the rate's token bucket with one period's worth, so the first step rewrites already. */
    private void startInliningClock(EngineAdmin engine) {
      inliningStartNanos = System.nanoTime();
      creditNanos = inliningStartNanos;
      credit = perShardRate() * Math.max(1, limits.periodMillis()) / 1000;
      inliningRewritten = 0;
      inliningRelocatedStart = Math.max(0, engine.property(EngineProperty.BLOB_GC_RELOCATED_BYTES));
      inliningBlobBytesStart = Math.max(0, engine.property(EngineProperty.BLOB_BYTES));
    }

    /**
     * Rewrites the next data files from before the switch, within the rate, in two ways. Each
     * compaction is paced by the engine at {@code inliningBytesPerSecond} (one shard rewrites at a
     * time, on this thread), so even one that takes a whole level along is no burst. Between
     * steps, a token bucket earns the shard's share of the rate while the shard waits and the full
     * rate while it rewrites, and is charged every byte rewritten: what a paced step took
     * longer or shorter than its bytes is settled before the next one.
     */
    private Change continueInlining(EngineAdmin engine) {
      long nowNanos = System.nanoTime();
      long maxBytes;
      boolean bounded = limits.inliningBytesPerSecond() != Long.MAX_VALUE;
      if (!bounded) {
        maxBytes = Long.MAX_VALUE;
      } else {
        double perShard = perShardRate();
        credit = Math.min(credit + perShard * (nowNanos - creditNanos) / 1e9, perShard);
        creditNanos = nowNanos;
        if (credit <= 0) {
          return null;
        }
        maxBytes = (long) credit;
      }
      EngineAdmin.Rewrite r;
      try {
        r = engine.rewriteFilesBelow(inlineBelow, maxBytes, limits.inliningBytesPerSecond());
      } catch (EngineException e) {
        LOG.warn("p2kv store {} shard {}: bringing values back inline failed, will retry: {}", storeName, shard.index(), e.getMessage());
        return null;
      }
      if (bounded) {
        long endNanos = System.nanoTime();
        double earned = limits.inliningBytesPerSecond() * ((endNanos - nowNanos) / 1e9);
        credit = Math.min(credit + earned - r.rewrittenBytes(), perShardRate());
        creditNanos = endNanos;
      }
      inliningRewritten += r.rewrittenBytes();
      if (r.filesLeft() > 0) {
        return null;
      }
      SeparationSettings before = applied();
      if (!apply(engine, chosen, 0)) {
        return null;
      }
      long relocated = Math.max(0, engine.property(EngineProperty.BLOB_GC_RELOCATED_BYTES)) - inliningRelocatedStart;
      String reason = String.format(Locale.ROOT,
          "separated values are back inline: rewrote %d MiB of data files and relocated %d MiB of blob values "
              + "(blob files %d -> %d MiB) in %.1f s",
          inliningRewritten >> 20, relocated >> 20, inliningBlobBytesStart >> 20,
          Math.max(0, engine.property(EngineProperty.BLOB_BYTES)) >> 20, (System.nanoTime() - inliningStartNanos) / 1e9);
      return changed(engine, before, reason);
    }

    private void save(EngineAdmin engine) {
      try {
        engine.saveTunerState(new TunerState(chosen, inlineBelow).encode());
      } catch (EngineException e) {
        LOG.warn("p2kv store {} shard {}: cannot save the value-separation state: {}", storeName, shard.index(), e.getMessage());
      }
    }

    /**
     * Updates the SST write amplification from the engine's counters: flush and compaction bytes
     * minus what went to blob files, per SST byte flushed. Compactions come in bursts, so the
     * byte counts are summed with a decay of {@link #DECAY} per window (about five windows).
     */
    private void measureAmplification(EngineAdmin engine) {
      long flush = engine.property(EngineProperty.FLUSH_WRITE_BYTES);
      long compaction = engine.property(EngineProperty.COMPACTION_WRITE_BYTES);
      long blob = engine.property(EngineProperty.BLOB_WRITE_BYTES);
      long relocated = engine.property(EngineProperty.BLOB_GC_RELOCATED_BYTES);
      if (flush < 0 || compaction < 0 || blob < 0 || relocated < 0) {
        return;
      }
      long dFlush = flush - lastFlush;
      long dCompaction = compaction - lastCompaction;
      long dBlob = blob - lastBlob;
      long dRelocated = relocated - lastRelocated;
      lastFlush = flush;
      lastCompaction = compaction;
      lastBlob = blob;
      lastRelocated = relocated;
      // Blob bytes written by flushes = all blob bytes minus those relocated by compactions.
      long sstFlushed = Math.max(0, dFlush - Math.max(0, dBlob - dRelocated));
      long sstCompacted = Math.max(0, dCompaction - dRelocated);
      flushedSst = DECAY * flushedSst + sstFlushed;
      compactedSst = DECAY * compactedSst + sstCompacted;
    }

    /**
     * The LSM-tree amplification for the model: what was measured, but at least the number of
     * levels (a young tree has flushed more than it has compacted so far, and will compact it).
     */
    private double amplification(EngineAdmin engine) {
      long levels = engine.property(EngineProperty.LSM_LEVELS);
      double floor = levels > 0 ? levels : 2;
      if (flushedSst < (1 << 20)) {
        return floor;
      }
      return Math.max(floor, (flushedSst + compactedSst) / flushedSst);
    }
  }

  private String rateText() {
    return limits.inliningBytesPerSecond() == Long.MAX_VALUE
        ? "without a rate bound"
        : (limits.inliningBytesPerSecond() >> 20) + " MiB/s per store (files and the values they bring back)";
  }

  /** Each shard's share of the store's rate of bringing values back inline, bytes per second. */
  private double perShardRate() {
    return (double) limits.inliningBytesPerSecond() / shards.length;
  }

  /** Reads the engine counted: point reads plus pairs iterators stepped onto. */
  private static long reads(EngineAdmin engine) {
    return Math.max(0, engine.property(EngineProperty.POINT_READS)) + Math.max(0, engine.property(EngineProperty.SCANNED_PAIRS));
  }

  /** Per-window decay of the amplification byte counts. */
  static final double DECAY = 0.8;

  private static double ratio(long part, long whole) {
    return part <= 0 || whole <= 0 ? 0 : (double) part / whole;
  }
}
