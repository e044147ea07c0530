#!/usr/bin/env bash
# A single-node Slurm cluster for test_cli_batch_slurm, from Debian's packages (munge, slurmctld,
# slurmd, slurm-client), as root, without systemd or cgroups, everything in one folder:
#
#   slurm_cluster.sh start DIR   writes DIR/slurm.conf, starts munged (its own socket and pid
#                                file in DIR), slurmctld and slurmd; waits until the node is idle;
#                                prints SLURM_CONF=DIR/slurm.conf
#   slurm_cluster.sh stop DIR    stops the daemons it started, by the PIDs in their pid files
#
# Exit code 77 (CTest: skipped) when the daemons are not installed or this is not root, saying
# which; 1 with the daemons' own log lines when they do not come up.
set -euo pipefail
command=${1:?start or stop}
dir=$(realpath -m "${2:?folder}")

stop_pidfile() {
  local file=$1
  [ -s "$file" ] || return 0
  local pid
  pid=$(cat "$file")
  if kill "$pid" 2>/dev/null; then
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$file"
}

if [ "$command" = stop ]; then
  stop_pidfile "$dir/slurmd.pid"
  stop_pidfile "$dir/slurmctld.pid"
  stop_pidfile "$dir/munge/munged.pid"
  exit 0
fi

for tool in munged slurmctld slurmd sbatch sinfo; do
  if ! command -v "$tool" >/dev/null && [ ! -x "/usr/sbin/$tool" ]; then
    echo "slurm_cluster: $tool is not installed (packaging/install-deps.sh installs munge," \
         "slurmctld, slurmd and slurm-client)" >&2
    exit 77
  fi
done
if [ "$(id -u)" -ne 0 ]; then
  echo "slurm_cluster: the test cluster's daemons run as root, and this is $(id -un)" >&2
  exit 77
fi

mkdir -p "$dir"/{state,spool,munge}
chown munge:munge "$dir/munge"
chmod 755 "$dir/munge"  # munged: clients need to reach its socket
if ! runuser -u munge -- test -w "$dir/munge"; then
  echo "slurm_cluster: the munge user cannot reach $dir/munge (a folder above it is private)" >&2
  exit 1
fi
# Ports of its own: free ones from the kernel's ephemeral range are not needed; pick by the PID.
base=$((20000 + ($$ % 5000) * 2))
host=$(hostname)
cat >"$dir/slurm.conf" <<CONF
ClusterName=cineflowtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$base
SlurmdPort=$((base + 1))
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
NodeName=cfnode NodeAddr=127.0.0.1 NodeHostname=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=batch Nodes=cfnode Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$dir/slurm.conf

runuser -u munge -- /usr/sbin/munged --socket="$dir/munge/munge.socket" \
  --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
  --seed-file="$dir/munge/munged.seed"
/usr/sbin/slurmctld -i
/usr/sbin/slurmd -N cfnode

for _ in $(seq 100); do
  if sinfo -h -o '%t' 2>/dev/null | grep -q '^idle'; then
    echo "SLURM_CONF=$SLURM_CONF"
    exit 0
  fi
  sleep 0.2
done
echo "slurm_cluster: the node did not become idle within 20 s; sinfo says:" >&2
sinfo >&2 || true
tail -n 20 "$dir/slurmctld.log" "$dir/slurmd.log" "$dir/munge/munged.log" >&2 || true
exit 1
