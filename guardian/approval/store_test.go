package approval_test

import (
	"path/filepath"
	"testing"

	"github.com/guardianhq/guardian/guardian/approval"
	"github.com/guardianhq/guardian/guardian/approval/approvaltest"
)

func TestMemoryStore(t *testing.T) {
	approvaltest.Run(t, func(t *testing.T) approval.Store { return approval.NewMemoryStore() })
}

func TestFileStore(t *testing.T) {
	approvaltest.Run(t, func(t *testing.T) approval.Store {
		s, err := approval.OpenFileStore(filepath.Join(t.TempDir(), "approvals.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}
