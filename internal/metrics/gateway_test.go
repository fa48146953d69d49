package metrics

import (
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/tttbot/tttbot/internal/discord"
)

func TestShards(t *testing.T) {
	m := New()
	status := []discord.ShardStatus{
		{ID: 0, Count: 2, State: discord.ShardConnected, Up: true, Latency: 40 * time.Millisecond},
		{ID: 1, Count: 2, State: discord.ShardReconnecting, Reconnects: 3},
	}
	m.Shards(func() []discord.ShardStatus { return status })
	want := `
# HELP tttbot_gateway_shard_heartbeat_latency_seconds Time Discord took to acknowledge a gateway shard's last heartbeat.
# TYPE tttbot_gateway_shard_heartbeat_latency_seconds gauge
tttbot_gateway_shard_heartbeat_latency_seconds{shard="0"} 0.04
# HELP tttbot_gateway_shard_reconnects_total Times a gateway shard's connection dropped and was made again (resumed or identified anew).
# TYPE tttbot_gateway_shard_reconnects_total counter
tttbot_gateway_shard_reconnects_total{shard="0"} 0
tttbot_gateway_shard_reconnects_total{shard="1"} 3
# HELP tttbot_gateway_shard_state 1 for the state each gateway shard of this process is in (connecting, connected, reconnecting, failed), 0 for the others.
# TYPE tttbot_gateway_shard_state gauge
tttbot_gateway_shard_state{shard="0",state="connected"} 1
tttbot_gateway_shard_state{shard="0",state="connecting"} 0
tttbot_gateway_shard_state{shard="0",state="failed"} 0
tttbot_gateway_shard_state{shard="0",state="reconnecting"} 0
tttbot_gateway_shard_state{shard="1",state="connected"} 0
tttbot_gateway_shard_state{shard="1",state="connecting"} 0
tttbot_gateway_shard_state{shard="1",state="failed"} 0
tttbot_gateway_shard_state{shard="1",state="reconnecting"} 1
# HELP tttbot_gateway_shard_up 1 while a gateway shard is connected with its heartbeats acknowledged.
# TYPE tttbot_gateway_shard_up gauge
tttbot_gateway_shard_up{shard="0"} 1
tttbot_gateway_shard_up{shard="1"} 0
`
	err := testutil.GatherAndCompare(m.Registry(), strings.NewReader(want),
		"tttbot_gateway_shard_state", "tttbot_gateway_shard_up", "tttbot_gateway_shard_reconnects_total", "tttbot_gateway_shard_heartbeat_latency_seconds")
	if err != nil {
		t.Error(err)
	}
}
