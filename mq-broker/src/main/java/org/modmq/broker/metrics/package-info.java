/** The broker's figures computed at scrape time from its live tables, registered on its {@code MetricsSink}. */
package org.modmq.broker.metrics;
