# runs.sh: a run's directory (named by UTC time, so ids sort by time), its
# status file, its run.txt, and reading back its "KEY: value" files and
# the kinds of guest it holds.
# Needs paths.sh.
# shellcheck shell=sh

# qc_new_run: a new run directory under QC_RESULTS, created with mkdir so
# that an id is never reused; its id on stdout.
qc_new_run() {
	mkdir -p "$QC_RESULTS"
	id=$(date -u +%Y%m%d-%H%M%S)
	n=1 try=$id
	until mkdir "$QC_RESULTS/$try" 2>/dev/null; do
		n=$((n + 1)) try=$id-$n
	done
	echo "$try"
}

# qc_status_begin FILE: this script now owns the status file FILE: it says
# "running" until the script writes "ok", die() writes "failed: why", and
# an interrupt leaves "failed: interrupted".
qc_status_begin() {
	export QC_STATUS_FILE="$1"
	echo "running" > "$QC_STATUS_FILE"
	trap 'grep -q "^running" "$QC_STATUS_FILE" 2>/dev/null && echo "failed: interrupted" > "$QC_STATUS_FILE"; exit 130' INT TERM
}

# qc_status_read DIR [DEFAULT]: QC_ST, the first line of DIR's status
# file, read in the shell (a run's every guest is read, often); DEFAULT,
# "" unless given, when there is no such file.
qc_status_read() {
	QC_ST=${2:-}
	[ ! -f "$1/$QC_STATUS" ] || read -r QC_ST < "$1/$QC_STATUS" || :
}

# qc_run_txt RUNDIR VARIANTS SCENARIO DURATION ISOLATED [REFILL]: the
# run's facts, read back by summarize.sh. REFILL: the isolated CPUs that
# ran the refill workload (empty: none; the others ran oslat).
qc_run_txt() {
	printf 'id: %s\nvariants: %s\nscenario: %s\nduration_s: %s\nisolated: %s\nrefill: %s\n' \
		"$(basename "$1")" "$2" "$3" "$4" "$5" "${6:-}" > "$1/$QC_RUN_TXT"
}

# qc_kv FILE KEY: the value of FILE's first "KEY: value" line, blanks
# trimmed ("" when there is none): run.txt, boot-params.txt.
# qc_kv_read FILE KEY: the same in QC_KV, without the subshell a $(qc_kv)
# costs (summarize.sh reads nine values a pass). A plain KEY in a readable
# file is read in the shell, without the three processes of the general
# way.
qc_kv_read() {
	QC_KV=
	case $2 in ''|*[!A-Za-z0-9_]*) QC_KV=$(qc_kv_sed "$@"); return ;; esac
	[ -r "$1" ] && [ ! -d "$1" ] || { QC_KV=$(qc_kv_sed "$@"); return; }
	# (a last line without its newline is read too)
	while IFS= read -r _kv_l || [ -n "$_kv_l" ]; do
		case $_kv_l in "$2:"*) ;; *) continue ;; esac
		_kv_l=${_kv_l#"$2:"}
		while :; do case $_kv_l in " "*) _kv_l=${_kv_l# } ;; *) break ;; esac; done
		while :; do case $_kv_l in *[[:space:]]) _kv_l=${_kv_l%?} ;; *) break ;; esac; done
		QC_KV=$_kv_l
		return 0
	done < "$1"
}
qc_kv() { qc_kv_read "$@"; [ -z "$QC_KV" ] || printf '%s\n' "$QC_KV"; }
qc_kv_sed() { sed -n "s/^$2: *//p" "$1" 2>/dev/null | head -n1 | sed 's/[[:space:]]*$//'; }
# The guests of a run by their label's tag (contract.sh qc_label): the
# allocator benchmark's, timed (summarize.sh) and counted (alloc-cost.sh);
# every other guest is judged.
qc_is_bench() { case $1 in *-"$QC_TAG_BENCH") return 0 ;; esac; return 1; }
qc_is_cost() { case $1 in *-"$QC_TAG_COST") return 0 ;; esac; return 1; }
