package io.p2kv.kafka;

import io.p2kv.Batch;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Not thread-safe: restored changelog records of one task's store, in arrival order, appended to a
 * file (in the task's state directory) until their bulk load reads them back. Records that wait
 * for their load thus cost the heap one 64 KiB write buffer per store instead of their bytes: held
 * on the heap, a restore of 2 M records grew the committed heap to 420-535 MiB against the 210-260
 * MiB of Kafka's own stores, and the heap a JVM has grown it keeps; in files, to 280-390 MiB
 * (docs/benchmarks/KAFKA-STREAMS.md, stop 37). There they sit in the operating system's page cache,
 * which gives them back when it needs the memory. Each record is {@code key length (4 bytes) | key
 * | value length (4 bytes; -1 for a tombstone) | value}.
 */
final class RestoreBuffer {
  private static final int IO_BUFFER_BYTES = 64 << 10;

  private final Path file;
  private DataOutputStream out;
  private int records;
  private long bytes;

  /**
   * @param file where the records wait; created at the first record, deleted by {@link #drainSorted}
   *     and {@link #discard}
   */
  RestoreBuffer(Path file) {
    this.file = file;
  }

  /**
   * Appends a record; a null value is a tombstone.
   *
   * @throws UncheckedIOException if the file cannot be written (a full disk)
   */
  void add(byte[] key, byte[] value) {
    try {
      if (out == null) {
        out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), IO_BUFFER_BYTES));
      }
      out.writeInt(key.length);
      out.write(key);
      if (value == null) {
        out.writeInt(-1);
      } else {
        out.writeInt(value.length);
        out.write(value);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write restored records to " + file, e);
    }
    records++;
    bytes += 8 + key.length + (value == null ? 0 : value.length);
  }

  boolean isEmpty() {
    return records == 0;
  }

  /** Records buffered. */
  int records() {
    return records;
  }

  /** Bytes of the records buffered. */
  long bytes() {
    return bytes;
  }

  /**
   * The records in unsigned order of their store keys, each key's records in arrival order (so a
   * sorted load, {@link io.p2kv.P2kv#loadSorted}, keeps each key's last), for one pass; deletes the
   * file. The records are read back into one array and sorted there as offsets: the heap holds
   * their bytes and two ints and two longs of each while the load runs, and each {@link Batch.Op}
   * only from the moment the load takes it until it has written it. A whole load's batch, held as
   * objects (stop 50's restores), had the collector copy and promote millions of them in a large
   * restore, and the JVM grew its heap for them (docs/benchmarks/KAFKA-STREAMS.md, stop 51).
   *
   * @param keys the store's key layout, which turns each user key into its store key
   * @throws UncheckedIOException if the file cannot be read back
   */
  Iterator<Batch.Op> drainSorted(StoreKeys keys) {
    byte[] arena;
    int[] at = new int[records];
    try {
      if (out == null) {
        return Collections.emptyIterator();
      }
      out.close();
      arena = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read restored records back from " + file, e);
    } finally {
      discard();
    }
    for (int r = 0, pos = 0; r < at.length; r++) {
      at[r] = pos;
      pos += 4 + intAt(arena, pos);
      pos += 4 + Math.max(0, intAt(arena, pos));
    }
    sortByKey(arena, at);
    return new Iterator<>() {
      private int next;

      @Override
      public boolean hasNext() {
        return next < at.length;
      }

      @Override
      public Batch.Op next() {
        if (next == at.length) {
          throw new NoSuchElementException();
        }
        int pos = at[next++];
        int keyLength = intAt(arena, pos);
        byte[] key = keys.data(arena, pos + 4, keyLength);
        int valueAt = pos + 4 + keyLength;
        int valueLength = intAt(arena, valueAt);
        return new Batch.Op(key, valueLength < 0 ? null : Arrays.copyOfRange(arena, valueAt + 4, valueAt + 4 + valueLength));
      }
    };
  }

  /** Runs of at most this many records are sorted by insertion. */
  private static final int INSERTION_SORT_MAX = 16;

  /**
   * Sorts {@code at}, the offsets of records in {@code arena}, by unsigned key, stably. A radix sort
   * on the 8 key bytes after the keys' common prefix (zeros past a key's end), then the same on each
   * run of keys equal in those bytes, 8 bytes further on and past the run's own common prefix (a
   * stack of runs, not recursion); a run whose keys all end within the bytes compared is ordered
   * by length, as each of its keys is a prefix of the longer ones; short runs go to an insertion
   * sort on whole keys. Kafka's keys usually share a prefix and differ within the next 8 bytes, so
   * most records take part in one radix sort only.
   */
  static void sortByKey(byte[] arena, int[] at) {
    int n = at.length;
    int[] atOut = new int[n];
    long[] words = new long[n];
    long[] wordsOut = new long[n];
    int[] counts = new int[256];
    java.util.ArrayDeque<int[]> runs = new java.util.ArrayDeque<>();
    runs.push(new int[] {0, n, 0});
    while (!runs.isEmpty()) {
      int[] run = runs.pop();
      int from = run[0];
      int to = run[1];
      if (to - from <= INSERTION_SORT_MAX) {
        insertionSort(arena, at, from, to);
        continue;
      }
      int offset = run[2] + commonPrefix(arena, at, from, to, run[2]);
      boolean allEnd = true;
      for (int i = from; i < to; i++) {
        words[i] = word(arena, at[i], offset);
        allEnd &= intAt(arena, at[i]) <= offset + 8;
      }
      int[] a = at;
      long[] w = words;
      int[] aOut = atOut;
      long[] wOut = wordsOut;
      for (int shift = 0; shift < 64; shift += 8) {
        Arrays.fill(counts, 0);
        for (int i = from; i < to; i++) {
          counts[(int) (w[i] >>> shift) & 0xFF]++;
        }
        if (counts[(int) (w[from] >>> shift) & 0xFF] == to - from) {
          continue; // every key of the run has the same byte here
        }
        for (int d = 0, start = from; d < 256; d++) {
          int c = counts[d];
          counts[d] = start;
          start += c;
        }
        for (int i = from; i < to; i++) {
          int dest = counts[(int) (w[i] >>> shift) & 0xFF]++;
          aOut[dest] = a[i];
          wOut[dest] = w[i];
        }
        int[] ta = a;
        a = aOut;
        aOut = ta;
        long[] tw = w;
        w = wOut;
        wOut = tw;
      }
      if (a != at) {
        System.arraycopy(a, from, at, from, to - from);
        System.arraycopy(w, from, words, from, to - from);
      }
      for (int i = from; i < to; ) {
        int j = i + 1;
        while (j < to && words[j] == words[i]) {
          j++;
        }
        if (j - i > 1) {
          if (allEnd) {
            sortByLength(arena, at, i, j);
          } else {
            runs.push(new int[] {i, j, offset + 8});
          }
        }
        i = j;
      }
    }
  }

  /** How many bytes from {@code offset} the keys of {@code at[from, to)} have in common. */
  private static int commonPrefix(byte[] arena, int[] at, int from, int to, int offset) {
    int first = at[from] + 4 + offset;
    int common = Math.max(0, intAt(arena, at[from]) - offset);
    for (int i = from + 1; i < to && common > 0; i++) {
      int k = at[i] + 4 + offset;
      int length = Math.max(0, intAt(arena, at[i]) - offset);
      int m = Arrays.mismatch(arena, first, first + common, arena, k, k + Math.min(common, length));
      if (m >= 0) {
        common = m;
      } else if (length < common) {
        common = length;
      }
    }
    return common;
  }

  /** The 8 key bytes from {@code offset} of the record at {@code pos}, big-endian, zeros past its end. */
  private static long word(byte[] arena, int pos, int offset) {
    int length = intAt(arena, pos);
    long w = 0;
    for (int i = offset; i < offset + 8; i++) {
      w = w << 8 | (i < length ? arena[pos + 4 + i] & 0xFF : 0);
    }
    return w;
  }

  /** Stable: moves a record only past records with a greater key. */
  private static void insertionSort(byte[] arena, int[] at, int from, int to) {
    for (int i = from + 1; i < to; i++) {
      int x = at[i];
      int j = i - 1;
      while (j >= from && compareKeys(arena, at[j], x) > 0) {
        at[j + 1] = at[j];
        j--;
      }
      at[j + 1] = x;
    }
  }

  /** Stable: orders records whose keys are equal but for trailing zero bytes by key length. */
  private static void sortByLength(byte[] arena, int[] at, int from, int to) {
    for (int i = from + 1; i < to; i++) {
      int x = at[i];
      int j = i - 1;
      while (j >= from && intAt(arena, at[j]) > intAt(arena, x)) {
        at[j + 1] = at[j];
        j--;
      }
      at[j + 1] = x;
    }
  }

  private static int compareKeys(byte[] arena, int a, int b) {
    return Arrays.compareUnsigned(arena, a + 4, a + 4 + intAt(arena, a), arena, b + 4, b + 4 + intAt(arena, b));
  }

  private static int intAt(byte[] arena, int pos) {
    return (arena[pos] & 0xFF) << 24 | (arena[pos + 1] & 0xFF) << 16 | (arena[pos + 2] & 0xFF) << 8 | arena[pos + 3] & 0xFF;
  }

  /** Drops the records and deletes the file; safe to call more than once. */
  void discard() {
    try {
      if (out != null) {
        out.close();
      }
    } catch (IOException e) {
      // deleted next; nothing of it is read again
    }
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // a leftover file is deleted when the store is next initialised
    }
    records = 0;
    bytes = 0;
  }
}
