package org.modmq.compat;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What {@link DashboardQueries} takes as metric names out of PromQL. */
class DashboardQueriesTest {

    @Test
    void findsMetricsButNotFunctionsLabelsKeywordsOrNumbers() {
        assertThat(DashboardQueries.metricNames("histogram_quantile(0.99, sum by (le, request_code) "
                + "(rate(rocketmq_rpc_latency_bucket{cluster=~\"$cluster\", node_type=\"broker\"}[1m])))"))
                .containsExactly("rocketmq_rpc_latency_bucket");
        assertThat(DashboardQueries.metricNames("sum(rate(a_total[5m])) / ignoring (x) sum without (y) (b) "
                + "> bool 1e3 and on (z) c offset 5m"))
                .containsExactly("a_total", "b", "c");
        assertThat(DashboardQueries.metricNames("role{node_type=~\"controller|namesrv\"}")).containsExactly("role");
        assertThat(DashboardQueries.metricNames("label_values(rocketmq_broker_permission{cluster=~\"$cluster\"}, "
                + "node_id)")).containsExactly("rocketmq_broker_permission");
    }
}
