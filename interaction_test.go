package tttbot

import (
	"strconv"
	"testing"
	"time"
)

// idAt is the snowflake of an object Discord made at t, the n-th of its
// millisecond.
func idAt(t time.Time, n uint64) string {
	return strconv.FormatUint(uint64(t.UnixMilli()-1420070400000)<<22|n, 10)
}

func TestNewInteraction(t *testing.T) {
	now := t0
	tests := []struct {
		name   string
		id     string
		want   error
		wantAt time.Time
	}{
		{"just made", idAt(now, 7), nil, now},
		{"made a while ago", idAt(now.Add(-5*time.Second), 0), nil, now.Add(-5 * time.Second)},
		{"within the token's life", idAt(now.Add(-TokenLife+time.Millisecond), 0), nil, now.Add(-TokenLife + time.Millisecond)},
		{"as old as the token's life", idAt(now.Add(-TokenLife), 0), ErrTooOld, time.Time{}},
		{"older", idAt(now.Add(-time.Hour), 0), ErrTooOld, time.Time{}},
		{"ahead of the bot's clock", idAt(now.Add(time.Second), 0), nil, now},
		{"no snowflake", "i1", ErrBadID, time.Time{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, err := NewInteraction(tt.id, now)
			if err != tt.want {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			if err != nil {
				return
			}
			if in.ID != tt.id || !in.At.Equal(tt.wantAt) {
				t.Errorf("got ID %s at %v, want %s at %v", in.ID, in.At, tt.id, tt.wantAt)
			}
		})
	}
}
