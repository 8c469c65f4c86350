/**
 * What the parts of a running broker share ({@code BrokerRuntime}) and the seams where the message
 * store plugs in: {@code StoreBindingFactory} opens a {@code StoreBinding}, which supplies
 * {@code QueueOffsets} and registers the data-path processors through {@code ProcessorRegistrar}.
 */
package org.modmq.broker.runtime;
