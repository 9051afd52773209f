#!/bin/sh
# A sweep run as a Slurm job array, on a one-node Slurm cluster started on
# this machine for the test: each array task runs one shard
# (--shard $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT), `raidsim merge`
# joins them, and the merged table must equal a local --jobs 1 run byte
# for byte.
#
# Needs root: installs Debian's slurm-wlm and munge when missing, then
# starts its own munged, slurmctld and slurmd (private key, sockets,
# ports, state and logs in a temporary folder) and stops them at the end.
# Skips (exit status 77) when not root or when the packages cannot be
# installed.  Run by .ci/run, not by `make check`.
set -u
here=$(cd "$(dirname "$0")" && pwd)
raidsim=${RAIDSIM:-${top_builddir:-$here/../..}/src/raidsim}
case $raidsim in /*) ;; *) raidsim=$(pwd)/$raidsim ;; esac
models=$(cd "$here/../../models" && pwd)
scenario=$here/../cli/resume.yaml
skip() { echo "slurm: SKIP: $*"; exit 77; }
die() { echo "slurm: FAIL: $*"; exit 1; }

[ "$(id -u)" -eq 0 ] || skip "needs root to install and start Slurm"
[ -x "$raidsim" ] || die "no raidsim at $raidsim (build first)"
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null ||
	! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
	echo "slurm: installing slurm-wlm and munge"
	{ DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurm-wlm munge ||
		{ apt-get update -q && DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -q slurm-wlm munge; }; } >/dev/null 2>&1 ||
		skip "cannot install slurm-wlm and munge"
fi

tmp=$(mktemp -d /tmp/raidsim-slurm.XXXXXX)
chmod 700 "$tmp"
pids=""
cleanup() {
	# Only the daemons this script started, by their pid.
	for p in $pids; do kill "$p" 2>/dev/null; done
	for p in $pids; do
		i=0
		while kill -0 "$p" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
		kill -KILL "$p" 2>/dev/null
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# Free TCP ports for slurmctld and slurmd.
port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null || echo $((20000 + $$ % 20000 + $1)); }
ctld_port=$(port 1)
slurmd_port=$(port 2)
while [ "$slurmd_port" = "$ctld_port" ]; do slurmd_port=$(port 3); done
node=$(hostname -s)
cpus=$(nproc)

# munge with a private key and socket.
mkdir -p "$tmp/munge"
chmod 700 "$tmp/munge"
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$tmp/munge/munge.key"
munged --foreground --force --key-file="$tmp/munge/munge.key" \
	--socket="$tmp/munge/munge.socket" --pid-file="$tmp/munge/munged.pid" \
	--log-file="$tmp/munge/munged.log" --seed-file="$tmp/munge/munged.seed" \
	>"$tmp/munge/stdout" 2>&1 &
pids="$pids $!"
i=0
until [ -S "$tmp/munge/munge.socket" ] || [ $i -ge 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -S "$tmp/munge/munge.socket" ] || { cat "$tmp/munge/stdout" "$tmp/munge/munged.log" 2>/dev/null; die "munged did not start"; }

mkdir -p "$tmp/state" "$tmp/spool"
cat >"$tmp/slurm.conf" <<CONF
ClusterName=raidsimtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool/%n
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
LaunchParameters=use_interactive_step
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=raidsim Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
SLURM_CONF=$tmp/slurm.conf
export SLURM_CONF
slurmctld -D -c -f "$SLURM_CONF" >"$tmp/slurmctld.out" 2>&1 &
pids="$pids $!"
slurmd -D -f "$SLURM_CONF" -N "$node" >"$tmp/slurmd.out" 2>&1 &
pids="$pids $!"

# Wait (up to 60 s) for the node to be ready.
i=0
state=""
while [ $i -lt 120 ]; do
	state=$(sinfo -h -n "$node" -o %T 2>/dev/null | head -n 1)
	case $state in idle*|mix*|alloc*) break ;; esac
	sleep 0.5
	i=$((i + 1))
done
case $state in
idle*|mix*|alloc*) ;;
*) tail -n 20 "$tmp/slurmctld.log" "$tmp/slurmd.log" "$tmp/slurmctld.out" "$tmp/slurmd.out" 2>/dev/null
   die "the Slurm node did not become ready (state '$state')" ;;
esac
echo "slurm: one-node cluster up ($node, $cpus CPUs, slurmctld port $ctld_port)"

# The job array: 4 shards of the 20-point sweep.
shards=4
cat >"$tmp/sweep.sbatch" <<JOB
#!/bin/sh
#SBATCH --job-name=raidsim-sweep
#SBATCH --array=0-$((shards - 1))
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --output=$tmp/job-%A-%a.out
exec "$raidsim" run "$scenario" -M "$models" -q -j 1 -o "$tmp/shards" \\
	--shard "\$SLURM_ARRAY_TASK_ID/\$SLURM_ARRAY_TASK_COUNT"
JOB
sbatch --wait --quiet "$tmp/sweep.sbatch" >"$tmp/sbatch.out" 2>&1 ||
	{ cat "$tmp/sbatch.out" "$tmp"/job-*.out 2>/dev/null; tail -n 20 "$tmp/slurmd.log"; die "the job array failed"; }
n=$(ls "$tmp/shards"/resume.shard-*-of-$shards.tsv 2>/dev/null | wc -l)
[ "$n" -eq $shards ] || { cat "$tmp"/job-*.out; die "$n of $shards shard files written"; }
echo "slurm: job array of $shards tasks done"

"$raidsim" merge -q -o "$tmp/merged" "$tmp/shards"/resume.shard-*.tsv || die "merge failed"
"$raidsim" run "$scenario" -M "$models" -q -j 1 -o "$tmp/local" || die "local run failed"
cmp "$tmp/local/resume.tsv" "$tmp/merged/resume.tsv" || die "merged table differs from the --jobs 1 run"
cmp "$tmp/local/resume.json" "$tmp/merged/resume.json" || die "merged JSON differs from the --jobs 1 run"
echo "slurm: PASS: merged table of the job array equals the --jobs 1 run byte for byte"
