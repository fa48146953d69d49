package config

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// MaxShards bounds discord.shard_count and the IDs of discord.shard_ids:
// far past what Discord recommends for any bot, and small enough that a
// range cannot make a list that exhausts memory.
const MaxShards = 1 << 16

// ParseShardIDs reads discord.shard_ids: shard IDs and inclusive ranges
// separated by commas, such as "0-3" or "0,2,5-7", spaces around each item
// allowed. Empty means every shard, and gives nil. The IDs come back
// sorted; an ID listed twice, a range that runs backwards, and anything
// but digits are errors that quote the item.
func ParseShardIDs(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	seen := make(map[int]bool)
	var ids []int
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			return nil, fmt.Errorf("empty item in %q: want shard IDs or ranges separated by commas, e.g. \"0-3\" or \"0,2,5-7\"", s)
		}
		lo, hi, isRange := strings.Cut(item, "-")
		first, err := shardID(lo, item)
		if err != nil {
			return nil, err
		}
		last := first
		if isRange {
			if last, err = shardID(hi, item); err != nil {
				return nil, err
			}
			if last < first {
				return nil, fmt.Errorf("range %q runs backwards: want the lower ID first", item)
			}
		}
		for id := first; id <= last; id++ {
			if seen[id] {
				return nil, fmt.Errorf("shard %d is listed twice in %q", id, s)
			}
			seen[id] = true
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids, nil
}

// shardID reads one ID of item: decimal digits only, below MaxShards.
func shardID(s, item string) (int, error) {
	s = strings.TrimSpace(s)
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return 0, fmt.Errorf("%q: want a shard ID (0, 1, ...) or a range of them (\"0-3\")", item)
	}
	n, err := strconv.Atoi(s)
	if err != nil || n >= MaxShards {
		return 0, fmt.Errorf("%q: a shard ID must be below %d", item, MaxShards)
	}
	return n, nil
}
