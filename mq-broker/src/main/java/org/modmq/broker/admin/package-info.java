/**
 * Broker administration and statistics: GET_BROKER_RUNTIME_INFO, topic and consumption statistics,
 * who-consumes-what lookups and run-time configuration changes, over the broker's metadata, a
 * {@code QueueStatsSource} implemented by the store adapter and the {@code BrokerStats} fed by the
 * send and pull paths. {@code AdminProcessors} registers everything.
 */
package org.modmq.broker.admin;


