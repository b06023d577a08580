/**
 * Kafka Streams key-value state stores on p2kv: {@link io.p2kv.kafka.P2kvStores} for single
 * stores, {@link io.p2kv.kafka.P2kvDslStoreSuppliers} for every key-value store of the DSL.
 */
package io.p2kv.kafka;
