#!/bin/sh
# bench/plugin (qc-cost, the TCG plugin that counts the guest's own work
# between markers), without booting a kernel: its System.map lookup on a
# map made up here; under qemu-system-x86_64 with a 64 KiB real-mode
# firmware (tests/plugin/bios-loop.S), a known loop counted exactly against
# its own disassembly; and its refusals (bad arguments, a missing or bogus
# System.map, markers never executed, a window never closed): each one
# "quietcore: error: qc-cost:" line and a failing QEMU, never a count.
# (dirname's answer without its process)
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/ktap.sh"
root=$(cd "$here/.." && pwd)
QC_ROOT=$root
. "$root/scripts/lib/paths.sh"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

ktap_require qemu-system-x86_64 gcc make objdump
ktap_plan 12

# qc-cost.so and ksyms-test kept built in the cache, made again when out
# of date (ktap_kept_build): building both was about 1 CPU-s, as much as
# the nine QEMUs here.
ktap_check "bench/plugin/Makefile builds qc-cost.so and ksyms-test with gcc" \
	ktap_kept_build plugin PLUGIN_OUT "$root/bench/plugin/Makefile" qc-cost.so ksyms-test
so=$KTAP_KEPT/qc-cost.so ksyms=$KTAP_KEPT/ksyms-test

# A map in System.map's format, out of order, with an alias pair (global
# first whatever the order), a function behind two section boundaries at
# its address (as _raw_spin_trylock is in 6.1), a data symbol inside the
# text (ignored) and _etext closing the last function.
cat > "$scratch/System.map" <<'MAP'
ffffffff81000200 t helper_b
ffffffff81000280 T __cpuidle_text_end
ffffffff81000280 T __lock_text_start
ffffffff81000280 T _raw_spin_trylock
ffffffff81000000 T _text
ffffffff81000100 t __do_sys_getppid
ffffffff81000100 T __x64_sys_getppid
ffffffff81000180 d some_data
ffffffff81000300 T _etext
MAP
got=$("$ksyms" "$scratch/System.map" ffffffff81000000 ffffffff810000ff ffffffff81000100 \
	ffffffff81000190 ffffffff81000200 ffffffff8100027f ffffffff810002ff ffffffff81000300 ffffffff80ffffff | paste -sd' ' -)
want="_text _text __x64_sys_getppid __x64_sys_getppid helper_b helper_b _raw_spin_trylock - -"
if [ "$got" = "$want" ]; then
	ktap_ok "ksyms: each address in its function, a function over a section boundary, the global alias, nothing past _etext or before _text"
else
	ktap_not_ok "ksyms: each address in its function, a function over a section boundary, the global alias, nothing past _etext or before _text"
	ktap_diag "want: $want"; ktap_diag "got:  $got"
fi

# The firmware images, bios-MODE-LOOPS.bin from bios-loop.S
# (tests/plugin/Makefile), kept built in the cache as the plugin is
# (ktap_kept_build): a compile and an objcopy each, the same three each
# run, before. LOOPS = 5000: the counted loop's (MODE 0).
loops=5000
ktap_kept_build plugin-bios BIOS_OUT "$root/tests/plugin/Makefile" \
	"bios-0-$loops.o" "bios-0-$loops.bin" bios-1-1.bin bios-2-1.bin ||
	ktap_diag "tests/plugin/Makefile does not build the firmware images"
bios_dir=$KTAP_KEPT
# bios MODE [LOOPS]: the image QEMU runs next, $bios.
bios() { bios=$bios_dir/bios-$1-${2:-1}.bin; }
# qemu ARGS: the firmware under the plugin with ARGS; stderr to scratch/err.
# (QEMU found in PATH once, not by timeout at every start; the old output
# removed only when there is one: a process each, nine times.)
qemu_bin=$(command -v qemu-system-x86_64)
qemu() {
	[ ! -e "$scratch/out.jsonl" ] && [ ! -L "$scratch/out.jsonl" ] || rm -f "$scratch/out.jsonl"
	timeout 60 "$qemu_bin" -nodefaults -display none -accel tcg,thread=multi \
		-bios "$bios" -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		-plugin "$so${1:+,$1}" 2>"$scratch/err"
}

# The loop: the expected count comes from the disassembly of the counted
# window: the instructions between the markers outside the loop once, the
# loop's body (from the backward jump's target to the jump) LOOPS times.
bios 0 "$loops"
expect=$(objdump -d -m i8086 "$bios_dir/bios-0-$loops.o" | awk -v from=counted_loop -v loops="$loops" -f "$root/tests/plugin/window-count.awk")
qemu "map=$scratch/System.map,out=$scratch/out.jsonl"
rc=$?
# Each window's figures, compact JSON as jq -c prints them (a line a
# window of that number), as v_loop (window 2) and v_first (window 1), by
# one jq (ktap_jq_vals).
ktap_jq_vals "$scratch/out.jsonl" v_ '
	def each(n; f): map(select(.window == n) | f | tojson) | join("\n");
	{loop: each(2; [.complete, .user.insns, .user.loads, .user.stores, .kernel.insns]),
	 first: each(1; .complete)}' -s
if [ "$rc" -eq 33 ] && [ "$expect" -eq $((1 + 2 * loops)) ] && [ "$v_loop" = "[true,$expect,0,0,0]" ]; then
	ktap_ok "a loop of $loops: exactly $expect instructions (from its disassembly), no loads or stores, in a complete window"
else
	ktap_not_ok "a loop of $loops: exactly $expect instructions (from its disassembly), no loads or stores, in a complete window"
	ktap_diag "qemu exit $rc, disassembly says $expect, plugin: $v_loop $(cat "$scratch/err")"
fi
ktap_check "the first window, opened before everything was instrumented, says complete:false" \
	test "$v_first" = false

# lines_with FILE PREFIX|*TEXT*: n, how many lines of FILE match the case
# pattern (0 for no file), counted in the shell, as grep -c counts them.
lines_with() {
	n=0
	[ -r "$1" ] || return 0
	while IFS= read -r _l || [ -n "$_l" ]; do
		# shellcheck disable=SC2254 # the pattern is the argument's
		case $_l in $2) n=$((n + 1)) ;; esac
	done < "$1"
}
# refused DESC PATTERN PLUGIN-ARGS: QEMU fails, with exactly one qc-cost
# error line matching PATTERN, and no count is left in the output file.
refused() {
	qemu "$3"
	rc=$?
	lines_with "$scratch/err" 'quietcore: error: qc-cost: *'
	errors=$n
	lines_with "$scratch/err" "quietcore: error: qc-cost: *$2*"
	named=$n
	lines_with "$scratch/out.jsonl" '*"insns"*'
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 33 ] && [ "$errors" -eq 1 ] && [ "$named" -ge 1 ] && [ "$n" -eq 0 ]; then
		ktap_ok "$1"
	else
		ktap_not_ok "$1"; ktap_diag "exit $rc: $(cat "$scratch/err")"
	fi
}
map=$scratch/System.map out=$scratch/out.jsonl
refused "refused: an unknown plugin argument" "unknown argument 'mapp=" "mapp=$map,out=$out"
refused "refused: no map= argument" "missing map=" "out=$out"
refused "refused: an entry= function the System.map does not have" "entry=no_such_fn: no such function" "map=$map,out=$out,entry=no_such_fn"
refused "refused: no out= argument" "missing out=" "map=$map"
refused "refused: a System.map that does not exist" "cannot read System.map" "map=$scratch/nope.map,out=$out"
printf 'this is not a map\n' > "$scratch/bogus.map"
refused "refused: a file that is not a System.map" "not a System.map" "map=$scratch/bogus.map,out=$out"
bios 1
refused "refused: markers never executed (nothing counted)" "never executed the markers" "map=$map,out=$out"
bios 2
refused "refused: a window opened and never closed" "never closed it" "map=$map,out=$out"
ktap_finish
