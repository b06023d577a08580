package io.p2kv.examples;

import io.p2kv.kafka.P2kvDslStoreSuppliers;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Kafka Streams word count with its counts on p2kv: every key-value store of the DSL goes to the
 * application instance's one shared p2kv store, through one configuration line.
 *
 * <p>Run against a broker: {@code ./p2kv example KafkaWordCount localhost:9092 /tmp/wc-state}
 * (reads topic {@code lines}, writes {@code word-counts}; stop with Ctrl-C).
 */
public final class KafkaWordCount {
  /** The counts' store, for interactive queries. */
  public static final String STORE = "word-counts";

  private KafkaWordCount() {}

  /** Lines in, a count per word out, the counts kept in {@value #STORE}. */
  public static Topology topology() {
    StreamsBuilder b = new StreamsBuilder();
    b.stream("lines", Consumed.with(Serdes.String(), Serdes.String()))
        .flatMapValues(line -> Arrays.asList(line.toLowerCase().split("\\W+")))
        .filter((key, word) -> !word.isEmpty())
        .groupBy((key, word) -> word, Grouped.with(Serdes.String(), Serdes.String()))
        .count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as(STORE)
            .withKeySerde(Serdes.String())
            .withValueSerde(Serdes.Long()))
        .toStream()
        .to("word-counts", Produced.with(Serdes.String(), Serdes.Long()));
    return b.build();
  }

  /** The configuration: the p2kv lines are the last three. */
  public static Properties props(String bootstrapServers, Path stateDir) {
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, "p2kv-word-count");
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    p.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, P2kvDslStoreSuppliers.class); // counts on p2kv
    p.put("p2kv.memory.budget.bytes", 256L << 20); // one budget for every store of the instance
    p.put("p2kv.shards", 1); // shard workers shared by every task of the instance
    return p;
  }

  public static void main(String[] args) {
    if (args.length != 2) {
      throw new IllegalArgumentException("usage: KafkaWordCount <bootstrap servers> <state dir>");
    }
    KafkaStreams streams = new KafkaStreams(topology(), props(args[0], Path.of(args[1])));
    Runtime.getRuntime().addShutdownHook(new Thread(streams::close));
    streams.start();
  }
}
