/** Broker start-up and wiring: {@code BrokerServer} and {@code BrokerStartup}. */
package org.modmq.broker;
