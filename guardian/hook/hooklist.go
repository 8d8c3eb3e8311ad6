package hook

import (
	"encoding/json"
	"fmt"
)

// editHookList puts mine (nil: nothing) in place of guardian's entries in the list under
// hooks.<event> of a versioned hooks file ({"version": 1, "hooks": {EVENT: [entry…]}}, the
// shape Copilot CLI and Cursor share), keeping every other key and entry in its place; an
// event left empty is removed. ours says whether an entry is guardian's.
func editHookList(content []byte, event string, mine json.RawMessage, ours func(entry json.RawMessage) bool) ([]byte, error) {
	root, err := parseObject(content)
	if err != nil {
		return nil, fmt.Errorf("not a JSON object: %w", err)
	}
	if root.get("version") == nil {
		root.set("version", json.RawMessage("1"))
	}
	hooks, err := parseObject(root.get("hooks"))
	if err != nil {
		return nil, fmt.Errorf(`"hooks" is not a JSON object: %w`, err)
	}
	var list []json.RawMessage
	if raw := hooks.get(event); len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &list); err != nil {
			return nil, fmt.Errorf(`"hooks.%s" is not a list of hooks: %w`, event, err)
		}
	}
	var kept []json.RawMessage
	placed := false
	for _, raw := range list {
		if ours(raw) {
			if mine != nil && !placed {
				kept, placed = append(kept, mine), true
			}
			continue
		}
		kept = append(kept, raw)
	}
	if mine != nil && !placed {
		kept = append(kept, mine)
	}
	if len(kept) == 0 {
		hooks.remove(event)
	} else {
		b, err := json.Marshal(kept)
		if err != nil {
			return nil, err
		}
		hooks.set(event, b)
	}
	root.set("hooks", hooks.marshal())
	return indent(root.marshal())
}
