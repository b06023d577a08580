/**
 * p2kv: an embedded key-value store that parallelises RocksDB the p2KVS way. Start at {@link
 * io.p2kv.P2kv#builder()}.
 *
 * <p>The API is {@code io.p2kv} and the RocksDB tuning hook {@code io.p2kv.rocksdb}; nothing under
 * {@code io.p2kv.internal} is exported, so on the module path it cannot be used (on the class path
 * the module boundary does not exist; internal packages are still not API there).
 *
 * <h2>Module names of the dependencies</h2>
 * <ul>
 *   <li>{@code org.jctools.core}: jctools-core ships a module-info.
 *   <li>{@code com.github.benmanes.caffeine}: Caffeine ships a module-info.
 *   <li>{@code org.slf4j}: slf4j-api ships a module-info (multi-release, {@code
 *       META-INF/versions/9}).
 *   <li>{@code org.agrona}: agrona has no module-info but a stable {@code Automatic-Module-Name}.
 *   <li>{@code rocksdbjni}, {@code affinity}, {@code HdrHistogram}: these jars (rocksdbjni 11.8.1,
 *       OpenHFT affinity 3.27ea1, HdrHistogram 2.2.2) have neither a module-info nor an {@code
 *       Automatic-Module-Name}, so their names are derived from the jar file names. Such names are
 *       fragile: a renamed jar (a shaded or repackaged copy, a classifier) or a later release that
 *       declares a real name breaks the {@code requires} below. Revisit them when upgrading.
 * </ul>
 *
 * <h2>JMX</h2>
 * The MBeans in {@code io.p2kv.internal.metrics} are {@link javax.management.DynamicMBean}s: the
 * platform MBean server calls them through that (exported, JDK) interface and introspects no
 * p2kv interface, so the package needs no export or opening to {@code java.management}.
 *
 * <p>On JDK 22 and later, RocksDB loading its native library warns unless native access is
 * enabled; on the module path that is {@code --enable-native-access=rocksdbjni} (on the class path
 * {@code ALL-UNNAMED}).
 */
// javac's -Xlint:all warns about every requires of an automatic module (the four above, and
// requires-transitive-automatic for rocksdbjni). They are deliberate and documented above; the
// Maven compiler plugin still lists the filename-based ones on every build.
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module io.p2kv {
  exports io.p2kv;
  exports io.p2kv.rocksdb;

  // io.p2kv.rocksdb.RocksDbConfigurer's signature names org.rocksdb.Options, so every reader of
  // this module needs RocksDB too. Filename-derived automatic name (see above).
  requires transitive rocksdbjni;

  requires java.management; // the JMX MBeans of io.p2kv.internal.metrics
  requires org.agrona; // Automatic-Module-Name
  requires org.jctools.core; // module-info
  requires com.github.benmanes.caffeine; // module-info (the value cache)
  requires org.slf4j; // module-info
  requires affinity; // filename-derived automatic name (see above)
  requires HdrHistogram; // filename-derived automatic name (see above)
}
