package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
)

// recent answers GET /v1/decisions?limit=N with the newest N audit records, newest last.
func (s *Server) recent(ex *exchange) {
	if s.decisions == nil {
		ex.fail(http.StatusNotFound, CodeNotFound, "decisions are not available: this server has no audit log")
		return
	}
	n := DefaultDecisionsLimit
	if q := ex.r.URL.Query(); q.Has("limit") {
		v, err := strconv.Atoi(q.Get("limit"))
		if err != nil || v < 1 || v > MaxDecisionsLimit {
			ex.fail(http.StatusBadRequest, CodeBadRequest, fmt.Sprintf("bad limit %s: want an integer from 1 to %d (default %d), e.g. /v1/decisions?limit=20",
				quoteForMessage(q.Get("limit")), MaxDecisionsLimit, DefaultDecisionsLimit))
			return
		}
		n = v
	}
	recs, err := s.decisions.Recent(ex.r.Context(), n)
	if err != nil {
		ex.err = err
		ex.fail(http.StatusInternalServerError, CodeInternal, "cannot read the audit log: "+err.Error())
		return
	}
	if len(recs) > n {
		recs = recs[len(recs)-n:]
	}
	if recs == nil {
		recs = []json.RawMessage{}
	}
	ex.json(http.StatusOK, DecisionsBody{Decisions: recs})
}
