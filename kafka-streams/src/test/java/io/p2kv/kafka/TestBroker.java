package io.p2kv.kafka;

import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/** A single-node KRaft broker in this JVM on loopback (Kafka's KafkaClusterTestKit), for the broker tests and benchmarks. */
public final class TestBroker {
  private TestBroker() {}

  /**
   * Starts a combined broker and controller, with replication factors of 1 for its internal
   * topics; close it when done.
   *
   * @return the running cluster; {@code bootstrapServers()} gives its address
   * @throws Exception if it does not start
   */
  public static KafkaClusterTestKit start() throws Exception {
    KafkaClusterTestKit cluster = new KafkaClusterTestKit.Builder(
            new TestKitNodes.Builder().setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1).build())
        .setConfigProp("offsets.topic.replication.factor", "1")
        .setConfigProp("offsets.topic.num.partitions", "4")
        .setConfigProp("transaction.state.log.replication.factor", "1")
        .setConfigProp("transaction.state.log.min.isr", "1")
        .setConfigProp("transaction.state.log.num.partitions", "4")
        .setConfigProp("group.initial.rebalance.delay.ms", "0")
        .build();
    try {
      cluster.format();
      cluster.startup();
      cluster.waitForReadyBrokers();
      return cluster;
    } catch (Exception | Error e) {
      cluster.close();
      throw e;
    }
  }
}
