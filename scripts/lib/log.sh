# log.sh: what a host script says and how it stops: progress, warnings,
# the one-line error every bad input ends in, missing commands.
# Needs nothing; every host script sources it.
# shellcheck shell=sh

# The script's name, as basename "$0" .sh gives it, without a process
# (every script sources this file).
if [ -z "${qc_prog:-}" ]; then qc_prog=${0##*/}; [ "$qc_prog" = .sh ] || qc_prog=${qc_prog%.sh}; fi

info() { printf '[%s] %s\n' "$qc_prog" "$*" >&2; }
warn() { printf '[%s] warning: %s\n' "$qc_prog" "$*" >&2; }
# die: the one-line error every bad input ends in, then a non-zero exit.
# A run in progress names its status file in QC_STATUS_FILE, so that the
# reason lands in the run's own files too, never a half result left as whole.
die() {
	printf 'quietcore: error: %s\n' "$*" >&2
	[ -z "${QC_STATUS_FILE:-}" ] || echo "failed: $*" > "$QC_STATUS_FILE"
	exit 1
}
# step N TOTAL MSG: the "step x/y" progress line long jobs print.
step() { printf '[%s] step %s/%s: %s\n' "$qc_prog" "$1" "$2" "$3" >&2; }

need_cmd() {
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 ||
			die "'$c' is not installed: run 'sudo make setup' once on this machine"
	done
}
