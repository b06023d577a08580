/**
 * p2kv: an embedded key-value store that parallelises RocksDB the p2KVS way. Start at {@link
 * io.p2kv.P2kv#builder()}. Packages under {@code io.p2kv.internal} are not API.
 */
package io.p2kv;
