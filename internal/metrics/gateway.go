package metrics

import (
	"strconv"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/tttbot/tttbot/internal/discord"
)

// Shards reports each gateway shard of this process — its state, its
// reconnections and its heartbeat latency — asking status at each scrape.
// Call it at most once.
func (m *Metrics) Shards(status func() []discord.ShardStatus) {
	m.reg.MustRegister(&shardCollector{
		status: status,
		state: prometheus.NewDesc("tttbot_gateway_shard_state",
			"1 for the state each gateway shard of this process is in (connecting, connected, reconnecting, failed), 0 for the others.",
			[]string{"shard", "state"}, nil),
		up: prometheus.NewDesc("tttbot_gateway_shard_up",
			"1 while a gateway shard is connected with its heartbeats acknowledged.",
			[]string{"shard"}, nil),
		reconnects: prometheus.NewDesc("tttbot_gateway_shard_reconnects_total",
			"Times a gateway shard's connection dropped and was made again (resumed or identified anew).",
			[]string{"shard"}, nil),
		latency: prometheus.NewDesc("tttbot_gateway_shard_heartbeat_latency_seconds",
			"Time Discord took to acknowledge a gateway shard's last heartbeat.",
			[]string{"shard"}, nil),
	})
}

// shardCollector reads the shards' state when scraped, so that nothing
// needs to push it.
type shardCollector struct {
	status                         func() []discord.ShardStatus
	state, up, reconnects, latency *prometheus.Desc
}

func (c *shardCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.state
	ch <- c.up
	ch <- c.reconnects
	ch <- c.latency
}

func (c *shardCollector) Collect(ch chan<- prometheus.Metric) {
	for _, st := range c.status() {
		id := strconv.Itoa(st.ID)
		for _, s := range discord.ShardStates() {
			v := 0.0
			if st.State == s {
				v = 1
			}
			ch <- prometheus.MustNewConstMetric(c.state, prometheus.GaugeValue, v, id, string(s))
		}
		up := 0.0
		if st.Up {
			up = 1
		}
		ch <- prometheus.MustNewConstMetric(c.up, prometheus.GaugeValue, up, id)
		ch <- prometheus.MustNewConstMetric(c.reconnects, prometheus.CounterValue, float64(st.Reconnects), id)
		if st.Latency > 0 {
			ch <- prometheus.MustNewConstMetric(c.latency, prometheus.GaugeValue, st.Latency.Seconds(), id)
		}
	}
}
