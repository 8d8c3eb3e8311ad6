package riskmodel

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Runaway capacity: one command that asks a cloud for far more machines, GPUs, nodes or
// replicas than any development task needs (docs/policy.md: resource exhaustion; the bill
// is the resource). The commands and the options that carry the count are data, taken from
// the vendors' references: aws ec2 run-instances --count MIN[:MAX], --min-count/--max-count,
// request-spot-instances --instance-count, autoscaling --desired-capacity/--min-size/
// --max-size, ecs --desired-count, eks --scaling-config; gcloud compute instances create
// NAME…, instances bulk create --count, instance-groups managed resize --size, container
// clusters/node-pools --num-nodes/--max-nodes; az vm create --count, vmss create
// --instance-count, vmss scale --new-capacity, aks --node-count/--max-count; kubectl/oc scale
// --replicas and autoscale --max; eksctl --nodes/--nodes-max; doctl droplet create NAME….
// A loop or xargs around a launch multiplies it. Small launches stay the cloud.change ask.

// capKind is what a count counts.
type capKind int8

const (
	capMachines capKind = iota + 1 // machines or nodes started now
	capCeiling                     // an autoscaler's maximum: machines it may start
	capReplicas                    // pods or tasks
)

// Thresholds, as data: machines at or above capMachineMax (capGPUMax for accelerator
// types: a p4d.24xlarge or an a3-highgpu-8g costs tens of dollars an hour, eight of them
// are a training cluster; capGPUReasonMax when the agent states a reason, since eight GPU
// machines "to finish the training run tonight" is a cost a human weighs, not a runaway); an autoscaler maximum at or above capCeilingMax (capGPUCeilingMax);
// replicas at or above capReplicaMax (mcp.runaway-scale's bound), or capAllReplicaMax when
// kubectl scale --all multiplies them by every workload of the namespace.
const (
	capMachineMax    = 50
	capGPUMax        = 8
	capGPUReasonMax  = 16
	capCeilingMax    = 200
	capGPUCeilingMax = 16
	capReplicaMax    = 100
	capAllReplicaMax = 10
)

// capSpec is one command that sets a count: its tool, the words of its subcommand ("*" for
// any one word), the options that carry counts of each kind, the options that name the
// machine type, and whether its operands are the names of the machines it makes.
type capSpec struct {
	tool     string
	path     []string
	machines []string
	ceiling  []string
	replicas []string
	types    []string
	names    bool
	launch   bool // starts at least one machine when no count is given
}

var capSpecs = table[[]capSpec]{build: func() []capSpec {
	awsType := []string{"--instance-type"}
	gType := []string{"--machine-type", "--accelerator"}
	azType := []string{"--size", "--vm-sku", "--node-vm-size"}
	return []capSpec{
		{tool: "aws", path: []string{"ec2", "run-instances"}, machines: []string{"--count", "--min-count", "--max-count"}, types: awsType, launch: true},
		{tool: "aws", path: []string{"ec2", "request-spot-instances"}, machines: []string{"--instance-count"}, types: awsType},
		{tool: "aws", path: []string{"autoscaling", "create-auto-scaling-group"}, machines: []string{"--desired-capacity", "--min-size"}, ceiling: []string{"--max-size"}},
		{tool: "aws", path: []string{"autoscaling", "update-auto-scaling-group"}, machines: []string{"--desired-capacity", "--min-size"}, ceiling: []string{"--max-size"}},
		{tool: "aws", path: []string{"autoscaling", "set-desired-capacity"}, machines: []string{"--desired-capacity"}},
		{tool: "aws", path: []string{"ecs", "update-service"}, replicas: []string{"--desired-count"}},
		{tool: "aws", path: []string{"ecs", "create-service"}, replicas: []string{"--desired-count"}},
		{tool: "aws", path: []string{"eks", "create-nodegroup"}, machines: []string{"--scaling-config"}, types: []string{"--instance-types"}},
		{tool: "aws", path: []string{"eks", "update-nodegroup-config"}, machines: []string{"--scaling-config"}},
		{tool: "gcloud", path: []string{"compute", "instances", "create"}, names: true, types: gType, launch: true},
		{tool: "gcloud", path: []string{"compute", "instances", "bulk", "create"}, machines: []string{"--count", "--min-count"}, types: gType},
		{tool: "gcloud", path: []string{"compute", "instance-groups", "managed", "resize"}, machines: []string{"--size"}},
		{tool: "gcloud", path: []string{"compute", "instance-groups", "managed", "create"}, machines: []string{"--size"}},
		{tool: "gcloud", path: []string{"compute", "instance-groups", "managed", "set-autoscaling"}, ceiling: []string{"--max-num-replicas"}},
		{tool: "gcloud", path: []string{"container", "clusters", "create"}, machines: []string{"--num-nodes"}, ceiling: []string{"--max-nodes", "--total-max-nodes"}, types: gType},
		{tool: "gcloud", path: []string{"container", "clusters", "resize"}, machines: []string{"--num-nodes", "--size"}},
		{tool: "gcloud", path: []string{"container", "clusters", "update"}, ceiling: []string{"--max-nodes", "--total-max-nodes"}},
		{tool: "gcloud", path: []string{"container", "node-pools", "create"}, machines: []string{"--num-nodes"}, ceiling: []string{"--max-nodes", "--total-max-nodes"}, types: gType},
		{tool: "gcloud", path: []string{"container", "node-pools", "update"}, ceiling: []string{"--max-nodes", "--total-max-nodes"}},
		{tool: "az", path: []string{"vm", "create"}, machines: []string{"--count"}, types: azType, launch: true},
		{tool: "az", path: []string{"vmss", "create"}, machines: []string{"--instance-count"}, types: azType},
		{tool: "az", path: []string{"vmss", "scale"}, machines: []string{"--new-capacity"}},
		{tool: "az", path: []string{"aks", "create"}, machines: []string{"--node-count", "-c"}, ceiling: []string{"--max-count"}, types: azType},
		{tool: "az", path: []string{"aks", "scale"}, machines: []string{"--node-count", "-c"}},
		{tool: "az", path: []string{"aks", "update"}, ceiling: []string{"--max-count"}},
		{tool: "az", path: []string{"aks", "nodepool", "add"}, machines: []string{"--node-count", "-c"}, ceiling: []string{"--max-count"}, types: azType},
		{tool: "az", path: []string{"aks", "nodepool", "scale"}, machines: []string{"--node-count", "-c"}},
		{tool: "az", path: []string{"aks", "nodepool", "update"}, ceiling: []string{"--max-count"}},
		{tool: "kubectl", path: []string{"scale"}, replicas: []string{"--replicas"}},
		{tool: "oc", path: []string{"scale"}, replicas: []string{"--replicas"}},
		{tool: "kubectl", path: []string{"autoscale"}, ceiling: []string{"--max"}},
		{tool: "eksctl", path: []string{"scale", "nodegroup"}, machines: []string{"--nodes", "-N", "--nodes-min", "-m"}, ceiling: []string{"--nodes-max", "-M"}},
		{tool: "eksctl", path: []string{"create", "nodegroup"}, machines: []string{"--nodes", "-N", "--nodes-min", "-m"}, ceiling: []string{"--nodes-max", "-M"}, types: []string{"--node-type", "-t"}},
		{tool: "eksctl", path: []string{"create", "cluster"}, machines: []string{"--nodes", "-N", "--nodes-min", "-m"}, ceiling: []string{"--nodes-max", "-M"}, types: []string{"--node-type", "-t"}},
		{tool: "doctl", path: []string{"compute", "droplet", "create"}, names: true, types: []string{"--size"}, launch: true},
	}
}}

// capGPU matches machine types with accelerators: AWS P/G/Trn/Inf/DL families (and their
// SageMaker ml. spellings), Google A2/A3/A4/G2 and any --accelerator, Azure N-series,
// DigitalOcean gpu- sizes, and GPU names themselves.
var capGPU = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(^|[^a-z0-9])(ml\.)?(p[2-6][a-z]*|g[3-6][a-z]*|gr6|trn[12][a-z]*|inf[12]|dl[12][a-z]*)\.[0-9]*x?large|(^|[^a-z])a[2-4]-(high|mega|ultra|edge)gpu|(^|[^a-z])g2-standard|standard_n[cdvg][0-9]|(^|[^a-z])gpu-|nvidia|h100|h200|a100|b200|l4\b|t4\b|v100|tpu`)
}}

// capAt returns the index after tool's subcommand path in args, -1 when absent.
func capAt(args []string, path []string) int {
	for i := 1; i+len(path) <= len(args); i++ {
		ok := true
		for j, p := range path {
			if p != "*" && args[i+j] != p {
				ok = false
				break
			}
		}
		if ok {
			return i + len(path)
		}
	}
	return -1
}

// capNumber reads a count: 12, 10:20 (the larger), minSize=1,maxSize=400,desiredSize=40 (the
// largest), -1 when it is no number.
func capNumber(v string) int {
	best := -1
	for _, p := range strings.FieldsFunc(v, func(r rune) bool { return r == ':' || r == ',' || r == ' ' }) {
		if _, after, ok := strings.Cut(p, "="); ok {
			p = after
		}
		if n, err := strconv.Atoi(strings.TrimSpace(p)); err == nil && n > best {
			best = n
		}
	}
	return best
}

// capOpt is the largest count any of names carries in args, -1 when none.
func capOpt(args []string, names []string) int {
	best := -1
	for i, a := range args {
		for _, n := range names {
			v := ""
			switch {
			case a == n && i+1 < len(args):
				v = args[i+1]
			case strings.HasPrefix(a, n+"="):
				v = a[len(n)+1:]
			default:
				continue
			}
			if k := capNumber(v); k > best {
				best = k
			}
		}
	}
	return best
}

// launchNames counts the machine names given as operands before the first option: a brace
// range vm-{1..200} stands for its count, a list {a,b,c} for its items.
func launchNames(args []string) int {
	n := 0
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			break
		}
		n += braceCount(a)
	}
	return n
}

var braceRange = table[*regexp.Regexp]{build: func() *regexp.Regexp { return regexp.MustCompile(`\{(-?\d+)\.\.(-?\d+)\}`) }}

func braceCount(w string) int {
	if m := braceRange.get().FindStringSubmatch(w); m != nil {
		a, _ := strconv.Atoi(m[1])
		b, _ := strconv.Atoi(m[2])
		if b < a {
			a, b = b, a
		}
		return b - a + 1
	}
	if i := strings.Index(w, "{"); i >= 0 && strings.Contains(w[i:], ",") && strings.Contains(w[i:], "}") {
		return strings.Count(w[i:strings.Index(w[i:], "}")+i], ",") + 1
	}
	return 1
}

// runawayCapacity says why s asks for runaway capacity, "" when it does not.
func runawayCapacity(c *execCtx, s *Segment) string {
	if len(s.Args) < 2 {
		return ""
	}
	tool := baseName(s.Args[0])
	for _, sp := range capSpecs.get() {
		if sp.tool != tool {
			continue
		}
		at := capAt(s.Args, sp.path)
		if at < 0 {
			continue
		}
		rest := s.Args[at:]
		gpu := ""
		for i, a := range rest {
			for _, t := range sp.types {
				if (a == t && i+1 < len(rest) && capGPU.get().MatchString(rest[i+1])) || (strings.HasPrefix(a, t+"=") && capGPU.get().MatchString(a)) {
					gpu = a
					if a == t {
						gpu = rest[i+1]
					}
				}
			}
		}
		what := tool + " " + strings.Join(sp.path, " ")
		machines := capOpt(rest, sp.machines)
		if sp.names {
			machines = max(machines, launchNames(rest))
		}
		if machines < 1 && sp.launch {
			machines = 1
		}
		if machines > 0 {
			rep := repeatedIn(c, s)
			switch {
			case rep.endless:
				return fmt.Sprintf("%s runs %s without end: machines started until the account's quota runs out", what, rep.how)
			case rep.times > 1:
				machines *= int(min(rep.times, 1e6))
			}
		}
		gpuMax := capGPUMax
		if strings.TrimSpace(c.req.Justification) != "" {
			gpuMax = capGPUReasonMax
		}
		switch {
		case gpu != "" && machines >= gpuMax:
			return fmt.Sprintf("%s starts %d accelerator machines (%s), at or above %d: a runaway bill", what, machines, gpu, gpuMax)
		case machines >= capMachineMax:
			return fmt.Sprintf("%s starts %d machines, at or above %d: a runaway bill", what, machines, capMachineMax)
		}
		ceil := capOpt(rest, sp.ceiling)
		switch {
		case gpu != "" && ceil >= capGPUCeilingMax:
			return fmt.Sprintf("%s lets an autoscaler grow to %d accelerator machines (%s), at or above %d", what, ceil, gpu, capGPUCeilingMax)
		case ceil >= capCeilingMax:
			return fmt.Sprintf("%s lets an autoscaler grow to %d, at or above %d", what, ceil, capCeilingMax)
		}
		reps := capOpt(rest, sp.replicas)
		switch {
		case reps >= capReplicaMax:
			return fmt.Sprintf("%s sets %d replicas, at or above %d", what, reps, capReplicaMax)
		case reps >= capAllReplicaMax && hasArg(s.Args, "--all", "-A", "--all-namespaces"):
			return fmt.Sprintf("%s sets %d replicas on every workload at once (--all)", what, reps)
		}
	}
	return ""
}
