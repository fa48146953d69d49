package tttbot

import (
	"testing"
	"time"
)

func TestNextDaily(t *testing.T) {
	day := time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		hour int
		now  time.Time
		want time.Time
	}{
		{9, day, day.Add(9 * time.Hour)},
		{9, day.Add(9 * time.Hour), day.Add(33 * time.Hour)}, // at the hour: the next day's
		{9, day.Add(9*time.Hour - time.Nanosecond), day.Add(9 * time.Hour)},
		{0, day.Add(23 * time.Hour), day.AddDate(0, 0, 1)},
		{23, day.Add(30 * time.Minute).In(time.FixedZone("UTC+2", 7200)), day.Add(23 * time.Hour)},
	} {
		if got := NextDaily(tt.hour, tt.now); !got.Equal(tt.want) || got.Location() != time.UTC {
			t.Errorf("NextDaily(%d, %v) = %v, want %v", tt.hour, tt.now, got, tt.want)
		}
	}
}

func TestDailyPuzzle(t *testing.T) {
	set := []Puzzle{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}, {ID: "e"}}
	day := time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)
	first, _ := DailyPuzzle(day, set)
	// The same all day, in every zone; not the same every day.
	if got, _ := DailyPuzzle(day.Add(23*time.Hour).In(time.FixedZone("UTC-8", -8*3600)), set); got.ID != first.ID {
		t.Errorf("later that day: %s, want %s", got.ID, first.ID)
	}
	seen := map[string]bool{}
	for d := range 30 {
		p, ok := DailyPuzzle(day.AddDate(0, 0, d), set)
		if !ok {
			t.Fatal("no puzzle")
		}
		seen[p.ID] = true
	}
	if len(seen) < 3 {
		t.Errorf("30 days chose %d puzzles of 5", len(seen))
	}
	if _, ok := DailyPuzzle(day, nil); ok {
		t.Error("a puzzle from an empty set")
	}
}

func TestDailyValidate(t *testing.T) {
	now := time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		d  Daily
		ok bool
	}{
		{Daily{}, true},
		{NewDaily("123", 0, now), true},
		{NewDaily("123", 23, now), true},
		{NewDaily("123", 24, now), false},
		{NewDaily("123", -1, now), false},
		{NewDaily("#general", 9, now), false},
		{Daily{Channel: "123", Hour: 9}, false},
		{Daily{Hour: 9}, false},
	} {
		s := Settings{GuildID: "1", Daily: tt.d}
		if err := s.Validate(); (err == nil) != tt.ok {
			t.Errorf("%+v: %v, want ok %v", tt.d, err, tt.ok)
		}
	}
}
