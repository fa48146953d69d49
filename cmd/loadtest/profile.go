package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"
)

// profiling is the [http] lines that serve a bot's profiles on admin, or
// nothing without an admin listener.
func profiling(admin string) string {
	if admin == "" {
		return ""
	}
	return fmt.Sprintf("admin_listen = %q\npprof = true", admin)
}

// fetchProfile asks the bot's admin listener at addr for a CPU profile of
// the next d, and writes it to path.
func fetchProfile(ctx context.Context, addr string, d time.Duration, path string) error {
	secs := max(int(d.Round(time.Second)/time.Second), 1)
	url := fmt.Sprintf("http://%s/debug/pprof/profile?seconds=%d", addr, secs)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("cpu profile: %w", err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("cpu profile: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("cpu profile: %s", resp.Status)
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("cpu profile: %w", err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("cpu profile: %w", err)
	}
	return nil
}
