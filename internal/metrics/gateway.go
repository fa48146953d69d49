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
	m.reg.MustRegister(&shardCollector{status: status})
}

var (
	shardStateDesc = prometheus.NewDesc("tttbot_gateway_shard_state",
		"1 for the state each gateway shard of this process is in (connecting, connected, reconnecting, failed), 0 for the others.",
		[]string{"shard", "state"}, nil)
	shardUpDesc = prometheus.NewDesc("tttbot_gateway_shard_up",
		"1 while a gateway shard is connected with its heartbeats acknowledged.",
		[]string{"shard"}, nil)
	shardReconnectsDesc = prometheus.NewDesc("tttbot_gateway_shard_reconnects_total",
		"Times a gateway shard's connection dropped and was made again (resumed or identified anew).",
		[]string{"shard"}, nil)
	shardLatencyDesc = prometheus.NewDesc("tttbot_gateway_shard_heartbeat_latency_seconds",
		"Time Discord took to acknowledge a gateway shard's last heartbeat.",
		[]string{"shard"}, nil)
)

// shardCollector reads the shards' state when scraped, so that nothing
// needs to push it.
type shardCollector struct {
	status func() []discord.ShardStatus
}

func (c *shardCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- shardStateDesc
	ch <- shardUpDesc
	ch <- shardReconnectsDesc
	ch <- shardLatencyDesc
}

func (c *shardCollector) Collect(ch chan<- prometheus.Metric) {
	for _, st := range c.status() {
		id := strconv.Itoa(st.ID)
		for _, s := range discord.ShardStates {
			v := 0.0
			if st.State == s {
				v = 1
			}
			ch <- prometheus.MustNewConstMetric(shardStateDesc, prometheus.GaugeValue, v, id, string(s))
		}
		up := 0.0
		if st.Up {
			up = 1
		}
		ch <- prometheus.MustNewConstMetric(shardUpDesc, prometheus.GaugeValue, up, id)
		ch <- prometheus.MustNewConstMetric(shardReconnectsDesc, prometheus.CounterValue, float64(st.Reconnects), id)
		if st.Latency > 0 {
			ch <- prometheus.MustNewConstMetric(shardLatencyDesc, prometheus.GaugeValue, st.Latency.Seconds(), id)
		}
	}
}
