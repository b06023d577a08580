package io.p2kv.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2kv.P2kv;
import java.util.Properties;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import site.ycsb.DB;
import site.ycsb.DBException;

/** The contract on p2kv with one shard and with four (scans then merge four shards' parts). */
class P2kvYcsbClientTest {
  abstract static class P2kvContract extends YcsbClientContract {
    @Override
    DB newClient() {
      return new P2kvYcsbClient();
    }

    @Override
    SharedStores registry() {
      return P2kvYcsbClient.registry();
    }
  }

  @Nested
  class OneShard extends P2kvContract {
    @Override
    Properties extraProperties() {
      Properties p = new Properties();
      p.setProperty("p2kv.shards", "1");
      p.setProperty("p2kv.memorybudgetmb", "32");
      return p;
    }
  }

  @Nested
  class FourShardsWorkerReads extends P2kvContract {
    @Override
    Properties extraProperties() {
      Properties p = new Properties();
      p.setProperty("p2kv.shards", "4");
      p.setProperty("p2kv.readpath", "worker");
      p.setProperty("p2kv.maxbatch", "8");
      p.setProperty("p2kv.idlemode", "backoff");
      p.setProperty("p2kv.pinning", "never");
      p.setProperty("p2kv.memorybudgetmb", "32");
      return p;
    }

    @Test
    void shouldOpenTheConfiguredShardCount() throws DBException {
      cleanup(db);
      db = null;
      try (P2kv store = P2kv.builder().memoryBudgetBytes(32L << 20).open(dir)) {
        assertEquals(4, store.shardCount());
      }
      db = client();
    }

    @Test
    void shouldFailInitWhenTheShardCountContradictsTheStore() throws DBException {
      cleanup(db);
      Properties other = new Properties();
      other.setProperty("p2kv.shards", "2");
      DBException e = assertThrows(DBException.class, () -> client(other));
      assertTrue(e.getMessage().contains("P2kvYcsbClient"), e.getMessage());
      db = client();
    }
  }
}
