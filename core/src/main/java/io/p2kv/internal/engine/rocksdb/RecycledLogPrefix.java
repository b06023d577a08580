package io.p2kv.internal.engine.rocksdb;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * How much of a write-ahead log holds the writes up to a sequence number, read from the log's own
 * records. A checkpoint of a DB that recycles its logs ({@code recycle_log_file_num}) needs it:
 * RocksDB writes a recycled log over an old file in place, so the file's size says nothing about
 * where the writes made before the cut end, and past them lie the writes made after it and then
 * the stale records of the file's previous life.
 *
 * <p>The format is RocksDB's ({@code db/log_format.h}): 32 KiB blocks of physical records, each a
 * header (masked CRC32C, length, type, and in the recyclable format the low 32 bits of the log
 * number) and a payload; a logical record (one write batch, whose first 8 bytes are its sequence
 * number) is one full record or a first, middles and a last; a block's last bytes too few for a
 * header are zeros. Reading stops at the first write batch after the cut, and at the first record
 * that is not intact or belongs to another log (a stale one, or one being written as we read); the
 * prefix ends after the last whole write batch before that.
 */
final class RecycledLogPrefix {
  static final int BLOCK_SIZE = 32768;
  private static final int HEADER = 7;
  private static final int RECYCLABLE_HEADER = 11;
  private static final int BATCH_HEADER = 12;

  private static final int FULL = 1;
  private static final int FIRST = 2;
  private static final int MIDDLE = 3;
  private static final int LAST = 4;
  private static final int RECYCLABLE_FULL = 5;
  private static final int RECYCLABLE_LAST = 8;
  private static final int SET_COMPRESSION = 9;
  private static final int TIMESTAMP_SIZE = 10;
  private static final int RECYCLABLE_TIMESTAMP_SIZE = 11;
  /** Types with this bit set are metadata a reader may skip (RocksDB's predecessor-WAL records). */
  private static final int SAFE_TO_IGNORE = 0x80;

  private RecycledLogPrefix() {}

  /**
   * The length of the prefix of {@code log} that holds its write batches with sequence numbers up
   * to {@code lastSequence}, and nothing after them.
   *
   * @param log a write-ahead log, possibly still being written
   * @param logNumber its number (the number in its name)
   * @param lastSequence the DB's last sequence number at the cut
   * @throws IOException if the log cannot be read, or it is compressed (RocksDB's {@code
   *     wal_compression}), or a whole record in it is not a write batch
   */
  static long bytesThrough(Path log, long logNumber, long lastSequence) throws IOException {
    ByteBuffer block = ByteBuffer.allocate(BLOCK_SIZE).order(ByteOrder.LITTLE_ENDIAN);
    byte[] batchHeader = new byte[BATCH_HEADER];
    ByteBuffer batchHeaderView = ByteBuffer.wrap(batchHeader).order(ByteOrder.LITTLE_ENDIAN);
    CRC32C crc = new CRC32C();
    int headerBytes = 0; // of the logical record being assembled
    boolean inRecord = false;
    long kept = 0;
    try (FileChannel in = FileChannel.open(log, StandardOpenOption.READ)) {
      for (long blockStart = 0; ; blockStart += BLOCK_SIZE) {
        block.clear();
        while (block.hasRemaining() && in.read(block, blockStart + block.position()) > 0) {
          // read the whole block, or up to the end of the file
        }
        int n = block.position();
        int at = 0;
        while (n - at >= HEADER) {
          int length = block.getShort(at + 4) & 0xffff;
          int type = block.get(at + 6) & 0xff;
          if (type == 0 && length == 0) {
            break; // zeros: the block's trailer, or space not written yet
          }
          boolean recyclable = isRecyclable(type);
          int header = recyclable ? RECYCLABLE_HEADER : HEADER;
          if (at + header + length > n) {
            return kept; // cut short: being written, or the end of the file
          }
          crc.reset();
          crc.update(type);
          if (recyclable) {
            if ((block.getInt(at + 7) & 0xffffffffL) != (logNumber & 0xffffffffL)) {
              return kept; // a record of the file's previous life as another log
            }
            crc.update(block.array(), at + 7, 4);
          }
          crc.update(block.array(), at + header, length);
          if (mask((int) crc.getValue()) != block.getInt(at)) {
            return kept; // not intact: stale bytes, or a record being written
          }
          int payload = at + header;
          at += header + length;
          if (type == SET_COMPRESSION) {
            throw new IOException(log + " is compressed (wal_compression); p2kv cannot cut a compressed recycled log");
          }
          if (type == TIMESTAMP_SIZE || type == RECYCLABLE_TIMESTAMP_SIZE || (type & SAFE_TO_IGNORE) != 0) {
            continue; // metadata, no writes
          }
          int fragment = recyclable ? type - RECYCLABLE_FULL + FULL : type;
          if (fragment < FULL || fragment > LAST) {
            return kept; // no record type RocksDB writes: stale bytes
          }
          if (fragment == FULL || fragment == FIRST) {
            if (inRecord) {
              return kept; // a new record before the last one ended: not what a writer leaves
            }
            inRecord = true;
            headerBytes = 0;
          } else if (!inRecord) {
            return kept; // the rest of a record whose start is not here
          }
          int take = Math.min(length, BATCH_HEADER - headerBytes);
          block.get(payload, batchHeader, headerBytes, take);
          headerBytes += take;
          if (fragment == FULL || fragment == LAST) {
            inRecord = false;
            if (headerBytes < BATCH_HEADER) {
              throw new IOException(log + " holds a record of " + headerBytes + " bytes at " + (blockStart + payload) + ", too short for a write batch");
            }
            long sequence = batchHeaderView.getLong(0);
            if (Long.compareUnsigned(sequence, lastSequence) > 0) {
              return kept; // the first write after the cut
            }
            kept = blockStart + at;
          }
        }
        if (n < BLOCK_SIZE) {
          return kept;
        }
      }
    }
  }

  /** Record types in the recyclable format, which carries the log number. */
  private static boolean isRecyclable(int type) {
    return (type >= RECYCLABLE_FULL && type <= RECYCLABLE_LAST) || (type >= TIMESTAMP_SIZE && (type & 1) == 1);
  }

  /** RocksDB's {@code crc32c::Mask}: what a log stores instead of the CRC itself. */
  private static int mask(int crc) {
    return ((crc >>> 15) | (crc << 17)) + 0xa282ead8;
  }
}
