package riskmodel

// Job launchers of clusters and MPI run the command after their options on many cores or
// nodes: `srun -N 4 ./app`, `mpirun -np 64 python train.py`, `bsub -q gpu CMD`. Read as
// unknown programs they hid what they launch (a miner, a deletion, a download run) behind an
// ask at medium, which a model may turn into an allow; unwrapped like nohup or timeout, the
// launched command is judged as itself. Option tables list the options that take a separate
// argument (from the Slurm srun/salloc, Open MPI/MPICH mpirun, LSF bsub, Cray aprun, IBM
// jsrun and TACC ibrun manuals); an option missing from a table is read as a flag, which can
// only make the launched command look unknown (asked), never hide it.

import "strings"

// launcherArgOpts maps each launcher to its options that take a separate value.
var launcherArgOpts = table[map[string]map[string]bool]{build: func() map[string]map[string]bool {
	slurm := buildWordSet("-A --account -c --cpus-per-task -d --dependency -D --chdir -e --error -G --gpus -i --input -J --job-name " +
		"-L --licenses -m --distribution -n --ntasks -N --nodes -o --output -p --partition -q --qos -t --time -w --nodelist " +
		"-x --exclude -C --constraint -M --clusters -T --threads -W --wait -r --relative -b --begin --mem --mem-per-cpu " +
		"--mem-per-gpu --gres --gpus-per-node --gpus-per-task --cpus-per-gpu --ntasks-per-node --ntasks-per-core " +
		"--ntasks-per-socket --cpu-bind --mpi --export --reservation --comment --container --signal --time-min --tmp " +
		"--nice --priority --mail-type --mail-user --switches --network --hint --distribution --cores-per-socket " +
		"--sockets-per-node --threads-per-core --gpu-bind --het-group --kill-on-bad-exit --label --open-mode --propagate " +
		"--task-prolog --task-epilog --uid --gid --wckey --workdir")
	mpi := buildWordSet("-n -np --np -c -H --host -host --hostfile -hostfile --machinefile -machinefile -f --map-by --bind-to " +
		"--rank-by -x -ppn --ppn -N -npernode --npernode -wdir --wdir -wd --rankfile --prefix -genv -env -envlist " +
		"-launcher -bootstrap -iface -hosts -configfile -tag-output-prefix --output-filename --timeout --report-bindings-file")
	return map[string]map[string]bool{
		"srun":    slurm,
		"salloc":  slurm,
		"mpirun":  mpi,
		"mpiexec": mpi,
		"orterun": mpi,
		"bsub": buildWordSet("-n -q -o -e -oo -eo -J -W -R -P -G -m -M -w -gpu -cwd -app -sla -U -u -b -t -E -Ep -L -g -i " +
			"-is -f -k -sp -c -C -D -F -S -v -ext -Lp -jsdl -pack -rnc -clusters -data -datachk -env -hostfile -Jd"),
		"aprun": buildWordSet("-n -N -d -S -j -cc -m -L -a -b -p -q -t -e -F -r -sl -ss -E -R -B -D -T"),
		"jsrun": buildWordSet("-n --nrs -a --tasks_per_rs -c --cpu_per_rs -g --gpu_per_rs -r --rs_per_host -b --bind -d " +
			"--launch_distribution -l --latency_priority -E --env -D --env_no_propagate -p --np -f --appfile"),
		"ibrun": buildWordSet("-n -o"),
		// Batch submitters run the job script they are given (r20): judged as that script.
		"sbatch": batchOpts(slurm, "--wrap -a --array -F --nodefile --mail-user --chdir"),
		"qsub":   buildWordSet("-a -A -c -C -d -D -e -j -J -k -l -m -M -N -o -p -P -q -r -R -S -t -u -v -W -w"),
	}
}}

// batchOpts is a launcher's option set with more value-taking options added.
func batchOpts(base map[string]bool, more string) map[string]bool {
	m := buildWordSet(more)
	for k := range base {
		m[k] = true
	}
	return m
}

// batchSubmitter reports a submitter that reads its first operand as a job script file, not
// a command looked up on PATH: `sbatch job.sh` runs ./job.sh.
func batchSubmitter(name string) bool { return name == "sbatch" || name == "qsub" }

// launcherArgv returns the command a job launcher runs, and whether name is a launcher.
// A launcher given no command (`salloc -N 2` opens a shell in the allocation) returns an
// empty argv: the launcher itself is then judged.
func launcherArgv(name string, args []string) ([]string, bool) {
	opts, ok := launcherArgOpts.get()[name]
	if !ok {
		return nil, false
	}
	for len(args) > 0 {
		a := args[0]
		if a == "--" {
			return args[1:], true
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			if batchSubmitter(name) && a != "-" && !strings.Contains(a, "/") && !strings.ContainsAny(a, "$`") {
				return append([]string{"./" + a}, args[1:]...), true // a script in the current directory
			}
			return args, true
		}
		// Open MPI's --mca/-mca/--gmca take a name and a value.
		if (a == "--mca" || a == "-mca" || a == "--gmca" || a == "-gmca") && len(args) > 2 {
			args = args[3:]
			continue
		}
		if opts[a] && len(args) > 1 {
			args = args[2:]
			continue
		}
		args = args[1:]
	}
	return nil, true
}

// launcherCodes returns shell code a batch submitter carries in an option: Slurm's
// `sbatch --wrap "CMD"` submits a job that runs CMD under sh.
func launcherCodes(s *Segment) []string {
	if s.Name() != "sbatch" {
		return nil
	}
	if code, ok := optValue(s.Args[1:], "--wrap"); ok && code != "" {
		return []string{code}
	}
	return nil
}
