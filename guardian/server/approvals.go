package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/guardianhq/guardian/guardian"
	"github.com/guardianhq/guardian/guardian/approval"
	"github.com/guardianhq/guardian/riskmodel"
)

// The headers with which a client asks for a review to be held for a person when it asks
// (docs/serve.md#approvals). Both are optional; without them an ask goes to the host, unless
// the server holds every ask (guardian serve --approvals queue).
const (
	// HeaderApproval is "queue" (the host cannot prompt: hold the request for a person) or
	// "host" (the host prompts: answer ask at once).
	HeaderApproval = "Guardian-Approval"
	// HeaderWait bounds the hold, as a Go duration ("25s"): the client's own deadline less
	// the time it needs to answer its host. The server's --approval-wait bounds it too.
	HeaderWait = "Guardian-Wait"
)

// The approval modes of HeaderApproval.
const (
	ApprovalQueue = "queue"
	ApprovalHost  = "host"
)

// maxAnswerBody bounds the body of an approve or deny call.
const maxAnswerBody = 64 << 10

// HeaderApproverToken carries the approver token (WithApproverToken) on the calls that answer
// approvals or revoke grants. It is separate from the bearer token, which every hook holds:
// with it set, holding the review token is not enough to approve a request.
const HeaderApproverToken = "Guardian-Approver-Token"

// WithApproverToken requires HeaderApproverToken with this token on POST
// /v1/pending/{id}/approve and /deny and DELETE /v1/grants/{id}. The agents' hooks never get
// it, so an agent that can reach the serve — on loopback or the unix socket, every process of
// the user can — still cannot answer its own requests. "" leaves answering open.
func WithApproverToken(token string) Option {
	return func(s *Server) { s.approver = NewBearerToken(token) }
}

// approverOK checks the approver token of an answering call.
func (s *Server) approverOK(ex *exchange) bool {
	if s.approver == nil {
		return true
	}
	h := http.Header{}
	if v := ex.r.Header.Get(HeaderApproverToken); v != "" {
		h.Set("Authorization", "Bearer "+v)
	}
	if _, ok := s.approver.Check(h); !ok {
		ex.fail(http.StatusForbidden, CodeApproverRequired, "answering approvals needs the approver token: send it in the "+HeaderApproverToken+
			" header (guardian approve reads GUARDIAN_APPROVER_TOKEN); the review token is not enough")
		return false
	}
	return true
}

// WithApprovals lets g settle the reviews that ask: grants apply, requests held for a person
// wait on g, and the approval routes (GET /v1/pending, POST /v1/pending/{id}/approve and
// /deny, GET /v1/grants, DELETE /v1/grants/{id}) answer. Without it they are 404.
func WithApprovals(g *approval.Gate) Option { return func(s *Server) { s.gate = g } }

// holdFrom reads HeaderApproval and HeaderWait.
func holdFrom(h http.Header) (approval.Hold, error) {
	var hold approval.Hold
	switch v := strings.TrimSpace(h.Get(HeaderApproval)); v {
	case "":
	case ApprovalHost:
		hold.Host = true
	case ApprovalQueue:
		hold.Queue = true
	default:
		return hold, fmt.Errorf("header %s: %s: want %q (hold the request for a person) or %q", HeaderApproval, quoteForMessage(v), ApprovalQueue, ApprovalHost)
	}
	if v := strings.TrimSpace(h.Get(HeaderWait)); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return hold, fmt.Errorf("header %s: %s: want a positive duration, e.g. 25s", HeaderWait, quoteForMessage(v))
		}
		hold.Wait = d
	}
	return hold, nil
}

// resolve hands an ask to the gate. A held request outlives the server's write timeout, so
// the connection's write deadline is moved past the longest the gate may hold it.
func (s *Server) resolve(ex *exchange, req guardian.Request, res guardian.Result, hold approval.Hold) (guardian.Result, error) {
	if res.Decision == riskmodel.Ask {
		_ = http.NewResponseController(ex.w).SetWriteDeadline(time.Now().Add(s.gate.Wait() + WriteTimeout))
	}
	return s.gate.Resolve(ex.r.Context(), req, ex.caller, res, hold)
}

// The route names of the approval routes (metrics and log lines carry these, not raw paths).
const (
	routePendingOne     = RoutePending + "/{id}"
	routePendingApprove = RoutePending + "/{id}/approve"
	routePendingDeny    = RoutePending + "/{id}/deny"
	routeGrantOne       = RouteGrants + "/{id}"
)

// addApprovalRoutes registers the approval routes.
func (s *Server) addApprovalRoutes(get []string) {
	post, del := []string{http.MethodPost}, []string{http.MethodDelete}
	for _, r := range []route{
		{name: RoutePending, methods: get, handle: (*Server).pendingList},
		{name: routePendingOne, methods: get, handle: (*Server).pendingOne},
		{name: routePendingApprove, methods: post, handle: (*Server).pendingApprove},
		{name: routePendingDeny, methods: post, handle: (*Server).pendingDeny},
		{name: RouteGrants, methods: get, handle: (*Server).grantList},
		{name: routeGrantOne, methods: del, handle: (*Server).grantRevoke},
	} {
		s.routes[r.name] = r
	}
}

// lookup finds the route of a path: an exact route, or an approval route with an id in it.
func (s *Server) lookup(path string) (route, string, bool) {
	if rt, ok := s.routes[path]; ok {
		return rt, "", true
	}
	var name, id string
	switch {
	case strings.HasPrefix(path, RoutePending+"/"):
		rest := path[len(RoutePending)+1:]
		id, name = rest, routePendingOne
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			id = rest[:i]
			switch rest[i:] {
			case "/approve":
				name = routePendingApprove
			case "/deny":
				name = routePendingDeny
			default:
				return route{}, "", false
			}
		}
	case strings.HasPrefix(path, RouteGrants+"/"):
		id, name = path[len(RouteGrants)+1:], routeGrantOne
	default:
		return route{}, "", false
	}
	if !validID(id) {
		return route{}, "", false
	}
	rt, ok := s.routes[name]
	return rt, id, ok
}

// validID accepts what an id prefix can be: 1 to 64 hex digits.
func validID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') && (c < 'A' || c > 'F') {
			return false
		}
	}
	return true
}

// PendingList is the reply of GET /v1/pending: the approvals, oldest first.
type PendingList struct {
	Pending []approval.Pending `json:"pending"`
}

// ApprovalBody is the reply of GET /v1/pending/{id} and of POST …/deny; POST …/approve adds
// the grant an approval with a wide scope created.
type ApprovalBody struct {
	Approval approval.Pending `json:"approval"`
	Grant    *approval.Grant  `json:"grant,omitempty"`
}

// GrantList is the reply of GET /v1/grants: the unexpired grants, oldest first.
type GrantList struct {
	Grants []approval.Grant `json:"grants"`
}

// GrantBody is the reply of DELETE /v1/grants/{id}: the grant revoked.
type GrantBody struct {
	Grant approval.Grant `json:"grant"`
}

// AnswerRequest is the body of POST /v1/pending/{id}/approve and …/deny. By is required:
// the audit log records who answered. Scope and TTL apply to approve only ("" is once; TTL a
// Go duration, "" the scope's default).
type AnswerRequest struct {
	By     string `json:"by"`
	Scope  string `json:"scope,omitempty"`
	Reason string `json:"reason,omitempty"`
	TTL    string `json:"ttl,omitempty"`
}

// approvalsOn answers 404 when the server has no approval queue.
func (s *Server) approvalsOn(ex *exchange) bool {
	if s.gate == nil {
		ex.fail(http.StatusNotFound, CodeNotFound, "approvals are not enabled on this server (guardian serve --approvals)")
		return false
	}
	return true
}

func (s *Server) pendingList(ex *exchange) {
	if !s.approvalsOn(ex) {
		return
	}
	all := false
	if q := ex.r.URL.Query(); q.Has("all") {
		switch q.Get("all") {
		case "", "1", "true":
			all = true
		case "0", "false":
		default:
			ex.fail(http.StatusBadRequest, CodeBadRequest, "bad all "+quoteForMessage(q.Get("all"))+": want 1 or 0")
			return
		}
	}
	ps, err := s.gate.Store().List(ex.r.Context(), all)
	if err != nil {
		s.approvalError(ex, err)
		return
	}
	ex.json(http.StatusOK, PendingList{Pending: ps})
}

func (s *Server) pendingOne(ex *exchange) {
	if !s.approvalsOn(ex) {
		return
	}
	p, err := s.gate.Store().Get(ex.r.Context(), ex.id)
	if err != nil {
		s.approvalError(ex, err)
		return
	}
	ex.json(http.StatusOK, ApprovalBody{Approval: p})
}

func (s *Server) pendingApprove(ex *exchange) { s.pendingAnswer(ex, true) }
func (s *Server) pendingDeny(ex *exchange)    { s.pendingAnswer(ex, false) }

func (s *Server) pendingAnswer(ex *exchange, allow bool) {
	if !s.approvalsOn(ex) || !s.approverOK(ex) {
		return
	}
	var body AnswerRequest
	if err := decodeBody(ex, &body); err != nil {
		ex.fail(http.StatusBadRequest, CodeBadRequest, err.Error())
		return
	}
	scope, err := approval.ParseScope(body.Scope)
	if err != nil {
		ex.fail(http.StatusBadRequest, CodeBadRequest, err.Error())
		return
	}
	a := approval.Answer{By: body.By, Scope: scope, Reason: body.Reason}
	if body.TTL != "" {
		if a.TTL, err = time.ParseDuration(body.TTL); err != nil || a.TTL <= 0 {
			ex.fail(http.StatusBadRequest, CodeBadRequest, "bad ttl "+quoteForMessage(body.TTL)+": want a positive duration, e.g. 8h")
			return
		}
	}
	ctx := context.WithoutCancel(ex.r.Context()) // an answer, once begun, is recorded whole
	var (
		p  approval.Pending
		gr *approval.Grant
	)
	if allow {
		p, gr, err = s.gate.Approve(ctx, ex.id, a)
	} else {
		p, err = s.gate.Deny(ctx, ex.id, a)
	}
	if err != nil {
		s.approvalError(ex, err)
		return
	}
	ex.decision, ex.status, ex.decidedBy = p.Answer.Decision.String(), string(guardian.StatusHuman), "human:"+p.Answer.By
	ex.json(http.StatusOK, ApprovalBody{Approval: p, Grant: gr})
}

func (s *Server) grantList(ex *exchange) {
	if !s.approvalsOn(ex) {
		return
	}
	gs, err := s.gate.Store().Grants(ex.r.Context(), time.Now())
	if err != nil {
		s.approvalError(ex, err)
		return
	}
	ex.json(http.StatusOK, GrantList{Grants: gs})
}

func (s *Server) grantRevoke(ex *exchange) {
	if !s.approvalsOn(ex) || !s.approverOK(ex) {
		return
	}
	g, err := s.gate.Revoke(context.WithoutCancel(ex.r.Context()), ex.id)
	if err != nil {
		s.approvalError(ex, err)
		return
	}
	ex.json(http.StatusOK, GrantBody{Grant: g})
}

// approvalError maps the approval package's errors to replies.
func (s *Server) approvalError(ex *exchange, err error) {
	switch {
	case errors.Is(err, approval.ErrNotFound):
		ex.fail(http.StatusNotFound, CodeNotFound, err.Error())
	case errors.Is(err, approval.ErrAmbiguous):
		ex.fail(http.StatusConflict, CodeAmbiguous, err.Error())
	case errors.Is(err, approval.ErrSettled):
		ex.fail(http.StatusConflict, CodeAnswered, err.Error())
	case errors.Is(err, approval.ErrScope):
		ex.fail(http.StatusUnprocessableEntity, CodeScopeRefused, err.Error())
	default:
		ex.err = err
		ex.fail(http.StatusInternalServerError, CodeInternal, err.Error())
	}
}

// decodeBody reads a small JSON body strictly into v; an empty body is an empty object.
func decodeBody(ex *exchange, v any) error {
	var b bytes.Buffer
	if _, err := b.ReadFrom(http.MaxBytesReader(ex.w, ex.r.Body, maxAnswerBody)); err != nil {
		return fmt.Errorf("read the body: %w", err)
	}
	if len(bytes.TrimSpace(b.Bytes())) == 0 {
		return errors.New(`empty body: send a JSON object, e.g. {"by":"alice","scope":"once"}`)
	}
	dec := json.NewDecoder(&b)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("decode the body: %w", err)
	}
	if dec.More() {
		return errors.New("decode the body: data after the JSON object")
	}
	return nil
}
