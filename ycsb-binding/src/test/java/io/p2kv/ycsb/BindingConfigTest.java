package io.p2kv.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2kv.Durability;
import io.p2kv.IdleMode;
import io.p2kv.Pinning;
import io.p2kv.ReadPath;
import io.p2kv.ValueSeparation;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class BindingConfigTest {
  static Properties props(String... nameValue) {
    Properties p = new Properties();
    for (int i = 0; i < nameValue.length; i += 2) {
      p.setProperty(nameValue[i], nameValue[i + 1]);
    }
    return p;
  }

  @Test
  void shouldLeaveLibraryDefaultsWhenOnlyTheDirectoryIsGiven() {
    BindingConfig c = BindingConfig.parse(props("p2kv.dir", "/tmp/x/../y", "recordcount", "10", "rocksdb.dir", "/z"));
    assertEquals(Path.of("/tmp/y"), c.dir());
    assertEquals(Durability.WAL, c.durability());
    assertEquals(512L << 20, c.memoryBudgetBytes());
    assertNull(c.shards());
    assertNull(c.maxBatch());
    assertNull(c.maxBatchBytes());
    assertNull(c.maxDurableBatch());
    assertNull(c.maxDurableBatchBytes());
    assertNull(c.readPath());
    assertNull(c.idleMode());
    assertNull(c.pinning());
    assertNull(c.yieldWaitNanos());
    assertNull(c.valueSeparation(), "unset: p2kv's default for p2kv, inline for the baseline");
    assertNull(c.cacheBytes(), "unset: p2kv's default value cache");
  }

  @Test
  void shouldParseEveryProperty() {
    BindingConfig c =
        BindingConfig.parse(
            props(
                "p2kv.dir", "/d",
                "p2kv.sync", "TRUE",
                "p2kv.memorybudgetmb", "64",
                "p2kv.shards", "4",
                "p2kv.maxbatch", "16",
                "p2kv.maxbatchbytes", "4096",
                "p2kv.maxdurablebatch", "256",
                "p2kv.maxdurablebatchbytes", "262_144",
                "p2kv.readpath", "worker",
                "p2kv.idlemode", "busy-spin",
                "p2kv.pinning", "Never",
                "p2kv.yieldwaitnanos", "0",
                "p2kv.cachemb", "24"));
    assertEquals(Durability.SYNC, c.durability());
    assertEquals(64L << 20, c.memoryBudgetBytes());
    assertEquals(4, c.shards());
    assertEquals(16, c.maxBatch());
    assertEquals(4096L, c.maxBatchBytes());
    assertEquals(256, c.maxDurableBatch());
    assertEquals(262_144L, c.maxDurableBatchBytes());
    assertEquals(ReadPath.WORKER, c.readPath());
    assertEquals(IdleMode.BUSY_SPIN, c.idleMode());
    assertEquals(Pinning.NEVER, c.pinning());
    assertEquals(0L, c.yieldWaitNanos());
    assertEquals(24L << 20, c.cacheBytes());
    assertEquals(Durability.WAL, BindingConfig.parse(props("p2kv.dir", "/d", "p2kv.sync", "false")).durability());
  }

  @Test
  void shouldRequireTheDirectory() {
    var e = assertThrows(IllegalArgumentException.class, () -> BindingConfig.parse(props("p2kv.shards", "2")));
    assertTrue(e.getMessage().contains("p2kv.dir is required"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> BindingConfig.parse(props("p2kv.dir", " ")));
  }

  @Test
  void shouldRejectUnknownP2kvPropertiesByName() {
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () -> BindingConfig.parse(props("p2kv.dir", "/d", "p2kv.shard", "2", "p2kv.maxBatch", "8")));
    assertTrue(e.getMessage().contains("[p2kv.maxBatch, p2kv.shard]"), e.getMessage());
  }

  @Test
  void shouldParseEveryValueSeparationPolicy() {
    Object[][] cases = {
      {"none", ValueSeparation.none()},
      {"ALL", ValueSeparation.all()},
      {" sizeaware ", ValueSeparation.sizeAware()},
      {"size-aware", ValueSeparation.sizeAware()},
      {"sizeaware-fixed", ValueSeparation.sizeAware().fixed()},
      {"size_aware_fixed", ValueSeparation.sizeAware().fixed()},
      {"0", ValueSeparation.threshold(0)},
      {"4096", ValueSeparation.threshold(4096)},
    };
    for (Object[] c : cases) {
      BindingConfig parsed = BindingConfig.parse(props("p2kv.dir", "/d", "p2kv.valueseparation", (String) c[0]));
      assertEquals(c[1], parsed.valueSeparation(), (String) c[0]);
    }
  }

  @Test
  void shouldRejectAnUnknownValueSeparationNamingTheProperty() {
    for (String value : new String[] {"true", "off", "auto", "", "-1", "1e3", "67108865", "99999999999"}) {
      var e =
          assertThrows(
              IllegalArgumentException.class,
              () -> BindingConfig.parse(props("p2kv.dir", "/d", "p2kv.valueseparation", value)),
              value);
      assertTrue(e.getMessage().startsWith("p2kv.valueseparation"), e.getMessage());
    }
  }

  @Test
  void shouldRejectMalformedAndOutOfRangeValuesNamingTheProperty() {
    String[][] bad = {
      {"p2kv.shards", "0"},
      {"p2kv.shards", "two"},
      {"p2kv.maxbatch", "5000"},
      {"p2kv.maxbatchbytes", "0"},
      {"p2kv.maxdurablebatch", "0"},
      {"p2kv.maxdurablebatch", "65537"},
      {"p2kv.maxdurablebatch", "many"},
      {"p2kv.maxdurablebatchbytes", "0"},
      {"p2kv.maxdurablebatchbytes", "-5"},
      {"p2kv.maxdurablebatchbytes", "1M"},
      {"p2kv.sync", "yes"},
      {"p2kv.readpath", "fast"},
      {"p2kv.idlemode", "sleep"},
      {"p2kv.pinning", "maybe"},
      {"p2kv.yieldwaitnanos", "-1"},
      {"p2kv.memorybudgetmb", "8"},
    };
    for (String[] nv : bad) {
      var e = assertThrows(IllegalArgumentException.class, () -> BindingConfig.parse(props("p2kv.dir", "/d", nv[0], nv[1])));
      assertTrue(e.getMessage().startsWith(nv[0] + " must be"), e.getMessage());
      assertTrue(e.getMessage().endsWith(": " + nv[1]), "names the bad value: " + e.getMessage());
    }
  }
}
