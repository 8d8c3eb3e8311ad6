package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"github.com/guardianhq/guardian/guardian/approval"
)

// Pending lists the server's approvals: the open ones, or with all also those recently
// answered or expired.
func (c *Client) Pending(ctx context.Context, all bool) ([]approval.Pending, error) {
	path := RoutePending
	if all {
		path += "?all=1"
	}
	var out PendingList
	if err := c.call(ctx, http.MethodGet, path, nil, &out); err != nil {
		return nil, err
	}
	return out.Pending, nil
}

// Approval returns the approval id (or an unambiguous prefix of it) names.
func (c *Client) Approval(ctx context.Context, id string) (approval.Pending, error) {
	var out ApprovalBody
	err := c.call(ctx, http.MethodGet, RoutePending+"/"+url.PathEscape(id), nil, &out)
	return out.Approval, err
}

// Approve answers an approval with allow; the grant is non-nil for a scope other than once.
func (c *Client) Approve(ctx context.Context, id string, a AnswerRequest) (approval.Pending, *approval.Grant, error) {
	var out ApprovalBody
	err := c.call(ctx, http.MethodPost, RoutePending+"/"+url.PathEscape(id)+"/approve", a, &out)
	return out.Approval, out.Grant, err
}

// Deny answers an approval with deny.
func (c *Client) Deny(ctx context.Context, id string, a AnswerRequest) (approval.Pending, error) {
	var out ApprovalBody
	err := c.call(ctx, http.MethodPost, RoutePending+"/"+url.PathEscape(id)+"/deny", a, &out)
	return out.Approval, err
}

// Grants lists the unexpired grants.
func (c *Client) Grants(ctx context.Context) ([]approval.Grant, error) {
	var out GrantList
	if err := c.call(ctx, http.MethodGet, RouteGrants, nil, &out); err != nil {
		return nil, err
	}
	return out.Grants, nil
}

// RevokeGrant removes the grant id (or an unambiguous prefix of it) names.
func (c *Client) RevokeGrant(ctx context.Context, id string) (approval.Grant, error) {
	var out GrantBody
	err := c.call(ctx, http.MethodDelete, RouteGrants+"/"+url.PathEscape(id), nil, &out)
	return out.Grant, err
}

// call sends one JSON request and decodes a 200 reply into out; any other reply is a
// *StatusError, an unreachable server wraps ErrUnreachable.
func (c *Client) call(ctx context.Context, method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return fmt.Errorf("encode the request: %w", err)
		}
		body = bytes.NewReader(b)
	}
	hr, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return fmt.Errorf("guardian serve at %s: %w", c.target, err)
	}
	if in != nil {
		hr.Header.Set("Content-Type", "application/json")
	}
	hr.Header.Set("Accept", "application/json")
	c.decorate(ctx, hr)
	resp, err := c.hc.Do(hr)
	if err != nil {
		return c.transportError(ctx, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxReplyBytes+1))
	if err != nil {
		return fmt.Errorf("guardian serve at %s: read the reply: %w", c.target, err)
	}
	if resp.StatusCode != http.StatusOK {
		return c.statusError(resp, b)
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("guardian serve at %s: bad reply: %w", c.target, err)
	}
	return nil
}
