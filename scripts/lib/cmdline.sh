# cmdline.sh: the guest kernel's command line, built in one place so that
# a QEMU boot (boot.sh) and a LAVA job (lava-job.sh) cannot drift apart.
# (The qc.* parameters of a scenario, which both add: inputs.sh.)
# Needs common/cpulist.sh.
# shellcheck shell=sh

# qc_kernel_cmdline ISOLATED SMP TIMEOUT [EXTRA]: the command line for a
# guest of SMP CPUs with ISOLATED isolated (the rest housekeeping), the
# host's limit of TIMEOUT s, then EXTRA (run.sh's qc.* and kernel args).
qc_kernel_cmdline() {
	_hk=$(qc_housekeeping_of "$1" "$2")
	# The isolation the design asks for, derived from one CPU list.
	_c="console=ttyS0,115200 panic=-1 tsc=reliable"
	_c="$_c nohz_full=$1 isolcpus=nohz,domain,managed_irq,$1"
	_c="$_c rcu_nocbs=$1 irqaffinity=$_hk"
	_c="$_c qc.isolated=$1 qc.housekeeping=$_hk"
	# The guest's own clock runs with ours under TCG: it dumps its blocked
	# tasks and CPU backtraces shortly before this limit (guest-init/init).
	echo "$_c qc.timeout=$3 ${4:-}"
}
