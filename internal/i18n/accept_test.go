package i18n

import "testing"

func TestForAccept(t *testing.T) {
	c, err := Load(files, "en-US")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ header, want string }{
		{"", "en-US"},
		{"de", "de"},
		{"de-AT,de;q=0.9", "de"},
		{"fr;q=0.9, pl;q=0.8", "pl"},
		{"fr, de;q=0.5, pl;q=0.8", "pl"},
		{"en-GB,en;q=0.9", "en-US"},
		{"*", "en-US"},
		{"garbage;;q=x", "en-US"},
	}
	for _, tt := range tests {
		if got := c.ForAccept(tt.header).Code(); got != tt.want {
			t.Errorf("ForAccept(%q): got %s, want %s", tt.header, got, tt.want)
		}
	}
}
