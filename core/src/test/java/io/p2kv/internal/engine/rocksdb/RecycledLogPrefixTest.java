package io.p2kv.internal.engine.rocksdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2kv.TestSeeds;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RecycledLogPrefix} against logs written here the way RocksDB's {@code log::Writer} writes
 * them with {@code recycle_log_file_num} set (11-byte headers, records split over 32 KiB blocks, a
 * block's last 1-10 bytes zeroed), laid over the bytes of an older log as a recycled file is: for
 * every cut, the prefix ends exactly after the last write batch at or before it.
 * ({@code RocksDbCheckpointTest} checks the same on logs RocksDB wrote.)
 */
class RecycledLogPrefixTest {
  @TempDir Path tmp;

  /** Writes records as RocksDB's recycling log writer does, and where each write batch ends. */
  private static final class LogWriter {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final List<Long> ends = new ArrayList<>();
    final int logNumber;
    int blockOffset;

    LogWriter(int logNumber) {
      this.logNumber = logNumber;
    }

    void batch(long sequence, int count, int bytes, Random random) {
      byte[] payload = new byte[Math.max(12, bytes)];
      random.nextBytes(payload);
      ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN).putLong(0, sequence).putInt(8, count);
      record(payload, false);
      ends.add((long) out.size());
    }

    void record(byte[] payload, boolean metadata) {
      int left = payload.length;
      int at = 0;
      boolean begin = true;
      do {
        int leftover = RecycledLogPrefix.BLOCK_SIZE - blockOffset;
        if (leftover < 11) {
          out.write(new byte[leftover], 0, leftover);
          blockOffset = 0;
        }
        int avail = RecycledLogPrefix.BLOCK_SIZE - blockOffset - 11;
        int fragment = Math.min(left, avail);
        boolean end = fragment == left;
        int type = metadata ? 11 : begin && end ? 5 : begin ? 6 : end ? 8 : 7;
        emit(type, payload, at, fragment);
        at += fragment;
        left -= fragment;
        begin = false;
      } while (left > 0);
    }

    private void emit(int type, byte[] payload, int from, int length) {
      ByteBuffer header = ByteBuffer.allocate(11).order(ByteOrder.LITTLE_ENDIAN);
      header.putShort(4, (short) length).put(6, (byte) type).putInt(7, logNumber);
      CRC32C crc = new CRC32C();
      crc.update(type);
      crc.update(header.array(), 7, 4);
      crc.update(payload, from, length);
      header.putInt(0, masked(crc));
      out.write(header.array(), 0, 11);
      out.write(payload, from, length);
      blockOffset += 11 + length;
    }
  }

  /** What a record header stores of its CRC32C: RocksDB's {@code crc32c::Mask}. */
  private static int masked(CRC32C crc) {
    int c = (int) crc.getValue();
    return ((c >>> 15) | (c << 17)) + 0xa282ead8;
  }

  @Test
  void shouldEndAfterTheLastBatchAtOrBeforeTheCutInARecycledFile() {
    TestSeeds.run(getClass(), "recycled", seed -> everyCut(new Random(seed)));
  }

  private void everyCut(Random random) throws IOException {
    LogWriter old = new LogWriter(7); // the file's previous life: more bytes than the new log
    for (long s = 1; old.out.size() < 300_000; s += 3) {
      old.batch(s, 3, size(random), random);
    }
    LogWriter log = new LogWriter(12);
    log.record(new byte[] {8, 0, 0, 0, 0, 0, 0, 0, 0, 0}, true); // a timestamp-size record first
    List<Long> lastSequences = new ArrayList<>();
    long sequence = 100;
    while (log.out.size() < 200_000) {
      int count = 1 + random.nextInt(4);
      int room = RecycledLogPrefix.BLOCK_SIZE - log.blockOffset - 11;
      // Now and then a batch that leaves 0-10 bytes of its block: too few for a header, or zeros
      // a reader must skip.
      log.batch(sequence, count, random.nextInt(4) == 0 && room > 30 ? room - random.nextInt(11) : size(random), random);
      sequence += count + random.nextInt(2); // a gap now and then, as an ingest leaves
      lastSequences.add(sequence - 1);
    }
    byte[] file = old.out.toByteArray();
    byte[] fresh = log.out.toByteArray();
    System.arraycopy(fresh, 0, file, 0, fresh.length);
    Path path = tmp.resolve("000012.log");
    Files.write(path, file);

    assertEquals(0, RecycledLogPrefix.bytesThrough(path, 12, 99));
    for (int i = 0; i < lastSequences.size(); i++) {
      long cut = lastSequences.get(i);
      assertEquals(log.ends.get(i), RecycledLogPrefix.bytesThrough(path, 12, cut), "cut at " + cut);
    }
    assertEquals(fresh.length, RecycledLogPrefix.bytesThrough(path, 12, Long.MAX_VALUE), "everything, and not the stale tail");
    assertEquals(0, RecycledLogPrefix.bytesThrough(path, 13, Long.MAX_VALUE), "another log's records");
    // A cut short copy (the writer was mid-record when the file was read) keeps the whole batches.
    Path shortCopy = tmp.resolve("000012-short.log");
    long middle = log.ends.get(log.ends.size() / 2);
    Files.write(shortCopy, java.util.Arrays.copyOf(fresh, (int) middle + 20));
    assertEquals(middle, RecycledLogPrefix.bytesThrough(shortCopy, 12, Long.MAX_VALUE));
  }

  /** Sizes from the 12 bytes of an empty batch to some that span several blocks. */
  private static int size(Random random) {
    return switch (random.nextInt(10)) {
      case 0 -> 40_000 + random.nextInt(70_000);
      case 1 -> random.nextInt(12);
      default -> 12 + random.nextInt(3000);
    };
  }

  @Test
  void shouldRefuseACompressedLog() throws IOException {
    ByteBuffer record = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
    record.putShort(4, (short) 1).put(6, (byte) 9);
    CRC32C crc = new CRC32C();
    crc.update(9);
    crc.update(new byte[] {7});
    record.putInt(0, masked(crc)).put(7, (byte) 7);
    Path path = tmp.resolve("000003.log");
    Files.write(path, record.array());
    IOException e = assertThrows(IOException.class, () -> RecycledLogPrefix.bytesThrough(path, 3, 10));
    assertTrue(e.getMessage().contains("wal_compression"), e.getMessage());
  }
}
