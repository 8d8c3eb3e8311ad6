package riskmodel

import (
	"strconv"
	"strings"
)

// A batch job or allocation that holds a large share of a shared cluster for days: `sbatch
// --exclusive -N 64 --time=7-00:00:00 job.sh`. The job script itself is the project's own
// (launchers.go judges it as the script), but the nodes and hours it takes from every other
// user of the cluster are a decision for the human (docs/policy.md: genuinely
// context-dependent; a careful engineer asks before booking ten thousand node-hours). The
// size is read from the submitter's options as the Slurm (sbatch, salloc, srun) and PBS
// (qsub -l select=…, nodes=…, walltime=…) manuals spell them; #SBATCH lines inside the
// script are not seen.

// largeAllocNodeHours is the node-hours from which a request is asked about: about a
// thousand, a week of eight nodes or a day of forty.
const largeAllocNodeHours = 1000

// largeAllocNodes is the node count asked about whatever the time limit.
const largeAllocNodes = 128

// allocSubmitter returns the scheduler command a segment was submitted through, from its
// wrappers (the launched script) or its own name (an allocation with no command), "".
func allocSubmitter(s *Segment) string {
	for _, v := range s.Via {
		switch v {
		case "sbatch", "salloc", "srun", "qsub":
			return v
		}
	}
	switch s.Name() {
	case "sbatch", "salloc", "srun", "qsub":
		return s.Name()
	}
	return ""
}

// slurmHours parses a Slurm time limit (minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS)
// or a PBS walltime (HH:MM:SS) into hours; 0 when it cannot.
func slurmHours(v string, pbs bool) float64 {
	days := 0.0
	if d, rest, ok := strings.Cut(v, "-"); ok {
		n, err := strconv.Atoi(d)
		if err != nil {
			return 0
		}
		days, v = float64(n), rest
	}
	parts := strings.Split(v, ":")
	nums := make([]float64, len(parts))
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil {
			return 0
		}
		nums[i] = float64(n)
	}
	h := days * 24
	switch {
	case days > 0: // D-HH[:MM[:SS]]
		h += nums[0]
		if len(nums) > 1 {
			h += nums[1] / 60
		}
	case len(nums) == 1 && !pbs: // minutes
		h += nums[0] / 60
	case len(nums) == 2: // MM:SS
		h += nums[0] / 60
	default: // HH:MM:SS (PBS: a bare number is seconds, too small to matter)
		if len(nums) >= 3 {
			h += nums[0] + nums[1]/60
		}
	}
	return h
}

// largeAllocation says why a submission books a large share of the cluster, "".
func largeAllocation(s *Segment) string {
	sub := allocSubmitter(s)
	if sub == "" {
		return ""
	}
	words := strings.Fields(s.Text)
	nodes, hours := 1.0, 0.0
	for i, w := range words {
		w = strings.Trim(w, `"'`)
		val := func(short, long string) (string, bool) {
			switch {
			case w == short || w == long:
				if i+1 < len(words) {
					return strings.Trim(words[i+1], `"'`), true
				}
			case strings.HasPrefix(w, long+"="):
				return w[len(long)+1:], true
			case short != "" && len(w) > len(short) && strings.HasPrefix(w, short) && !strings.HasPrefix(w, "--"):
				return w[len(short):], true
			}
			return "", false
		}
		if sub == "qsub" {
			if v, ok := val("-l", ""); ok {
				for _, kv := range strings.Split(v, ",") {
					k, x, _ := strings.Cut(kv, "=")
					switch k {
					case "select", "nodes":
						n, _ := strconv.Atoi(strings.SplitN(x, ":", 2)[0])
						nodes = max(nodes, float64(n))
					case "walltime":
						hours = max(hours, slurmHours(x, true))
					}
				}
			}
			continue
		}
		if v, ok := val("-N", "--nodes"); ok {
			hi := v[strings.LastIndexByte(v, '-')+1:]
			if n, err := strconv.Atoi(hi); err == nil {
				nodes = max(nodes, float64(n))
			}
		}
		if v, ok := val("-t", "--time"); ok {
			hours = max(hours, slurmHours(v, false))
		}
	}
	if nodes >= largeAllocNodes || nodes*hours >= largeAllocNodeHours {
		return "Submits through " + sub + " a job of " + strconv.FormatFloat(nodes, 'f', -1, 64) + " nodes for " +
			strconv.FormatFloat(hours, 'f', 0, 64) + " hours: a large share of a shared cluster, booked for every other user"
	}
	return ""
}
