package io.p2kv.internal.engine.rocksdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2kv.Durability;
import io.p2kv.SeparationSettings;
import io.p2kv.internal.engine.Engine;
import io.p2kv.internal.engine.EngineAdmin;
import io.p2kv.internal.engine.EngineProperty;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RocksDbEngine#rewriteFilesBelow}'s pace: while values come back inline, the compaction's
 * output goes through the shard's rate limiter at the rate given (so a compaction that takes a
 * whole level along is no burst), the limiter is unpaced again afterwards, and a close that
 * hurries the rewrite lifts the pace and stops further rewriting. Checked on the limiter's own
 * counters and rate, not on elapsed time.
 */
class RewritePaceTest {
  @TempDir Path tmp;

  /** Every value of 64 bytes or more in blob files; garbage collection covers every blob file. */
  private static final SeparationSettings SEPARATED = new SeparationSettings(true, 64, 0, 1.0, 1.0, -1, -1);

  private static final int PAIRS = 4_000;

  private static byte[] key(int i) {
    return String.format("key-%08d", i).getBytes(StandardCharsets.UTF_8);
  }

  /** The values {@link #load} writes, the same every time. */
  private static byte[][] values() {
    Random rnd = new Random(5);
    byte[][] values = new byte[PAIRS][];
    for (int i = 0; i < PAIRS; i++) {
      values[i] = new byte[200];
      rnd.nextBytes(values[i]);
    }
    return values;
  }

  /** Loads {@code PAIRS} separated values over two flushes (a level-0 file above a deeper one). */
  private static void load(Engine engine) {
    byte[][] values = values();
    for (int i = 0; i < PAIRS; i += 2) {
      engine.put(key(i), values[i]);
    }
    engine.admin().flush();
    engine.admin().compact(); // one deeper level, still separated (the settings are not size-aware)
    for (int i = 1; i < PAIRS; i += 2) {
      engine.put(key(i), values[i]);
    }
    engine.admin().flush(); // a level-0 file overlapping all of it
  }

  private static RocksDbEngine rocks(Engine engine) {
    return (RocksDbEngine) engine;
  }

  /**
   * Starts the engine, loads it ({@link #load}), then places every value inline from now on.
   *
   * @return the file-number boundary of what is to come back inline
   */
  private static long loadAndSwitchInline(Engine engine) {
    engine.admin().startCompactions();
    load(engine);
    assertTrue(engine.admin().property(EngineProperty.BLOB_BYTES) > 0, "values in blob files");
    long boundary = engine.admin().fileNumberBoundary();
    engine.admin().applySeparation(SEPARATED.withPlacement(1 << 20, 0));
    return boundary;
  }

  private static void verify(Engine engine) {
    byte[][] values = values();
    for (int i = 0; i < PAIRS; i++) {
      assertArrayEquals(values[i], engine.get(key(i)));
    }
  }

  @Test
  void shouldPaceTheRewriteThroughTheShardLimiterAndUnpaceItAfter() {
    try (RocksDbEngineFactory factory = new RocksDbEngineFactory(1, 64L << 20, Durability.WAL, null, SEPARATED);
        Engine engine = factory.open(0, tmp.resolve("db"), true)) {
      long boundary = loadAndSwitchInline(engine);
      EngineAdmin admin = engine.admin();
      long through = rocks(engine).rewritePaceForTests().getTotalBytesThrough();
      long requests = rocks(engine).rewritePaceForTests().getTotalRequests();

      EngineAdmin.Rewrite r = admin.rewriteFilesBelow(boundary, Long.MAX_VALUE, 1L << 20);

      assertEquals(0, r.filesLeft(), "everything rewritten");
      assertEquals(0, admin.property(EngineProperty.BLOB_BYTES), "every value back inline");
      long paced = rocks(engine).rewritePaceForTests().getTotalBytesThrough() - through;
      assertTrue(paced >= (long) PAIRS * 200, "the rewrite's output (" + PAIRS * 200 + "+ bytes) went through the limiter: " + paced);
      // At 1 MiB/s the limiter grants one refill (1 ms: 1,048 bytes) per request, so the output
      // went through in that many requests; unpaced, a request takes up to 8 MiB.
      long chunks = rocks(engine).rewritePaceForTests().getTotalRequests() - requests;
      long refill = (1L << 20) * RocksDbEngine.PACE_REFILL_MICROS / 1_000_000;
      assertTrue(chunks >= paced / refill, "paced in chunks of " + refill + " bytes: " + chunks + " requests for " + paced + " bytes");
      assertEquals(RocksDbEngine.UNPACED_BYTES_PER_SECOND, rocks(engine).rewritePaceForTests().getBytesPerSecond(), "unpaced after");
      verify(engine);
    }
  }

  @Test
  void shouldRewriteNothingMoreOnceAClosingStoreHurriedIt() {
    try (RocksDbEngineFactory factory = new RocksDbEngineFactory(1, 64L << 20, Durability.WAL, null, SEPARATED);
        Engine engine = factory.open(0, tmp.resolve("db"), true)) {
      long boundary = loadAndSwitchInline(engine);
      EngineAdmin admin = engine.admin();
      long filesLeft = admin.rewriteFilesBelow(boundary, 0, Long.MAX_VALUE).filesLeft();
      assertTrue(filesLeft > 0, "files to rewrite");

      admin.hurryRewrites();
      EngineAdmin.Rewrite r = admin.rewriteFilesBelow(boundary, Long.MAX_VALUE, 1L << 20);

      assertEquals(0, r.rewrittenBytes(), "nothing rewritten after the hurry");
      assertEquals(filesLeft, r.filesLeft(), "the files are left for the next open");
      assertEquals(RocksDbEngine.UNPACED_BYTES_PER_SECOND, rocks(engine).rewritePaceForTests().getBytesPerSecond());
      assertTrue(admin.property(EngineProperty.BLOB_BYTES) > 0, "values still separated");
      verify(engine);
    }
  }
}
