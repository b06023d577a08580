/**
 * The {@code ./p2kv} launcher's commands: {@code demo} (p2kv against plain RocksDB on this
 * machine), {@code stats} (a closed store's manifest and shard statistics) and {@code example}.
 * Entry point: {@link io.p2kv.examples.tools.P2kvCli}. These tools use p2kv's internal engine
 * package for the RocksDB baseline; applications should use only the public API.
 */
package io.p2kv.examples.tools;
