package redisstore_test

import (
	"fmt"
	"testing"

	"github.com/guardianhq/guardian/guardian/approval"
	"github.com/guardianhq/guardian/guardian/approval/approvaltest"
	"github.com/guardianhq/guardian/guardian/redisstore"
	"github.com/guardianhq/guardian/guardian/redisstore/redistest"
)

// TestApprovalsStore runs the suite the FileStore passes against Redis, each test under its
// own prefix on one server.
func TestApprovalsStore(t *testing.T) {
	srv := redistest.Start(t)
	n := 0
	approvaltest.Run(t, func(t *testing.T) approval.Store {
		n++
		a := newStore(t, srv.URL, redisstore.WithPrefix(fmt.Sprintf("suite%d", n))).Approvals()
		t.Cleanup(func() { a.Close() })
		return a
	})
}
