#!/bin/sh
# qc-test: slow
# qc-test: boots spinlock
# qc-cost (bench/plugin/) in a booted kernel: the spinlock variant under
# scripts/run.sh --count-cost runs tests/plugin/count-loops.S pinned to
# CPU 1. Its user-mode loop must be counted exactly as its disassembly
# says (instructions, loads, stores), and the kernel instructions of its
# getppid() calls must land in __x64_sys_getppid, exactly the instructions
# of that straight-line function (vmlinux's disassembly) per call, twice as
# many for twice the calls. The opener's-task split: a window with no
# context switch gives its task everything; a window in which the program
# sleeps gives its task every getppid() instruction and nothing of the idle
# loop that ran meanwhile. A guest that never runs the markers is refused
# in one line. Two boots of ~10 s each.
. "$(dirname "$0")/ktap.sh"
ktap_scratch

ktap_require qemu-system-x86_64 gcc make jq cpio
ktap_plan 11
ktap_build_boots
loops=100000 calls=1000
prog=$scratch/count-loops
gcc -nostdlib -static -DLOOPS=$loops -DCALLS=$calls -DREP_BYTES=4096 -o "$prog" "$root/tests/plugin/count-loops.S"
cat > "$scratch/guest.sh" <<GUEST
echo "$(base64 -w0 "$prog")" | base64 -d > /tmp/count-loops
chmod +x /tmp/count-loops
taskset -c 1 /tmp/count-loops
GUEST
if out=$("$root/scripts/run.sh" -V spinlock --no-build --guest-script "$scratch/guest.sh" --count-cost 2>"$scratch/log"); then
	ktap_ok "spinlock guest ran count-loops under the plugin"
else
	ktap_not_ok "spinlock guest ran count-loops under the plugin"
	ktap_diag "$(tail -n 5 "$scratch/log")"
	out=/nonexistent
fi
w() { jq -c "select(.vcpu == 1 and .window == $1) | $2" "$out/$QC_COST_FILE" 2>/dev/null; }
ktap_check "six windows, all on CPU 1, the first incomplete and the rest complete" \
	test "$(jq -sc 'map([.vcpu, .window, .complete])' "$out/$QC_COST_FILE" 2>/dev/null)" = \
	'[[1,1,false],[1,2,true],[1,3,true],[1,4,true],[1,5,true],[1,6,true]]'

expect=$(objdump -d "$prog" | awk -v from=counted_loop -v loops=$loops -f "$root/tests/plugin/window-count.awk")
got=$(w 2 '[.user.insns, .user.loads, .user.stores]')
ktap_check "user loop: $expect instructions (its disassembly), $loops loads, $loops stores (got $got)" \
	test "$got" = "[$expect,$loops,$loops]"

per_call=$(objdump -d "$prog" | awk -v from=getppids -v loops=$calls -f "$root/tests/plugin/window-count.awk")
ktap_check "getppid loop: $per_call user instructions for $calls calls, twice that for $((2 * calls))" \
	test "$(w 3 .user.insns) $(w 4 .user.insns)" = "$per_call $((2 * per_call))"

# __x64_sys_getppid in this kernel: its instructions from its address to
# the next symbol's (System.map), up to its first ret, with no jump (so
# every call runs all of them).
bdir=$(qc_build_dir spinlock)
range=$(sort "$bdir/System.map" | awk '$3 == "__x64_sys_getppid" { s = $1; next } s != "" && $1 != s { print s, $1; exit }')
fn=$(objdump -d "$bdir/vmlinux" --start-address=0x"${range% *}" --stop-address=0x"${range#* }" |
	awk -F'\t' '/^ *[0-9a-f]+:/ && NF >= 3 { n++; if ($3 ~ /^j/) jumps++; if ($3 ~ /^ret/) { print n, jumps + 0; exit } }')
n_fn=${fn% *}
ktap_check "__x64_sys_getppid is straight-line in vmlinux ($n_fn instructions, no jump)" \
	test -n "$n_fn" -a "${fn#* }" = 0
got=$(w 3 '.functions["__x64_sys_getppid"][0]') got2=$(w 4 '.functions["__x64_sys_getppid"][0]')
ktap_check "attributed to __x64_sys_getppid: $calls x $n_fn and $((2 * calls)) x $n_fn instructions (got $got, $got2)" \
	test "$got $got2" = "$((calls * n_fn)) $((2 * calls * n_fn))"

# The opener's task (the context switch read off __switch_to_asm).
ktap_check "window 3, no context switch: its task holds the whole kernel count ($(w 3 .kernel.insns) insns)" \
	test "$(w 3 '[.opener_task.switches, .opener_task.kernel == .kernel]')" = '[0,true]'
got=$(w 5 '[.functions["__x64_sys_getppid"][0], .opener_task.functions["__x64_sys_getppid"][0]]')
ktap_check "window 5, getppid then a sleep: all $calls x $n_fn getppid instructions in its task (got $got)" \
	test "$got" = "[$((calls * n_fn)),$((calls * n_fn))]"
idle=$(w 5 '[.opener_task.switches, (.functions.default_idle_call[0] // 0), (.opener_task.functions.default_idle_call[0] // 0),
	(.kernel.insns - .opener_task.kernel.insns)]')
split_ok=$(echo "${idle:-null}" | jq '.[0] >= 2 and .[1] > 0 and .[2] == 0 and .[3] >= .[1]' 2>/dev/null)
ktap_check "window 5: switched out and back, the idle loop outside its task (switches, idle insns in the window, in its task, the rest: $idle)" \
	test "$split_ok" = true

# A rep string instruction is one instruction however many iterations it
# runs (QEMU 10; 7.2 counted each), and each of its stores counts: what
# clear_page_erms costs a fault in these figures (bench/README.md).
got=$(w 6 '[.user.insns, .user.stores]')
ktap_check "a rep stosb of 4096 bytes: 1 instruction and 4096 stores (got $got)" test "$got" = "[1,4096]"

echo 'true' > "$scratch/none.sh"
expect_error "a guest that never runs the markers: refused by the plugin's error line" \
	"qc-cost: no counting window" "$root/scripts/run.sh" -V spinlock --no-build --guest-script "$scratch/none.sh" --count-cost
ktap_finish
