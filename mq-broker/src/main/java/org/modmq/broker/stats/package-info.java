/** Traffic counters of a running broker (put/get rates, daily totals, last pull offsets), read by the admin processors. */
package org.modmq.broker.stats;
