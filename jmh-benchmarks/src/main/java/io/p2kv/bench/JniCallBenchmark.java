package io.p2kv.bench;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * Which rocksdbjni call reads fastest: the same point reads and 100-pair scans over one compacted
 * RocksDB instance of {@code keys} pairs (16 + 112 bytes, all in the block cache) through each
 * variant rocksdbjni 11.8.1 offers. Gets: {@code get(byte[])} (what p2kv's engine and both
 * baselines call), {@code get(ReadOptions, byte[])}, {@code get(ReadOptions, byte[], byte[])} into
 * a reused array plus a copy, and {@code get(ReadOptions, ByteBuffer, ByteBuffer)} with direct
 * buffers plus a copy. Scans: {@code key()}/{@code value()}, {@code key(byte[])}/{@code
 * value(byte[])} into reused arrays plus copies, and the direct {@code ByteBuffer} variants. The
 * copies are there because p2kv hands callers arrays they own. Plain RocksDB options (an LRU
 * block cache and a bloom filter): the variants are compared with each other, not with p2kv.
 * Measured in docs/benchmarks/READS.md ("stop 35"): none beats {@code get(byte[])} or {@code
 * key()}/{@code value()} beyond the noise.
 *
 * <p>Run: {@code java -jar jmh-benchmarks/target/benchmarks.jar JniCallBenchmark -t 1 -f 2 -prof
 * io.p2kv.bench.CpuProfiler}
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1, time = 3)
@Measurement(iterations = 4, time = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class JniCallBenchmark {
  /** One RocksDB instance, loaded and compacted. */
  @State(Scope.Benchmark)
  public static class Db {
    /** Preloaded keys. */
    @Param({"1000000"})
    public long keys;

    RocksDB db;
    Options options;
    ReadOptions readOptions;
    LRUCache cache;
    BloomFilter filter;
    Path dir;

    @Setup(Level.Trial)
    public void open() throws Exception {
      RocksDB.loadLibrary();
      dir = BenchData.tempDir("jni-calls");
      cache = new LRUCache(256L << 20);
      filter = new BloomFilter(10);
      options = new Options().setCreateIfMissing(true)
          .setTableFormatConfig(new BlockBasedTableConfig().setBlockCache(cache).setFilterPolicy(filter));
      db = RocksDB.open(options, dir.toString());
      readOptions = new ReadOptions();
      byte[] value = BenchData.value(112, new SplittableRandom(42));
      try (WriteBatch batch = new WriteBatch(); WriteOptions wo = new WriteOptions()) {
        for (long i = 0; i < keys; i++) {
          batch.put(BenchData.key(i), value);
          if (batch.count() == 1000) {
            db.write(wo, batch);
            batch.clear();
          }
        }
        db.write(wo, batch);
      }
      try (FlushOptions fo = new FlushOptions().setWaitForFlush(true)) {
        db.flush(fo);
      }
      db.compactRange();
    }

    @TearDown(Level.Trial)
    public void close() {
      readOptions.close();
      db.close();
      options.close();
      filter.close();
      cache.close();
      BenchData.deleteTree(dir);
    }
  }

  /** Per caller: its random, reused arrays and direct buffers, and its iterator. */
  @State(Scope.Thread)
  public static class Caller {
    SplittableRandom rnd;
    final byte[] keyBuf = new byte[256];
    final byte[] valueBuf = new byte[256];
    final ByteBuffer directKey = ByteBuffer.allocateDirect(256);
    final ByteBuffer directValue = ByteBuffer.allocateDirect(256);
    RocksIterator it;

    @Setup(Level.Trial)
    public void setup(Db d, ThreadParams t) {
      rnd = new SplittableRandom(7 + t.getThreadIndex());
      it = d.db.newIterator();
    }

    @TearDown(Level.Trial)
    public void close() {
      it.close();
    }

    byte[] key(Db d) {
      return BenchData.key(rnd.nextLong(d.keys));
    }

    /** The iterator, refreshed to the latest state, as p2kv's iterator pool does on borrow. */
    RocksIterator iterator() throws Exception {
      it.refresh();
      return it;
    }
  }

  @Benchmark
  public byte[] get(Db d, Caller c) throws Exception {
    return d.db.get(c.key(d));
  }

  @Benchmark
  public byte[] getWithReadOptions(Db d, Caller c) throws Exception {
    return d.db.get(d.readOptions, c.key(d));
  }

  @Benchmark
  public byte[] getIntoArray(Db d, Caller c) throws Exception {
    int n = d.db.get(d.readOptions, c.key(d), c.valueBuf);
    return n < 0 ? null : Arrays.copyOf(c.valueBuf, n);
  }

  @Benchmark
  public byte[] getDirectBuffers(Db d, Caller c) throws Exception {
    ByteBuffer key = c.directKey.clear();
    key.put(c.key(d)).flip();
    int n = d.db.get(d.readOptions, key, c.directValue.clear());
    if (n < 0) {
      return null;
    }
    byte[] value = new byte[n];
    c.directValue.get(0, value);
    return value;
  }

  @Benchmark
  public List<byte[][]> scan(Db d, Caller c) throws Exception {
    List<byte[][]> out = new ArrayList<>(100);
    RocksIterator it = c.iterator();
    for (it.seek(c.key(d)); it.isValid() && out.size() < 100; it.next()) {
      out.add(new byte[][] {it.key(), it.value()});
    }
    return out;
  }

  @Benchmark
  public List<byte[][]> scanIntoArrays(Db d, Caller c) throws Exception {
    List<byte[][]> out = new ArrayList<>(100);
    RocksIterator it = c.iterator();
    for (it.seek(c.key(d)); it.isValid() && out.size() < 100; it.next()) {
      int kn = it.key(c.keyBuf);
      int vn = it.value(c.valueBuf);
      out.add(new byte[][] {Arrays.copyOf(c.keyBuf, kn), Arrays.copyOf(c.valueBuf, vn)});
    }
    return out;
  }

  @Benchmark
  public List<byte[][]> scanDirectBuffers(Db d, Caller c) throws Exception {
    List<byte[][]> out = new ArrayList<>(100);
    RocksIterator it = c.iterator();
    for (it.seek(c.key(d)); it.isValid() && out.size() < 100; it.next()) {
      int kn = it.key(c.directKey.clear());
      int vn = it.value(c.directValue.clear());
      byte[] k = new byte[kn];
      c.directKey.get(0, k);
      byte[] v = new byte[vn];
      c.directValue.get(0, v);
      out.add(new byte[][] {k, v});
    }
    return out;
  }
}
