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
	# Only the boot CPU comes up with the kernel: the guest patches its
	# text (tracing, modules, static keys) before it brings the others
	# online (guest-lib.sh qc_online_cpus), since under TCG a vCPU can run
	# a stale translation of text another vCPU patched. noreplace-smp keeps
	# x86 from patching the kernel into UP code and back when the second
	# CPU comes up; no_ipi_broadcast=1 keeps the last CPU's first boot from
	# switching the IPI shorthand's static key on (apic_smt_update()): IPIs
	# to all other CPUs go by mask instead, to the same CPUs.
	_c="$_c maxcpus=1 noreplace-smp no_ipi_broadcast=1"
	_c="$_c qc.isolated=$1 qc.housekeeping=$_hk"
	# The guest's own clock runs with ours under TCG: it dumps its blocked
	# tasks and CPU backtraces shortly before this limit (guest-init/init).
	echo "$_c qc.timeout=$3 ${4:-}"
}
