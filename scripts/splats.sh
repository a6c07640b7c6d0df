#!/bin/sh
# splats.sh CONSOLE_LOG: print the kernel splats in a guest console log
# (WARNING, BUG, oops, lockdep, RCU, list corruption, sleeping in atomic
# context...) with a few lines of context each; exit 1 when there is one.
# The OOM killer's own report is expected under memory pressure and is
# not a splat, although it prints a call trace.
log=${1:?usage: splats.sh CONSOLE_LOG}
pattern='WARNING:|BUG:|Oops|Kernel panic|general protection fault|possible circular locking|inconsistent lock state|possible recursive locking|suspicious RCU usage|detected stall|detected expedited stall|INFO: task .* blocked|list_(add|del) corruption|sleeping function called from invalid context|scheduling while atomic|UBSAN:|lockdep is turned off|DEBUG_LOCKS_WARN_ON|bad page state'
if grep -Eq "$pattern" "$log"; then
	grep -E -A6 "$pattern" "$log" | head -n 40
	exit 1
fi
exit 0
