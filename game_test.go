package tttbot

import (
	"errors"
	"testing"

	"github.com/tttbot/tttbot/internal/game"
)

func TestGamePosition(t *testing.T) {
	tests := []struct {
		name    string
		g       Game
		want    string // the position's notation; "" when it cannot be read
		wantErr error
	}{
		{"empty 3×3", Game{Rows: 3, Cols: 3, K: 3, Board: ".../.../..."}, ".../.../...", nil},
		{"two moves on 4×4", Game{Rows: 4, Cols: 4, K: 4, Board: "X.../..../..O./...."}, "X.../..../..O./....", nil},
		{"bad shape", Game{Rows: 9, Cols: 9, K: 3, Board: ".../.../..."}, "", game.ErrGeometry},
		{"board of another shape", Game{Rows: 4, Cols: 4, K: 4, Board: ".../.../..."}, "", game.ErrNotation},
		{"garbage", Game{Rows: 3, Cols: 3, K: 3, Board: "xyz"}, "", game.ErrNotation},
		{"illegal position", Game{Rows: 3, Cols: 3, K: 3, Board: "XX./.../..."}, "", game.ErrIllegal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pos, err := tt.g.Position()
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("got error %v, want %v", err, tt.wantErr)
			}
			if err == nil && pos.String() != tt.want {
				t.Errorf("got %q, want %q", pos.String(), tt.want)
			}
			if err == nil && pos.Geometry().K != tt.g.K {
				t.Errorf("got K %d, want %d", pos.Geometry().K, tt.g.K)
			}
		})
	}
}
