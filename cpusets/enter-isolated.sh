#!/bin/sh
# enter-isolated.sh -- CMD [ARGS...]   run CMD inside the isolated cgroup
# enter-isolated.sh PID...             move running processes into it
#
# The isolated cpuset partition is the only cgroup whose cpuset includes
# the isolated CPUs, so a measured task must live there to be allowed onto
# them (sched_setaffinity() is clipped to the task's cpuset).
#
# Prefer the "-- CMD" form: the shell joins the cgroup first, then execs
# CMD, which pins its own threads. Moving a running process resets the
# affinity of all its threads to the whole partition (cpuset_attach()),
# undoing the pinning a multi-threaded tool like oslat did at start-up.
#
# oslat: its main thread pins itself to CPU 0 by default (-C 0), which is
# outside the partition, so oslat exits. Give it an isolated CPU, e.g.
#   enter-isolated.sh -- oslat -c 1-3 -C 1 -D 20
# The main thread then sleeps in pthread_join() on CPU 1 until the end.
set -u
case $0 in */*) QC_CPUSETS=${0%/*} ;; *) QC_CPUSETS=. ;; esac
. "$QC_CPUSETS/tasks.sh"

[ -f "$QC_CG_ISO/cgroup.procs" ] ||
	{ echo "enter-isolated: no $QC_CG_ISO: run isolate.sh first" >&2; exit 1; }
[ $# -gt 0 ] || { echo "usage: $0 -- CMD [ARGS...] | $0 PID..." >&2; exit 2; }
if [ "$1" = -- ]; then
	shift
	[ $# -gt 0 ] || { echo "usage: $0 -- CMD [ARGS...]" >&2; exit 2; }
	echo $$ > "$QC_CG_ISO/cgroup.procs" ||
		{ echo "enter-isolated: cannot enter $QC_CG_ISO" >&2; exit 1; }
	exec "$@"
fi
rc=0
for p in "$@"; do
	echo "$p" > "$QC_CG_ISO/cgroup.procs" 2>/dev/null ||
		{ echo "enter-isolated: cannot move pid $p into $QC_CG_ISO" >&2; rc=1; }
done
exit $rc
