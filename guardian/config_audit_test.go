package guardian

import (
	"path/filepath"
	"testing"
)

func TestLoadConfigAudit(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	c, err := LoadConfig("testdata/config/valid_audit.toml")
	if err != nil {
		t.Fatal(err)
	}
	want := AuditConfig{Path: filepath.Join(home, "logs", "guardian", "audit.jsonl"), Sync: "batch", MaxSize: 500_000}
	if c.Audit != want {
		t.Errorf("audit = %+v, want %+v (~ expanded with $HOME)", c.Audit, want)
	}

	// Without [audit]: the defaults, and no path (the CLI then asks GUARDIAN_AUDIT_LOG).
	c, err = LoadConfig("testdata/config/valid_empty.toml")
	if err != nil {
		t.Fatal(err)
	}
	if c.Audit != DefaultAuditConfig() || c.Audit.Sync != "record" || c.Audit.MaxSize != 64<<20 {
		t.Errorf("default audit = %+v", c.Audit)
	}
}

func TestAuditMaxSize(t *testing.T) {
	tests := []struct {
		value string // the TOML value of max_size
		want  int64  // 0: an error
	}{
		{`"64MiB"`, 64 << 20},
		{`"500KB"`, 500_000},
		{`"1 GiB"`, 1 << 30},
		{`"2gb"`, 2_000_000_000},
		{`"65536"`, 65536},
		{`"65536B"`, 65536},
		{`65536`, 65536},
		{`1_048_576`, 1 << 20},
		{`"64KiB"`, 64 << 10},
		{`"64KB"`, 0},   // 64 000 bytes: below 64 KiB
		{`65535`, 0},    // below 64 KiB
		{`0`, 0},        // rotation cannot be switched off from the config
		{`-1`, 0},       // negative
		{`"1.5GiB"`, 0}, // whole numbers only
		{`"64M"`, 0},    // ambiguous unit
		{`"MiB"`, 0},
		{`""`, 0},
		{`"99999999999TiB"`, 0}, // overflows int64
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			f := filepath.Join(t.TempDir(), "c.toml")
			writeFile(t, f, "[audit]\nmax_size = "+tt.value+"\n")
			c, err := LoadConfig(f)
			switch {
			case tt.want == 0 && err == nil:
				t.Errorf("max_size = %s loaded as %d, want an error", tt.value, c.Audit.MaxSize)
			case tt.want != 0 && err != nil:
				t.Errorf("max_size = %s: %v", tt.value, err)
			case tt.want != 0 && c.Audit.MaxSize != tt.want:
				t.Errorf("max_size = %s gave %d, want %d", tt.value, c.Audit.MaxSize, tt.want)
			}
		})
	}
}
