package io.p2kv.internal.engine.rocksdb;

import org.rocksdb.Statistics;

/**
 * Reads RocksDB tickers that rocksdbjni's {@code TickerType} does not list (the blob cache's, in
 * 11.8.1) from the text dump of a {@link Statistics} object, where every ticker appears as {@code
 * name COUNT : value}. The dump of every ticker and histogram costs tens of microseconds: take it
 * once and read every ticker needed from it; for stats readers, never for a data path.
 */
final class StatisticsText {
  /** Reads of separated values the blob cache served. */
  static final String BLOB_CACHE_HIT = "rocksdb.blobdb.cache.hit";

  /** Reads of separated values the blob cache did not hold. */
  static final String BLOB_CACHE_MISS = "rocksdb.blobdb.cache.miss";

  private StatisticsText() {}

  /**
   * A ticker's value in a dump.
   *
   * @param dump {@link Statistics#toString()}
   * @param name the ticker's RocksDB name
   * @return its count, or -1 if the dump does not list it
   */
  static long ticker(String dump, String name) {
    String prefix = name + " COUNT : ";
    int at = dump.indexOf(prefix);
    while (at > 0 && dump.charAt(at - 1) != '\n') {
      at = dump.indexOf(prefix, at + 1); // a longer name that ends with this one
    }
    if (at < 0) {
      return -1;
    }
    int start = at + prefix.length();
    int end = start;
    while (end < dump.length() && Character.isDigit(dump.charAt(end))) {
      end++;
    }
    return end == start ? -1 : Long.parseLong(dump, start, end, 10);
  }
}
