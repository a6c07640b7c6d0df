#!/bin/sh
# text-pokes.sh FILE: the guest's kernel text patches (text-pokes.txt,
# tracing/guest/poke-watch.sh's instance text), counted by the step the
# guest was in: with the boot CPU alone online, while the others came up,
# and after. One line on stdout:
#   alone N, onlining N, online N, exempt N
# (patch batches and int3 kprobe arms each counted once: a "batch" hit,
# or a "poke" hit outside a batch). Exit 1, with a one-line error naming
# the first such patch's callers, when any came after the first CPU other
# than the boot CPU was asked up: under TCG another vCPU may then run a
# stale translation of the patched text (docs/findings.md, "Under TCG").
# Exempt: the audit's text-patching trigger, which patches on purpose
# (its sub-window, "qc: audit text_poke start" .. "end"). A watch that
# lost events, or a file without the watch's markers, is refused: it
# cannot say that nothing was patched.
set -eu
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/lib/log.sh"
[ $# -eq 1 ] || die "usage: text-pokes.sh TEXT-POKES.TXT"
[ -f "$1" ] || die "no text-patch watch '$1': the guest did not save it (see its console.log)"
awk -v file="$1" '
	function fail(msg) { print "quietcore: error: " file ": " msg > "/dev/stderr"; bad = 1; exit 1 }
	BEGIN { step = "alone" }	# poke-watch.sh arms its own probes with one CPU
	/^# stats / { if ($NF + 0 != 0) fail("the text-patch watch lost events (" $3 " " $4 " " $5 " " $NF "): it cannot say what was patched"); next }
	/tracing_mark_write: qc: boot CPU alone online/ { next }
	/<stack trace>/ { next }
	/tracing_mark_write: qc: onlining CPUs/ { if (step == "alone") step = "onlining"; next }
	/tracing_mark_write: qc: CPUs online/ { if (step == "onlining") step = "online"; next }
	/tracing_mark_write: qc: audit text_poke start/ { exempt = 1; next }
	/tracing_mark_write: qc: audit text_poke end/ { exempt = 0; next }
	/ batch: \(/ { in_batch = 1; count(); next }
	/ poke: \(/ { if (!in_batch) count(); next }
	/^ *=> / {
		# The first few callers above the text-poke functions: who patched.
		if (want && $2 !~ /^(kprobe_|0x|__text_poke|text_poke|arch_jump_label|__jump_label|jump_label)/ && ncallers < 4)
			callers = callers (ncallers++ ? " <- " : "") $2
		next
	}
	# Any other line ends a hit and its stack, and a batch (its pokes were
	# taken above).
	/[^ ]/ { want = 0; in_batch = 0 }
	function count() {
		if (exempt) { n["exempt"]++; return }
		n[step]++
		if (step != "alone" && first == "") { want = 1; first = $0 }
	}
	END {
		if (bad) exit 1
		if (step != "online") fail("no \"qc: CPUs online\" marker: the guest never brought its CPUs up through qc_online_cpus")
		printf "alone %d, onlining %d, online %d, exempt %d\n", n["alone"], n["onlining"], n["online"], n["exempt"]
		if (first != "") {
			sub(/^ */, "", first)
			print "quietcore: error: " file ": " n["onlining"] + n["online"] " kernel text patch(es) while more than the boot CPU was online, the first by " callers " (" substr(first, 1, 80) ")" > "/dev/stderr"
			exit 1
		}
	}' "$1"
