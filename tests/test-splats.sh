#!/bin/sh
# scripts/splats.sh, the one splat matcher: a clean console passes; a
# splat fails; the one known report of stock 6.12 PREEMPT_RT with
# PROVE_RCU (rcuc/N's "Unsafe read of RCU_NOCB offloaded state", fixed
# upstream in 36f8e3087562) passes only when it is that report whole:
# another message, task or call chain in the same frame fails, and so does
# any other splat printed beside it. Boots nothing.
# (dirname's answer without its process)
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/ktap.sh"
root=$(cd "$here/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
splats=$root/scripts/splats.sh

ktap_plan 11

# known [SED-EXPRESSION]: the known report as a 6.12-rt debug guest
# prints it, 0.2 s into boot, optionally altered.
known() {
	sed "${1:-}" <<'LOG'
[    0.201000] =============================
[    0.201010] WARNING: suspicious RCU usage
[    0.201020] 6.12.118 #1 Not tainted
[    0.201030] -----------------------------
[    0.201040] kernel/rcu/tree_plugin.h:36 Unsafe read of RCU_NOCB offloaded state!
[    0.201050] 
[    0.201060] other info that might help us debug this:
[    0.201070] 
[    0.201080] 
[    0.201090] rcu_scheduler_active = 2, debug_locks = 1
[    0.201100] 1 lock held by rcuc/0/17:
[    0.201110]  #0: ffffffff82a4c0e0 (rcu_callback){....}-{0:0}, at: rcu_do_batch+0x1b3/0x4e0
[    0.201120] 
[    0.201130] stack backtrace:
[    0.201140] CPU: 0 UID: 0 PID: 17 Comm: rcuc/0 Not tainted 6.12.118 #1
[    0.201150] Hardware name: QEMU Standard PC (i440FX + PIIX, 1996), BIOS 1.16.2-debian-1.16.2-1 04/01/2014
[    0.201160] Call Trace:
[    0.201170]  <TASK>
[    0.201180]  dump_stack_lvl+0x5b/0x80
[    0.201190]  lockdep_rcu_suspicious+0x143/0x1a0
[    0.201200]  rcu_rdp_is_offloaded+0x93/0xb0
[    0.201210]  rcu_core+0x2f1/0x6a0
[    0.201220]  ? lockdep_hardirqs_on+0x7c/0x110
[    0.201230]  rcu_cpu_kthread+0x10e/0x2f0
[    0.201240]  ? __pfx_rcu_cpu_kthread+0x10/0x10
[    0.201250]  smpboot_thread_fn+0x16f/0x260
[    0.201260]  kthread+0xd9/0x110
[    0.201270]  ret_from_fork+0x2d/0x50
[    0.201280]  ret_from_fork_asm+0x1a/0x30
[    0.201290]  </TASK>
LOG
}
clean() { printf '[    0.100000] Linux version 6.12.118\n[    1.000000] Run /init as init process\n'; }
# passes NAME: splats.sh accepts the log; fails NAME: it reports a splat.
passes() { "$splats" "$scratch/$1" >/dev/null; }
fails() { ! "$splats" "$scratch/$1" >/dev/null; }

clean > "$scratch/clean"
ktap_check "a clean console has no splat" passes clean
{ clean; printf '[    2.000000] BUG: sleeping function called from invalid context at kernel/locking/spinlock_rt.c:48\n'; } > "$scratch/bug"
ktap_check "a BUG line is a splat" fails bug
{ clean; known; clean; } > "$scratch/known"
ktap_check "the known rcuc report of stock 6.12-rt is let through" passes known
# Without the exemption it would fail: splats.sh's own pattern matches
# the report's header.
pattern=$(sed -n "s/^pattern='\(.*\)'$/\1/p" "$splats")
# (in this shell, not in a sh of its own)
pattern_catches() { [ -n "$pattern" ] && grep -Eq "$pattern" "$scratch/$1"; }
ktap_check "... which splats.sh's pattern alone catches (the exemption is what lets it through)" \
	pattern_catches known
{ clean; known 's/Unsafe read of RCU_NOCB offloaded state!/Illegal context switch in RCU read-side critical section!/'; } > "$scratch/msg"
ktap_check "another suspicious-RCU message in the same frame is a splat" fails msg
{ clean; known 's|Comm: rcuc/0 |Comm: kworker/0:1 |'; } > "$scratch/task"
ktap_check "the same message from another task is a splat" fails task
{ clean; known 's/rcu_core+0x2f1/rcu_nocb_gp_kthread+0x2f1/'; } > "$scratch/chain"
ktap_check "the same message through another call chain is a splat" fails chain
{ clean; known '/rcu_core+0x2f1/a [    0.201215] BUG: scheduling while atomic: rcuc/0/17/0x00000002'; } > "$scratch/inside"
ktap_check "a splat printed among the known report's lines is still a splat" fails inside
{ known; known 's/Unsafe read of RCU_NOCB offloaded state!/suspicious rcu_dereference_check() usage!/'; } > "$scratch/two"
ktap_check "the known report beside another suspicious-RCU report: the other fails the log" fails two
# qc.results=console's base64 block (common/contract.sh QC_BLOCK_BEGIN):
# any text can stand in it, a splat's words too.
{ clean; echo 'QC-RESULTS-BEGIN 0123abcd 96'; echo 'H4sIAAAAWARNING:Oops+BUG:kdQ2'; echo 'QC-RESULTS-END'; } > "$scratch/block"
ktap_check "a splat's words inside the results block are not a splat" sh "$splats" "$scratch/block"
{ clean; echo 'QC-RESULTS-BEGIN 0123abcd 96'; echo 'H4sIAAAA'; echo 'QC-RESULTS-END'; echo '[    9.1] Oops: int3: 0000 [#1] SMP'; } > "$scratch/after"
ktap_check "... and one after the block still is" fails after
ktap_finish
