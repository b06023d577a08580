package io.p2kv.examples;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.p2kv.KeyValue;
import io.p2kv.KvIterator;
import io.p2kv.P2kv;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Ordered reads: a page with scan(start, n) and the next page after it, a range [from, to), a
 * streaming iterator forward and in reverse with seek, and a prefix iterator. Keys are spread over
 * the shards by hash; every ordered read merges the shards' sorted parts, so results come back in
 * unsigned byte order of keys all the same.
 *
 * <p>Run: {@code ./p2kv example OrderedScan [dir]}.
 */
public final class OrderedScan {
  private OrderedScan() {}

  public static void main(String[] args) throws IOException {
    try (ExampleDir dir = ExampleDir.fromArgs(args, "p2kv-scan");
        P2kv store = P2kv.builder().shards(4).open(dir.path())) {
      for (int i = 0; i < 20; i++) { // written out of order on purpose: the store sorts
        int n = (i * 7) % 20;
        store.put(bytes(String.format("user:%02d", n)), bytes("name-" + n));
      }
      store.put(bytes("order:1"), bytes("3 books"));
      store.put(bytes("order:2"), bytes("1 lamp"));
      System.out.println("user:00..03 live on shards " + List.of(0, 1, 2, 3).stream()
          .map(i -> store.shardOf(bytes(String.format("user:%02d", i)))).toList());

      // 1. scan(start, n): up to n pairs with key >= start (null: from the first key), read on the
      //    calling thread (scanAsync runs on the workers). Writes racing with a read are seen or not
      //    per shard, never half a single-shard write; see README "Ordered reads".
      List<KeyValue> page = store.scan(bytes("user:05"), 3);
      System.out.println("scan(user:05, 3)       -> " + keys(page));
      byte[] last = page.get(page.size() - 1).key();
      byte[] after = Arrays.copyOf(last, last.length + 1); // last + {0}: the smallest key after last
      System.out.println("next page              -> " + keys(store.scan(after, 3)));

      // 2. range(from, to): every pair in [from, to), held in memory; null means open-ended.
      //    range(from, to, limit) reads only the smallest `limit` keys.
      List<KeyValue> range = store.range(bytes("order:"), bytes("order;"));
      List<String> pairs = range.stream().map(kv -> text(kv.key()) + "=" + text(kv.value())).toList();
      System.out.println("range(order:, order;)  -> " + pairs);
      System.out.println("range(null, user:02)   -> " + keys(store.range(null, bytes("user:02"))));

      // 3. Iterators stream: at most one pair per shard in memory, so any range size is fine.
      //    Each holds one RocksDB iterator per shard: always close it (try-with-resources).
      try (KvIterator it = store.iterator(bytes("user:"), bytes("user;"))) {
        System.out.println("iterator, first two    -> " + take(it, 2));
        it.seek(bytes("user:17")); // jump ahead (or back) within the same views
        System.out.println("after seek(user:17)    -> " + take(it, 10));
      }
      try (KvIterator it = store.reverseIterator(bytes("user:"), bytes("user:10"))) {
        System.out.println("reverse below user:10  -> " + take(it, 3)); // largest key first
        it.seek(bytes("user:03")); // reverse: continue at the largest key <= user:03
        System.out.println("after seek(user:03)    -> " + take(it, 10));
      }
      try (KvIterator it = store.prefixIterator(bytes("order:"))) {
        System.out.println("prefix order:          -> " + take(it, 10));
      }
    }
  }

  /** Up to n keys from the iterator, as text. */
  private static List<String> take(KvIterator it, int n) {
    List<String> out = new ArrayList<>();
    while (out.size() < n && it.hasNext()) {
      out.add(text(it.next().key()));
    }
    return out;
  }

  private static List<String> keys(List<KeyValue> pairs) {
    return pairs.stream().map(kv -> text(kv.key())).toList();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(UTF_8);
  }

  private static String text(byte[] b) {
    return new String(b, UTF_8);
  }
}
