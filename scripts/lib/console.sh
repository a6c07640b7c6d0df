# console.sh: what a guest's console says of its boot, judged the same way
# whether the console came from boot.sh (run.sh) or from a lab's job log
# (lava-fetch.sh).
# Needs paths.sh and log.sh.
# shellcheck shell=sh

# qc_check_console OUT LABEL TIMEOUT: die unless OUT's console is clean: a
# kernel splat fails the run whatever the scenario measured, and so does the
# guest's own dump near its limit of TIMEOUT s (guest-init/init), which
# sent NMIs to every CPU, the isolated ones too, inside what was measured.
qc_check_console() {
	if ! "$QC_ROOT/scripts/splats.sh" "$1/$QC_CONSOLE" > "$1/splats.txt"; then
		die "kernel splat in the $2 guest: $("$QC_ROOT/scripts/splats.sh" --brief "$1/$QC_CONSOLE" | cut -c1-200) (see $1/splats.txt)"
	fi
	rm -f "$1/splats.txt"
	_at=$(sed -n "s/^$QC_WATCHDOG_SAYS \([0-9]*\) s.*/\1/p" "$1/$QC_CONSOLE" | head -n1)
	[ -z "$_at" ] ||
		die "the $2 guest finished only after its watchdog's dump at $_at s of the $3 s limit, which sent NMIs to every CPU: not a clean run; re-run with a longer --timeout (see $1/$QC_CONSOLE)"
}

# qc_check_text_patches OUT [warn]: the text-patch watch's counts
# (scripts/text-pokes.sh) on stdout. Die when kernel text was patched
# while another CPU could run it: under TCG that CPU may run a stale
# translation (docs/findings.md, "Under TCG"). With "warn" (a guest
# script's patching is its own business) only say so.
qc_check_text_patches() {
	if _tp=$("$QC_ROOT/scripts/text-pokes.sh" "$1/$QC_TEXT_POKES" 2>"$1/.pokes.err"); then
		rm -f "$1/.pokes.err"
		echo "$_tp"
		return 0
	fi
	_e=$(sed -n 's/^quietcore: error: //p' "$1/.pokes.err" | head -n1)
	rm -f "$1/.pokes.err"
	[ "${2:-}" = warn ] || die "${_e:-scripts/text-pokes.sh failed on $1/$QC_TEXT_POKES}"
	warn "$_e"
	echo "${_tp:-unknown}"
}
