package server

import (
	"fmt"
	"net/http"
	"time"
)

// RouteEvents is the server-sent event stream of what happens: decisions as they are audited,
// breaker changes, and whatever else publishes on the server's hub.
const RouteEvents = "/v1/events"

// DefaultHeartbeat is how often an idle event stream gets a comment line, so proxies and
// browsers keep it open and a dead viewer is noticed by the failed write.
const DefaultHeartbeat = 15 * time.Second

// eventWriteTimeout bounds one write to an event stream: a viewer that stops reading is cut
// off after it, instead of holding its goroutine and buffer.
const eventWriteTimeout = 10 * time.Second

// maxBatch bounds how many waiting events one flush carries.
const maxBatch = 64

// WithEvents publishes on hub and serves its events at GET /v1/events. Without it that route
// is 404. The caller publishes decisions on it (see EventDecision); the server itself
// publishes breaker changes.
func WithEvents(hub *Hub) Option { return func(s *Server) { s.hub = hub } }

// WithHeartbeat sets how often an idle event stream gets a keep-alive comment
// (DefaultHeartbeat). Values below 1 are ignored.
func WithHeartbeat(d time.Duration) Option {
	return func(s *Server) {
		if d > 0 {
			s.heartbeat = d
		}
	}
}

// events answers GET /v1/events with a text/event-stream: "id", "event" (the Event's kind)
// and one "data" line of JSON per event, a comment every heartbeat, and "event: lagged" before
// the stream ends when the viewer fell behind (EventSource reconnects by itself; the console
// then reloads what it shows).
func (s *Server) events(ex *exchange) {
	if s.hub == nil {
		ex.fail(http.StatusNotFound, CodeNotFound, "events are not enabled on this server")
		return
	}
	sub, ok := s.hub.Subscribe()
	if !ok {
		ex.w.Header().Set("Retry-After", "5")
		ex.fail(http.StatusServiceUnavailable, CodeSaturated, "too many event streams are open; close a console tab or retry later")
		return
	}
	defer s.hub.Unsubscribe(sub)
	rc := http.NewResponseController(ex.w)
	h := ex.w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Accel-Buffering", "no") // nginx: do not buffer the stream
	ex.code = http.StatusOK
	ex.w.WriteHeader(http.StatusOK)
	send := func(format string, args ...any) bool {
		// The server's WriteTimeout is for replies; a stream gets a deadline per write.
		_ = rc.SetWriteDeadline(time.Now().Add(eventWriteTimeout))
		if _, err := fmt.Fprintf(ex.w, format, args...); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if !send("retry: 3000\n: guardian events\n\n") {
		return
	}
	tick := time.NewTicker(s.heartbeat)
	defer tick.Stop()
	ctx := ex.r.Context()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			if !send(": ping\n\n") {
				return
			}
		case n, open := <-sub.C:
			if !open {
				if sub.Lagged() {
					send("event: %s\ndata: {}\n\n", eventLagged)
				}
				return
			}
			// Under load, write what else is waiting too and flush once: one syscall for a
			// burst of decisions instead of one each.
			_ = rc.SetWriteDeadline(time.Now().Add(eventWriteTimeout))
			_, err := ex.w.Write(n.frame)
		more:
			for i := 0; err == nil && i < maxBatch; i++ {
				select {
				case n, open = <-sub.C:
					if !open {
						break more // the next receive sees the close
					}
					_, err = ex.w.Write(n.frame)
				default:
					break more
				}
			}
			if err != nil || rc.Flush() != nil || !open {
				if !open && sub.Lagged() {
					send("event: %s\ndata: {}\n\n", eventLagged)
				}
				return
			}
		}
	}
}
