#!/bin/sh
# splats.sh [--brief] CONSOLE_LOG: print the kernel splats in a guest
# console log (WARNING, BUG, oops, panic, lockdep, RCU, list corruption,
# sleeping in atomic context...) with a few lines of context each; exit 1
# when there is one. --brief: only the first three splat lines, joined on
# one line, to quote in a one-line error. The one splat matcher: boot.sh
# (a guest that died), run.sh (a guest that finished) and so the stress
# runs use it. The OOM killer's own report is expected under memory
# pressure and is not a splat, although it prints a call trace.
brief=no
[ "${1:-}" != --brief ] || { brief=yes; shift; }
log=${1:?usage: splats.sh [--brief] CONSOLE_LOG}
pattern='WARNING:|BUG:|Oops|Kernel panic|general protection fault|possible circular locking|inconsistent lock state|possible recursive locking|suspicious RCU usage|detected stall|detected expedited stall|INFO: task .* blocked|list_(add|del) corruption|sleeping function called from invalid context|scheduling while atomic|UBSAN:|lockdep is turned off|DEBUG_LOCKS_WARN_ON|bad page state'
if grep -Eq "$pattern" "$log"; then
	if [ "$brief" = yes ]; then
		grep -m3 -E "$pattern" "$log" | tr -d '\r' | tr '\n' ' ' | cut -c1-300
		echo
	else
		grep -E -A6 "$pattern" "$log" | head -n 40
	fi
	exit 1
fi
exit 0
