package io.p2kv.internal.engine.rocksdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.p2kv.Durability;
import io.p2kv.TestSeeds;
import io.p2kv.internal.engine.Engine;
import io.p2kv.internal.engine.EngineBatch;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteBatch;

/**
 * {@link RocksDbBatch} encodes write batches on the heap in RocksDB's own format: the bytes must be
 * exactly those RocksDB's {@code WriteBatch} builds for the same operations, and batches written
 * through an engine must leave exactly what a model says, across keys and values whose lengths
 * take one to four varint bytes and batches that outgrow the encoding buffer.
 */
class RocksDbBatchTest {
  @TempDir Path tmp;

  /** A length drawn so that its varint takes 1, 2, 3 or (rarely) 4 bytes, or is 0. */
  private static int length(Random rnd, int max) {
    return switch (rnd.nextInt(8)) {
      case 0 -> 0;
      case 1, 2, 3 -> rnd.nextInt(128);
      case 4, 5 -> 128 + rnd.nextInt(16_384 - 128);
      case 6 -> Math.min(max, 16_384 + rnd.nextInt(50_000));
      default -> rnd.nextInt(200) == 0 ? Math.min(max, 2_097_152 + rnd.nextInt(1000)) : rnd.nextInt(64);
    };
  }

  private static byte[] bytes(Random rnd, int n) {
    byte[] b = new byte[n];
    rnd.nextBytes(b);
    return b;
  }

  @Test
  void shouldEncodeExactlyWhatRocksDbsWriteBatchHolds() throws Exception {
    TestSeeds.run(getClass(), "shouldEncodeExactlyWhatRocksDbsWriteBatchHolds", seed -> {
      Random rnd = new Random(seed);
      RocksDB.loadLibrary();
      List<ColumnFamilyDescriptor> descriptors = List.of(
          new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY), new ColumnFamilyDescriptor("p2kv-meta".getBytes()));
      List<ColumnFamilyHandle> handles = new ArrayList<>();
      try (DBOptions options = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true);
          RocksDB db = RocksDB.open(options, tmp.resolve("plain").toString(), descriptors, handles)) {
        ColumnFamilyHandle meta = handles.get(1);
        RocksDbBatch encoded = new RocksDbBatch(null, meta.getID());
        for (int batch = 0; batch < 50; batch++) {
          try (WriteBatch expected = new WriteBatch()) {
            int ops = 1 + rnd.nextInt(batch % 10 == 0 ? 400 : 40);
            for (int i = 0; i < ops; i++) {
              byte[] key = bytes(rnd, Math.max(1, length(rnd, 65_535)));
              byte[] value = bytes(rnd, length(rnd, 4 << 20));
              switch (rnd.nextInt(4)) {
                case 0 -> {
                  expected.put(key, value);
                  encoded.put(key, value);
                }
                case 1 -> {
                  expected.delete(key);
                  encoded.delete(key);
                }
                case 2 -> {
                  expected.put(meta, key, value);
                  encoded.putMeta(key, value);
                }
                default -> {
                  expected.delete(meta, key);
                  encoded.deleteMeta(key);
                }
              }
            }
            assertEquals(expected.count(), encoded.count());
            assertArrayEquals(expected.data(), encoded.encoded(), "batch " + batch + " of " + ops + " operations");
            try (WriteBatch built = encoded.toWriteBatch()) {
              assertArrayEquals(expected.data(), built.data(), "the native batch handed to RocksDB");
            }
            encoded.clear();
          }
        }
        for (ColumnFamilyHandle h : handles) {
          h.close();
        }
      }
    });
  }

  @Test
  void shouldLeaveWhatTheModelSaysAfterBatchesThroughTheEngine() throws Exception {
    TestSeeds.run(getClass(), "shouldLeaveWhatTheModelSaysAfterBatchesThroughTheEngine", seed -> {
      Random rnd = new Random(seed);
      TreeMap<byte[], byte[]> data = new TreeMap<>(Arrays::compareUnsigned);
      TreeMap<byte[], byte[]> meta = new TreeMap<>(Arrays::compareUnsigned);
      try (RocksDbEngineFactory factory = new RocksDbEngineFactory(1, 64L << 20, Durability.WAL, null);
          Engine engine = factory.open(0, tmp.resolve("db"), true)) {
        EngineBatch batch = engine.newBatch();
        for (int round = 0; round < 40; round++) {
          int ops = 1 + rnd.nextInt(round % 8 == 0 ? 300 : 30);
          for (int i = 0; i < ops; i++) {
            byte[] key = new byte[] {(byte) rnd.nextInt(4), (byte) rnd.nextInt(64)};
            boolean toMeta = rnd.nextInt(5) == 0;
            TreeMap<byte[], byte[]> model = toMeta ? meta : data;
            if (rnd.nextInt(4) == 0) {
              if (toMeta) {
                batch.deleteMeta(key);
              } else {
                batch.delete(key);
              }
              model.remove(key);
            } else {
              byte[] value = bytes(rnd, length(rnd, 4 << 20));
              if (toMeta) {
                batch.putMeta(key, value);
              } else {
                batch.put(key, value);
              }
              model.put(key, value);
            }
          }
          engine.write(batch);
          assertEquals(0, batch.count(), "a written batch is empty");
          for (int k = 0; k < 4 * 64; k++) {
            byte[] key = new byte[] {(byte) (k / 64), (byte) (k % 64)};
            assertArrayEquals(data.get(key), engine.get(key), "round " + round);
          }
          TreeMap<byte[], byte[]> metaRead = new TreeMap<>(Arrays::compareUnsigned);
          for (byte[][] kv : engine.scanMeta(new byte[0])) {
            metaRead.put(kv[0], kv[1]);
          }
          assertEquals(meta.size(), metaRead.size(), "round " + round);
          for (Map.Entry<byte[], byte[]> e : meta.entrySet()) {
            assertArrayEquals(e.getValue(), metaRead.get(e.getKey()), "round " + round);
          }
        }
      }
    });
  }
}
