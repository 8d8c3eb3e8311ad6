package guardian

import (
	"encoding/json"
	"fmt"
	"io"
)

// WriteResultJSON writes res as one line of JSON — the wire form of a decision that
// `guardian review --json` prints and `guardian serve` answers with — so the two can never
// drift apart. HTML characters are not escaped: the output is read by programs and people,
// not embedded in pages, and "<" in a command should stay readable.
func WriteResultJSON(w io.Writer, res Result) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(res); err != nil {
		return fmt.Errorf("write result: %w", err)
	}
	return nil
}
