package io.p2kv.examples;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.p2kv.P2kv;
import java.io.IOException;
import java.util.List;

/**
 * Open a store, put, get, delete, close, reopen.
 *
 * <p>Run: {@code ./p2kv example Quickstart [dir]} (a temporary directory if none is given).
 */
public final class Quickstart {
  private Quickstart() {}

  public static void main(String[] args) throws IOException {
    try (ExampleDir dir = ExampleDir.fromArgs(args, "p2kv-quickstart")) {
      // One builder, one open(Path): creates the store (one RocksDB per shard) or opens it.
      try (P2kv store = P2kv.builder().open(dir.path())) {
        byte[] key = "user:42".getBytes(UTF_8);

        // Sync calls block until the write is applied (in the WAL: survives a process crash).
        store.put(key, "Ada Lovelace".getBytes(UTF_8));
        System.out.println("get user:42     -> " + text(store.get(key)));

        store.put(key, "Ada King".getBytes(UTF_8)); // replaces the value
        System.out.println("after overwrite -> " + text(store.get(key)));

        store.delete(key); // deleting an absent key is fine too
        System.out.println("after delete    -> " + text(store.get(key))); // null: absent

        // Reads of many keys: one multiGet per shard, values in the order asked.
        store.put("a".getBytes(UTF_8), "1".getBytes(UTF_8));
        store.put("b".getBytes(UTF_8), "2".getBytes(UTF_8));
        List<byte[]> values = store.multiGet(List.of("a".getBytes(UTF_8), "zz".getBytes(UTF_8), "b".getBytes(UTF_8)));
        System.out.println("multiGet a,zz,b -> " + values.stream().map(Quickstart::text).toList());
        System.out.println(store.shardCount() + " shard(s) in " + store.dir());
      } // close(): queued writes finish, workers stop, shards close, the directory unlocks

      // Data survives close and reopen; the shard count comes from the store's MANIFEST.
      try (P2kv store = P2kv.builder().open(dir.path())) {
        System.out.println("after reopen, a -> " + text(store.get("a".getBytes(UTF_8))));
      }
    }
  }

  private static String text(byte[] value) {
    return value == null ? "null" : new String(value, UTF_8);
  }
}
