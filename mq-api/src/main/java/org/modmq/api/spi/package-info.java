/**
 * What every plugin SPI shares: providers found by name ({@link org.modmq.api.spi.NamedProvider},
 * {@link org.modmq.api.spi.ProviderRegistry}), the keys a provider declares
 * ({@link org.modmq.api.spi.NamedProvider#configKeys()}) and what the runtime hands a plugin
 * ({@link org.modmq.api.spi.PluginContext}).
 *
 * <h2>One lifecycle: create, start, close</h2>
 *
 * Every product of a provider ({@code StorageBackend}, {@code FlushPolicy}, {@code ReplicationStrategy})
 * goes through the same three steps, all on the runtime's start-up or shutdown thread, one at a time and
 * never concurrently with each other:
 * <ol>
 *   <li><b>create</b>: {@code provider.create(PluginConfig, <Context>)}. The runtime has already parsed
 *       and checked the declared keys; create reads them, may probe the file system and fails fast with a
 *       {@link org.modmq.api.config.ConfigException} or the SPI's own exception. It binds no port and
 *       dials no peer.</li>
 *   <li><b>start</b>: called once, before the first use. It may start threads or tasks on the context's
 *       scheduler and bind ports. For storage backends and flush policies it is a no-op by default (they
 *       are ready when created); a replication strategy binds its HA port here.</li>
 *   <li><b>close</b>: idempotent; stops threads, releases files and buffers. The runtime closes in the
 *       reverse order of creation (replication, flush policy, then the backend) and also closes a product
 *       whose {@code start} failed.</li>
 * </ol>
 * Between start and close, the calls each SPI's Javadoc names come from the threads it names (writer
 * threads for {@code appended}, the store for role transitions); those rules live in the SPI, not in
 * the broker.
 */
package org.modmq.api.spi;
