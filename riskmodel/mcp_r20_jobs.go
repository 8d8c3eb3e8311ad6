package riskmodel

import (
	"regexp"
	"strings"
)

// Batch jobs submitted through MCP. A scheduler's submit tool (Slurm's submit_job, PBS qsub,
// LSF bsub, HTCondor, Nomad, Flux) takes the job's batch script as a string; the script is a
// shell script the cluster runs as the user, so it is judged as the exec side judges the same
// lines: a miner, a copy of study data to a raw IP, a recursive delete. A script under any
// command-carrying key that opens with a shell's #! line is a shell script whatever the tool is
// called. Sources: Slurm sbatch(1) ("the batch script … may contain options preceded with
// #SBATCH"), PBS qsub(1B), LSF bsub, HTCondor condor_submit, Nomad's raw_exec/exec drivers.

// r20JobServerWords name batch schedulers by the words of an MCP server's name.
var r20JobServerWords = wordSet{words: `slurm sbatch pbs torque qsub lsf bsub htcondor condor sge gridengine nomad flux hpc`}

// r20JobSubmitWords are a tool's words that submit or run a job.
var r20JobSubmitWords = wordSet{words: `submit sbatch qsub bsub srun salloc dispatch`}

// r20JobScriptKeys hold a job's script or command line.
var r20JobScriptKeys = wordSet{words: `script command cmd batchscript jobscript scriptcontent scriptbody wrap commands inline`}

// r20ShellShebang is the #! line of a POSIX shell script.
var r20ShellShebang = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*#!\s*(?:/usr)?(?:/local)?/bin/(?:env\s+(?:-S\s+)?)?(?:ba|z|k|da)?sh\b`)
}}

// jobScript reports that argument a holds a shell script the call submits or runs: a script
// under a command-carrying key of a batch scheduler's submit tool, or any such key whose value
// opens with a shell's #! line.
func (c *mcpCtx) jobScript(a mcpArg) bool {
	if !a.str || a.depth != 1 || !r20JobScriptKeys.has(a.nkey) {
		return false
	}
	v := strings.TrimSpace(a.val)
	if !strings.ContainsAny(v, " \t\n") {
		return false // a script's path or a job's name, not its text
	}
	if r20ShellShebang.get().MatchString(v) {
		return true
	}
	return mcpAnyWord(c.serverWords, r20JobServerWords.get()) && mcpAnyWord(c.toolWords, r20JobSubmitWords.get())
}

// r20SelfSubmitRe finds a job script line that submits the script itself again ($0,
// ${BASH_SOURCE[0]}, the scheduler's own record of the script).
var r20SelfSubmitRe = table[*regexp.Regexp]{build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^[ \t]*(?:sbatch|qsub|bsub|condor_submit)\b[^\n#]*?(?:\$0\b|\$\{0\}|"\$0"|\$\{?BASH_SOURCE|\$SLURM_JOB_SCRIPT|\$\{SLURM_JOB_SCRIPT\}|\$PBS_JOBNAME)`)
}}

// selfResubmit says why a job script submits itself more than once: every run starts two or
// more copies, so the jobs double until the scheduler's limits stop them (docs/policy.md:
// resource exhaustion, fork bombs and runaway loops). One conditional resubmission is the
// documented way to chain a long run past the time limit and is left alone.
func selfResubmit(c *mcpCtx) string {
	if c.shellText == "" || !strings.Contains(c.shellText, "\n") {
		return ""
	}
	n := len(r20SelfSubmitRe.get().FindAllStringIndex(mcpClip(c.shellText, 64<<10), 8))
	if n < 2 {
		return ""
	}
	return "it submits a job whose batch script submits itself again more than once per run, so the jobs multiply without end (docs/policy.md: resource exhaustion: fork bombs, runaway loops)"
}

// jobSubmit says what a call submits when it hands a batch job's script to a scheduler: the
// job runs later on shared nodes and is charged to an allocation, so the exec analysis's
// "inside the workspace" does not make the submission contained; it is asked as the
// submission of work to a shared service it is.
func jobSubmit(c *mcpCtx) string {
	if c.shell == nil {
		return ""
	}
	for _, a := range c.args {
		if c.jobScript(a) {
			return "it submits a batch job whose script runs on the cluster's shared nodes, charged to an allocation"
		}
	}
	return ""
}

func mcpR20JobRules() []*Rule {
	return []*Rule{
		{ID: "mcp.job-submit", Kind: KindMCP, Level: Medium, Category: CatFinancialOrProduction,
			Message: "Submits a batch job's script to a scheduler: it runs on shared nodes, charged to an allocation",
			mcp:     mcpWhich(jobSubmit)},
		{ID: "mcp.job-self-resubmit", Kind: KindMCP, Level: Critical, Category: CatResourceExhaustion, Certain: true,
			Message: "Submits a batch job whose script submits itself again more than once: the jobs multiply without end",
			mcp:     mcpWhich(selfResubmit)},
	}
}
