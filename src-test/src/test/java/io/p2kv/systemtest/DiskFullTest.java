package io.p2kv.systemtest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.p2kv.Batch;
import io.p2kv.Durability;
import io.p2kv.P2kv;
import io.p2kv.P2kvException;
import io.p2kv.ShardFailedException;
import io.p2kv.StoreFailedException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store on a small file system filled to the last byte (a tmpfs, so this needs root; skipped
 * otherwise): writes fail loudly, no acknowledged write is lost, and after space is freed a reopen
 * serves everything and accepts writes again.
 */
class DiskFullTest {
  @TempDir Path tmp;
  private Path mount;

  @BeforeEach
  void mountSmallFileSystem() throws Exception {
    mount = tmp.resolve("small");
    Files.createDirectories(mount);
    assumeTrue(Commands.run("mount", "-t", "tmpfs", "-o", "size=24m", "tmpfs", mount.toString()), "cannot mount a tmpfs here (needs root)");
  }

  @AfterEach
  void unmount() throws Exception {
    if (mount != null) {
      Commands.run("umount", mount.toString());
    }
  }

  @Test
  void shouldFailWritesLoudlyAndKeepEveryAcknowledgedWriteWhenTheDiskFills() throws Exception {
    Path dir = mount.resolve("store");
    Path ballast = mount.resolve("ballast");
    Files.write(ballast, new byte[2 << 20]);
    Map<String, byte[]> acked = new LinkedHashMap<>();
    Random random = new Random(42);
    List<Throwable> failures = new ArrayList<>();
    P2kv store = P2kv.builder().shards(3).durability(Durability.SYNC).open(dir);
    try {
      for (int i = 0; failures.size() < 20 && i < 1_000_000; i++) {
        String k = "k" + i;
        byte[] v = new byte[100 + random.nextInt(4000)];
        random.nextBytes(v);
        try {
          if (i % 10 == 9) {
            // A cross-shard batch now and then: its commit record may be what hits the full disk.
            Batch b = new Batch().put(bytes(k), v).put(bytes(k + "-b"), v);
            store.write(b);
            acked.put(k + "-b", v);
          } else {
            store.put(bytes(k), v);
          }
          acked.put(k, v);
        } catch (P2kvException e) {
          failures.add(e);
        }
      }
      assertEquals(20, failures.size(), "the disk filled");
      for (Throwable f : failures) {
        assertTrue(f instanceof ShardFailedException || f instanceof StoreFailedException, f.toString());
      }
      if (store.health().status() == P2kv.Health.Status.OPEN) {
        // No batch in doubt: reads go on, as RocksDB's read-only mode after a background error.
        for (Map.Entry<String, byte[]> e : acked.entrySet()) {
          assertArrayEquals(e.getValue(), store.get(bytes(e.getKey())), e.getKey());
        }
      }
      // RocksDB keeps the write error: the shard refuses writes until the store is reopened, and
      // says so.
      Files.delete(ballast);
      ShardFailedException refused = null;
      for (int i = 0; refused == null && i < 100; i++) {
        try {
          store.put(bytes("freed" + i), bytes("x"));
          acked.put("freed" + i, bytes("x"));
        } catch (ShardFailedException e) {
          refused = e;
        }
      }
      assertTrue(refused != null && refused.getMessage().contains("close the store and open it again"), String.valueOf(refused));
    } finally {
      store.close();
    }
    try (P2kv reopened = P2kv.builder().open(dir)) {
      assertEquals(P2kv.Health.Status.OPEN, reopened.health().status());
      for (Map.Entry<String, byte[]> e : acked.entrySet()) {
        assertArrayEquals(e.getValue(), reopened.get(bytes(e.getKey())), "acknowledged " + e.getKey());
      }
      reopened.put(bytes("after"), bytes("ok"));
      assertArrayEquals(bytes("ok"), reopened.get(bytes("after")));
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
