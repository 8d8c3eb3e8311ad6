package evals

import (
	"fmt"
	"io"
	"strings"
)

// progressBarWidth is the number of cells of the terminal progress bar.
const progressBarWidth = 30

// Progress returns a WithProgress callback that reports to w: on a terminal (tty) a bar
// redrawn in place with a carriage return, ended by a newline when the run completes; otherwise
// (a log, a CI job) one plain line per tenth of the run and one at the end, so logs stay short
// and readable. Whether w is a terminal is the caller's to say: this package reads no global
// state.
func Progress(w io.Writer, tty bool) func(done, total int) {
	last := -1
	return func(done, total int) {
		if total <= 0 {
			return
		}
		if tty {
			pct := done * 100 / total
			if pct == last && done != total {
				return
			}
			last = pct
			filled := done * progressBarWidth / total
			fmt.Fprintf(w, "\r[%s%s] %3d%% %d/%d reviews", strings.Repeat("#", filled), strings.Repeat(".", progressBarWidth-filled), pct, done, total)
			if done == total {
				fmt.Fprintln(w)
			}
			return
		}
		tenth := done * 10 / total
		if tenth == last && done != total {
			return
		}
		last = tenth
		fmt.Fprintf(w, "eval: %d/%d reviews (%d%%)\n", done, total, done*100/total)
	}
}
