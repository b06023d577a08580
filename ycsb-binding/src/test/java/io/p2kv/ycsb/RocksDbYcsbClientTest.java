package io.p2kv.ycsb;

import java.util.Properties;
import site.ycsb.DB;

/** The contract on the plain-RocksDB baseline. */
class RocksDbYcsbClientTest extends YcsbClientContract {
  @Override
  DB newClient() {
    return new RocksDbYcsbClient();
  }

  @Override
  SharedStores registry() {
    return RocksDbYcsbClient.registry();
  }

  @Override
  Properties extraProperties() {
    Properties p = new Properties();
    p.setProperty("p2kv.memorybudgetmb", "32");
    return p;
  }
}
