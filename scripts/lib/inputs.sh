# inputs.sh: a run's inputs, checked the one way every entry point checks
# them (qc_check_inputs), the scenarios (guest-init/scenarios/) and the
# guest each one boots (its "# qc-guest:" line), and the refill CPUs.
# Needs paths.sh, log.sh, variants.sh and common/cpulist.sh.
# shellcheck shell=sh

qc_is_count() { case $1 in ''|*[!0-9]*) return 1 ;; esac; [ "$1" -gt 0 ]; }
# Guest vCPUs unless run.sh --smp says otherwise: CPU 0 keeps house.
QC_SMP=4

# qc_guest_of SCENARIO: the guest a scenario boots unless run.sh's or
# compare.sh's options say otherwise, in QC_GUEST_SMP, QC_GUEST_MEM (MB),
# QC_GUEST_NUMA (MB per NUMA node, "" for one node), QC_GUEST_ARGS (kernel
# parameters beside the scenario's own "# qc-kernel-args:" line),
# QC_GUEST_TIMEOUT (s, "" for run.sh's 300 + 3 x duration) and
# QC_GUEST_BENCH_RUNS (compare's timed and counted allocator runs).
# A scenario that needs another guest says so on its own "# qc-guest:"
# line, beside the reason (scenario audit), with these settings:
#   smp=N  mem=MB  numa=MB,MB  memcg=on  timeout=S  bench-runs=N
# Every guest boots with the memory controller off (cgroup_disable=memory)
# unless its scenario says memcg=on: CONFIG_MEMCG is configured for the
# audit's memcg trigger, and the others' page faults pay no charging.
# An unknown scenario keeps the defaults (qc_check_inputs names it).
qc_guest_of() {
	QC_GUEST_SMP=$QC_SMP QC_GUEST_MEM=2048 QC_GUEST_NUMA= QC_GUEST_ARGS="cgroup_disable=memory"
	QC_GUEST_TIMEOUT= QC_GUEST_BENCH_RUNS=5
	_f=$QC_ROOT/guest-init/scenarios/$1.sh
	[ -f "$_f" ] || return 0
	# (its "# qc-guest:" lines read in the shell: run.sh and compare.sh
	# look a scenario's guest up every time)
	while IFS= read -r _qg_l || [ -n "$_qg_l" ]; do
		case $_qg_l in "# qc-guest:"*) ;; *) continue ;; esac
		for _kv in ${_qg_l#"# qc-guest:"}; do
			_val=${_kv#*=}
			case $_kv in
			smp=*) qc_is_count "$_val" && QC_GUEST_SMP=$_val ;;
			mem=*) qc_is_count "$_val" && QC_GUEST_MEM=$_val ;;
			numa=*,*) qc_is_count "${_val%,*}" && qc_is_count "${_val#*,}" && QC_GUEST_NUMA=$_val ;;
			memcg=on) QC_GUEST_ARGS= ;;
			timeout=*) qc_is_count "$_val" && QC_GUEST_TIMEOUT=$_val ;;
			bench-runs=*) case $_val in ''|*[!0-9]*) false ;; *) QC_GUEST_BENCH_RUNS=$_val ;; esac ;;
			*) false ;;
			esac || die "$_f: '# qc-guest:' setting '$_kv' is not one of smp=N mem=MB numa=MB,MB memcg=on timeout=S bench-runs=N"
		done
	done < "$_f"
}

# The guest scenarios: guest-init/scenarios/<name>.sh.
qc_scenarios() { ls "$QC_ROOT/guest-init/scenarios" | sed -n 's/\.sh$//p'; }

# What a scenario is, declared once on its own "# qc-scenario:" line (every
# scenario has one, perhaps empty) and read from there by everything that
# needs it (docs/design.md, "The scenarios"):
#   traced    it traces a measurement window: its guests' analysis is
#             required (summarize refuses a run without it)
#   selftest  it plants the self-test after its windows (required too)
#   hammer    the drain hammer runs in its window (hammer.json required)
#   exposure  each isolated CPU must have been reached by drains (the
#             verdict policy's min_exposure, else UNEXPOSED)
#   refill    REFILL=auto puts the refill workload on every isolated CPU
#             but the first
#   tasks=COMM,...  the measured tasks, by comm: what runs on the isolated
#             CPUs by design, so that the analyzer counts no run of theirs
#             as an interruption (a traced scenario must declare them)
QC_SCENARIO_TRAITS="traced selftest hammer exposure refill tasks=COMM,..."
# qc_scenario_traits SCENARIO: its traits, a line; dies on a missing
# line, an unknown trait, or a traced scenario without its tasks.
qc_scenario_traits() {
	_st_f=$QC_ROOT/guest-init/scenarios/$1.sh
	_st=$(sed -n 's/^# qc-scenario://p' "$_st_f" 2>/dev/null)
	grep -q '^# qc-scenario:' "$_st_f" 2>/dev/null ||
		die "$_st_f has no '# qc-scenario:' line: declare its traits there (any of: $QC_SCENARIO_TRAITS)"
	_st_tasks=
	for _t in $_st; do
		case $_t in
		tasks=?*) _st_tasks=${_t#tasks=} ;;
		*) case " $QC_SCENARIO_TRAITS " in *" $_t "*) ;; *)
			die "$_st_f: '# qc-scenario:' trait '$_t' is not one of: $QC_SCENARIO_TRAITS" ;;
		   esac ;;
		esac
	done
	case " $_st " in *" traced "*)
		[ -n "$_st_tasks" ] ||
			die "$_st_f: a traced scenario declares its measured tasks on its '# qc-scenario:' line (tasks=oslat,refill)" ;;
	esac
	echo $_st
}
# qc_scenario_has SCENARIO TRAIT: does it declare TRAIT?
qc_scenario_has() {
	case " $(qc_scenario_traits "$1") " in *" $2 "*) return 0 ;; esac
	return 1
}
# qc_scenario_tasks SCENARIO: its measured tasks' comms (tasks=), a
# comma-separated line, "" for a scenario that declares none.
qc_scenario_tasks() {
	_sct=$(qc_scenario_traits "$1") || exit 1
	for _t in $_sct; do
		case $_t in tasks=*) echo "${_t#tasks=}"; return 0 ;; esac
	done
	echo
}
# Every scenario's traits as one JSON object, {"hammer": ["traced", ...], ...},
# its tasks left out (summarize.sh gives it to the judge).
qc_scenario_traits_json() {
	_stj=
	for _sc in $(qc_scenarios); do
		_t=$(qc_scenario_traits "$_sc") || exit 1
		_stj="$_stj$_sc $_t
"
	done
	printf '%s' "$_stj" | jq -Rn '[inputs | split(" ") | {key: .[0], value: (.[1:] | map(select(length > 0 and (startswith("tasks=") | not))))}] | from_entries'
}
qc_check_scenario() {
	[ -f "$QC_ROOT/guest-init/scenarios/$1.sh" ] ||
		die "unknown scenario '$1': choose one of: $(qc_scenarios | tr '\n' ' ')(guest-init/scenarios/)"
}

# qc_check_inputs VARIANTS SCENARIO DURATION ISOLATED SMP RATE REFILL: a
# run's inputs, checked the one way every entry point (make compare, make
# run, make stress, ...) checks them, before anything is built or any
# results directory is made: a bad value dies with one line naming it and
# the fix. RATE "" is the hammer's own default. Sets QC_REFILL_CPUS to the
# refill CPUs REFILL resolves to ("" for none).
qc_check_inputs() {
	[ -n "$1" ] || die "no variants given: choose from $(qc_variant_words)(see patches/series)"
	_seen=
	for _v in $1; do
		qc_check_variant "$_v"
		case " $_seen " in *" $_v "*) die "variant '$_v' is given twice: a run has one guest per variant" ;; esac
		_seen="$_seen $_v"
	done
	qc_check_scenario "$2"
	# The hammer takes runs of 1-86400 s (hammer/README.md).
	{ qc_is_count "$3" && [ "$3" -le 86400 ]; } ||
		die "duration '$3' is not a whole number of seconds from 1 to 86400"
	qc_cpulist_valid "$4" || die "isolated CPU list '$4' is not a CPU list like 1-3 or 1,3"
	for _c in $(qc_cpulist_expand "$4"); do
		[ "$_c" -ne 0 ] || die "isolated CPUs '$4' include housekeeping CPU 0: CPU 0 always keeps house, isolate CPUs from 1 up (e.g. 1-$(($5 - 1)))"
		[ "$_c" -lt "$5" ] || die "isolated CPU $_c does not exist in a $5-CPU guest: use a smaller list (scripts/run.sh --smp $((_c + 1)) boots a bigger guest)"
	done
	[ -z "$6" ] || { qc_is_count "$6" && [ "$6" -le 10000 ]; } ||
		die "rate '$6' is not a whole number of drain_all_pages() calls per second from 1 to 10000 (the hammer's range)"
	QC_REFILL_CPUS=$(qc_refill_cpus "$2" "$4" "$7") || exit 1
}

# qc_refill_cpus SCENARIO ISOLATED REFILL: the refill workload's CPUs for a
# run, from REFILL as the user gave it: "auto" (the default) is every
# isolated CPU but the first in the scenarios that declare the trait
# refill (qc_scenario_traits: hammer and its control, quiet, the audit,
# and rthog, whose hog preempts refill), none elsewhere; "none" or "" is
# none; a list
# must lie inside ISOLATED and leave at least one CPU to oslat. Dies on a
# bad list.
qc_refill_cpus() {
	case $3 in
	none|'') return 0 ;;
	auto)
		qc_scenario_has "$1" refill || return 0
		qc_cpulist_minus "$2" "$(qc_first_expanded "$2")"
		return 0 ;;
	esac
	qc_cpulist_valid "$3" || die "refill CPU list '$3' is not a CPU list like 2-3 (or 'auto', 'none')"
	[ -z "$(qc_cpulist_minus "$3" "$2")" ] ||
		die "refill CPUs '$3' are not all isolated (isolated: $2): choose refill CPUs among the isolated ones"
	[ -n "$(qc_cpulist_minus "$2" "$3")" ] ||
		die "refill CPUs '$3' leave no isolated CPU for oslat, the pure-spin reference: keep one out (e.g. REFILL=$(qc_cpulist_minus "$2" "$(qc_first_expanded "$2")"))"
	qc_cpulist_expand "$3" | paste -sd, -
}

# qc_first_expanded LIST: the first line qc_cpulist_expand LIST prints; a
# plain LIST (qc_cpulist_words) without a process: every run of the
# scenarios with an "auto" refill asks.
qc_first_expanded() {
	if qc_cpulist_words "$1"; then
		echo "${CL_WORDS%% *}"
	else
		qc_cpulist_expand "$1" | head -n1
	fi
}

# qc_check_rthog REFILL_CPUS PARAMS: the rthog scenario's hog settings
# among PARAMS (run.sh's " qc.KEY=VALUE" words), checked before anything
# boots: its CPU must be a refill CPU (the hog is there to preempt
# refill), its priority 1-99, its spin shorter than its period (the
# defaults: common/contract.sh). Dies on a bad one.
qc_check_rthog() {
	[ -n "$1" ] || die "scenario rthog needs a refill CPU for its hog: give --refill auto or a list, not none"
	_cpu= _prio=$QC_RTHOG_DEFAULT_PRIO _period=$QC_RTHOG_DEFAULT_PERIOD_MS _spin=$QC_RTHOG_DEFAULT_SPIN_MS
	for _p in $2; do
		case $_p in
		qc.rthog_cpu=*) _cpu=${_p#*=} ;;
		qc.rthog_prio=*) _prio=${_p#*=} ;;
		qc.rthog_period_ms=*) _period=${_p#*=} ;;
		qc.rthog_spin_ms=*) _spin=${_p#*=} ;;
		esac
	done
	if [ -n "$_cpu" ]; then
		case $_cpu in *[!0-9]*) die "rthog_cpu '$_cpu' is not a CPU number" ;; esac
		qc_cpulist_expand "$1" | grep -qx "$_cpu" ||
			die "rthog_cpu $_cpu is not a refill CPU ($1): the hog must run where refill does, to preempt it"
	fi
	{ qc_is_count "$_prio" && [ "$_prio" -le 99 ]; } || die "rthog_prio '$_prio' is not a SCHED_FIFO priority from 1 to 99"
	{ qc_is_count "$_period" && [ "$_period" -le 3600000 ]; } || die "rthog_period_ms '$_period' is not a whole number of ms from 1 to 3600000"
	qc_is_count "$_spin" || die "rthog_spin_ms '$_spin' is not a whole number of ms"
	[ "$_spin" -lt "$_period" ] || die "rthog_spin_ms $_spin is not shorter than rthog_period_ms $_period: refill needs the rest of each period"
}

# qc_check_kernel_arg ARG: one extra kernel parameter (run.sh and
# compare.sh --kernel-arg), e.g. rcutree.kthread_prio=20: a word of
# letters, digits and _.,=- that is not one of the rig's own (qc.*, or the
# isolation boot.sh derives from the CPU list).
qc_check_kernel_arg() {
	case $1 in
	''|*[!A-Za-z0-9_.,=-]*) die "--kernel-arg '$1' is not one kernel parameter (letters, digits and _.,=- only, e.g. rcutree.kthread_prio=20)" ;;
	qc.*) die "--kernel-arg '$1': qc.* parameters are the rig's own, use --param KEY=VALUE" ;;
	nohz_full=*|isolcpus=*|rcu_nocbs=*|irqaffinity=*) die "--kernel-arg '$1': boot.sh derives the isolation parameters from --isolated" ;;
	esac
}

# qc_guest_append KARGS VARIANT SCENARIO DURATION REFILL: the parameters
# every measured guest gets after the isolation ones (run.sh, lava-job.sh):
# KARGS (the scenario's and the user's kernel args), the guest's own
# (QC_GUEST_ARGS, qc_guest_of), what to run and the probe lists of
# VARIANT's tree; REFILL "" for none.
qc_guest_append() {
	echo "${1:+$1 }${QC_GUEST_ARGS:+$QC_GUEST_ARGS }qc.scenario=$3 qc.duration=$4 qc.probes=$2 qc.audit=$(qc_variant_audit "$2") qc.sends=$(qc_variant_sends "$2") qc.refill=${5:-none}"
}

# qc_scenario_kargs SCENARIO: the kernel parameters SCENARIO needs, named
# on its "# qc-kernel-args:" line (stress: page_owner=on).
qc_scenario_kargs() { sed -n 's/^# qc-kernel-args: *//p' "$QC_ROOT/guest-init/scenarios/$1.sh"; }
