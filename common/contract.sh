# The results contract: every file a run leaves behind, who writes it and
# who reads it, every qc.* parameter the host passes to the guest, and how
# a guest's directory in its run is named. Sourced by the guest
# (guest-lib.sh, busybox ash) and by the host (scripts/lib/paths.sh, dash):
# plain variables and two functions, nothing that runs.
# shellcheck shell=sh

# --- qc.* guest parameters -------------------------------------------------
# scripts/run.sh (and boot.sh for isolated, housekeeping) put qc.NAME=VALUE
# on the guest's kernel command line; guest-init/init exports each as
# QC_NAME (upper case, '.' and '-' as '_'). run.sh --param KEY=VALUE may
# pass only the ones marked "param".
#   scenario      guest-init/scenarios/<scenario>.sh to run
#   duration      the measurement window, seconds
#   isolated      the isolated CPUs (boot.sh; nohz_full= etc. say the same)
#   housekeeping  the other CPUs (boot.sh)
#   timeout       the host's limit for the guest, seconds (boot.sh): near
#                 it, guest-init/init dumps where the guest is stuck
#   probes        the variant whose tracing/probes/<variant>.list to use
#   audit         the audit's trigger list, tracing/probes/<audit>.list
#                 (patches/series names it per variant: names differ by tree)
#   sends         the send-side probe list, tracing/probes/<sends>.list
#                 (origins, origins-6.12: one per tree, named after audit's)
#   refill        the refill workload's CPUs, or "none"
#   rate          param: drain_all_pages() calls/s of the hammer (default 100)
#   bench_runs    param: pft runs of the bench scenario (default 5)
#   plant         param: interruptions of each kind planted per CPU (default 5)
#   refill_ms     param: the refill workload's period, ms (default 20)
#   refill_pages  param: pages it faults in and frees each period (default 64)
#   oslat_settle  param: seconds oslat settles before a window (default 3)
#   bench_cpus    param: CPUs pft runs on (default 0-1)
#   movable_cycles param: ZONE_MOVABLE cycles per stress phase (default 3)
#   cost_runs     param: counted pft runs per thread count, scenario cost (5)
#   cost_mib      param: MiB per pft thread and round there (default 8)
#   cost_rounds   param: pft rounds there (default 16)
#   cost_mode     param: pft's workers there: "processes" (an mm each, each
#                 round begun together: pft -P -S; the default) or
#                 "threads" (one process's, as before Dec 7)
#   decoy         param: rounds of the decoy (hammer/decoy.c) in the hammer
#                 window, each one IPI and one work item to every isolated
#                 CPU, spread over the window (default 0: no decoy)
#   rthog_cpu     param: scenario rthog: the refill CPU the SCHED_FIFO hog
#                 runs on (default: the last refill CPU)
#   rthog_prio    param: its SCHED_FIFO priority, 1-99 (default 10)
#   rthog_period_ms param: its wake-up period, ms (default 1200)
#   rthog_spin_ms param: how long it spins at each wake-up, ms, shorter than
#                 the period (default 900)
#   results       param: "console" also prints the results tree on the
#                 console (guest-init/console-results.sh), for a lab whose
#                 board brings no disk home (LAVA: docs/lava.md), with one
#                 "QC-CASE:" line per isolated CPU and figure; /dev/vda is
#                 then written only where there is one
#   lab           the LAVA device a job ran on, lava-qemu or lava-x86-board
#                 (lava-job.sh): lava-fetch.sh records it as the run's accel
#   origins       param: "no" leaves the send-side probes out of the trace
#                 (tracing/guest/trace-arm.sh), only to measure their cost: the
#                 verdict rule refuses such a trace
# A scenario that needs kernel parameters of its own names them on a
# "# qc-kernel-args:" line (run.sh adds them; stress: page_owner=on), and
# one that needs a guest other than the default says so on a "# qc-guest:"
# line (scripts/lib/inputs.sh qc_guest_of reads it; audit: 5 vCPUs, two nodes).
# The rthog hog's defaults, read by the guest's scenario and by the host's
# check of the settings before anything boots (inputs.sh qc_check_rthog).
QC_RTHOG_DEFAULT_PRIO=10 QC_RTHOG_DEFAULT_PERIOD_MS=1200 QC_RTHOG_DEFAULT_SPIN_MS=900
QC_GUEST_PARAMS="scenario duration isolated housekeeping timeout probes audit sends refill rate bench_runs plant refill_ms refill_pages oslat_settle bench_cpus movable_cycles cost_runs cost_mib cost_rounds cost_mode decoy results lab origins rthog_cpu rthog_prio rthog_period_ms rthog_spin_ms"
QC_PARAMS_SETTABLE="rate bench_runs plant refill_ms refill_pages oslat_settle bench_cpus movable_cycles cost_runs cost_mib cost_rounds cost_mode decoy results origins rthog_cpu rthog_prio rthog_period_ms rthog_spin_ms"

# --- a run: results/<run-id>/ -----------------------------------------------
QC_RUN_TXT=run.txt          # every entry point (lib/runs.sh qc_run_txt) -> summarize.sh
QC_STATUS=status            # the entry point: running, ok or "failed: why" -> report.sh
QC_SUMMARY=summary.json     # summarize.sh -> report.sh (its only input, the plots' data too)
QC_REPORT_MD=report.md      # report.sh -> people
QC_REPORT_HTML=report.html  # report.sh -> people
QC_PLOTS=plots              # report.sh: plots/*.svg

# qc_label VARIANT [FLAVOUR] [TAG]: the directory of one guest in its run,
# VARIANT[-FLAVOUR][-TAG] (wq, wq-debug, wq-bench). summarize.sh reads the
# directories a run has and takes each name apart by the same rule.
qc_label() { echo "$1${2:+-$2}${3:+-$3}"; }
QC_FLAVOUR_DEBUG=debug      # the debug builds (configs/debug.config)
QC_TAG_BENCH=bench          # the allocator benchmark's guests (compare.sh)
QC_TAG_COST=cost            # the counted benchmark's guests (compare.sh, under the TCG plugin)

# --- a guest: results/<run-id>/<label>/ -------------------------------------
# Written by the host:
QC_CONSOLE=console.log      # boot.sh: the serial console -> splats.sh, people
# The console line guest-init/init writes before it dumps blocked tasks and
# CPU backtraces (NMIs on every CPU) near the limit: run.sh refuses a guest
# that printed it and then finished (a hung one is refused as hung).
QC_WATCHDOG_SAYS="quietcore: no exit after"
QC_COST_FILE=alloc-cost.jsonl  # the qc-cost TCG plugin (run.sh --count-cost) -> alloc-cost.sh
QC_ENTRY_COUNTS=entry-counts.jsonl  # the qc-entry TCG plugin (run.sh --count-entries) -> analyze.sh
QC_ENTRY_RATES=entry-rates.jsonl    # qc-entry's guest ns an instruction of kernel stretches -> time-scale.sh
QC_BOOT_PARAMS=boot-params.txt  # boot.sh (then run.sh adds the variant's lines) -> summarize.sh
QC_QEMU_ERR=qemu.err        # boot.sh: QEMU's stderr
QC_VCPUS=vcpus.txt          # boot.sh, for a guest near its limit: scripts/vcpus.sh -> people
# (status, as for a run: run.sh; summarize.sh reads it.)

# Written by the guest in /results, carried home by /init:
QC_TIME_SCALE=time-scale.json  # scripts/time-scale.sh -> summarize.sh (make compare TIME_SCALE=auto)
QC_GUEST_JSON=guest.json    # guest-lib.sh qc_record_facts: what the kernel isolated
QC_SCENARIO_LOG=scenario.log  # /init: the scenario's output -> boot.sh on failure
QC_EXIT_STATUS=exit-status  # /init: the scenario's exit status
QC_DMESG=dmesg.log          # /init: the kernel log at the end
QC_TEXT_POKES=text-pokes.txt  # /init (tracing/guest/poke-watch.sh): every kernel text patch of the boot, with its stack -> scripts/text-pokes.sh
QC_ISOLATION=isolation.txt  # cpusets/isolate.sh's record -> cpusets/verify.sh --record
QC_VERIFY=verify.txt        # cpusets/verify.sh after isolation
QC_PRIME=prime.txt          # guest-init/prime.c's per-CPU lines
QC_PCP_BEFORE=pcp-before.json  # pcp-counts.sh before priming
QC_PCP_PRIMED=pcp-primed.json  # pcp-counts.sh after priming
QC_PCP_AFTER=pcp-after.json    # pcp-counts.sh after the window
QC_HAMMER_JSON=hammer.json  # module.sh qc_hammer_finish: the module's stats -> summarize.sh
QC_CPU_DRAINS=cpu-drains.txt  # qc.results=console: "CPU CALLS", the measurement window's drain
                            # calls that freed pages there (tracing/guest/cpu-drains.awk) -> the console
QC_DECOY_JSON=decoy.json    # module.sh qc_decoy_finish: what the decoy sent and what ran -> tests
QC_PLANTED=selftest-planted.txt  # measure.sh qc_selftest: "KIND CPU K" lines -> analyze.sh
QC_AUDIT_TXT=audit.txt      # the audit scenario: "<trigger> <status> <what it did>" lines -> audit.sh
QC_AUDIT_LIST=audit-triggers.list  # the audit scenario: the trigger list it fired (qc.audit's) -> audit.sh
QC_STRESS_PHASES=stress-phases.txt  # the stress scenario's phases -> tests
QC_VMSTAT_PRESSURE=vmstat-pressure.txt  # the stress scenario's reclaim counters
QC_PFT=pft.jsonl            # the bench scenario: one pft run a line -> summarize.sh
QC_PFT_COST=pft-cost.jsonl  # the cost scenario: one pft run a line -> alloc-cost.sh
QC_DRAIN_HAMMER=drain-hammer.json  # the cost scenario: the counted drain's hammer stats -> alloc-cost.sh
QC_DRAIN_ZONES=drain-zones.txt     # the cost scenario: the guest's zone count -> alloc-cost.sh
QC_RTHOG_JSON=rthog.json    # the rthog scenario: guest-init/rthog.c's settings and wake-ups -> rthog.sh
QC_RTHOG_ENV=rthog-env.txt  # the rthog scenario: rcutree.kthread_prio, the RCU kthreads' priorities -> rthog.sh
QC_LOCKWATCH=lockwatch.txt  # the rthog scenario: its trace instance as text (RT lock contention,
                            # the drainer's pcp pointers, refill's preemptions) -> rthog.sh

# Written once per traced window. WINDOW is "" for the measurement window,
# "quiet" for the quiet control and "selftest" for the planted self-test:
# qc_window_file BASE WINDOW EXT gives BASE.EXT, BASE-quiet.EXT ...
qc_window_file() { echo "$1${2:+-$2}.$3"; }
QC_WINDOW_QUIET=quiet
QC_WINDOW_SELFTEST=selftest
#   trace         .dat   measure.sh qc_window (trace-stop.sh) -> analyze.sh
#   oslat         .json  oslat --json (and .txt, its output) -> summarize.sh
#   refill        .json  guest-init/refill.c (and .txt) -> summarize.sh
#   pcp-window    .json  pcp-counts.sh when the window opens -> summarize.sh
#   verify-window .txt   cpusets/verify.sh --measured in the window
# The guest's kprobe_profile (/sys/kernel/tracing/kprobe_profile: per
# probe "NAME HITS MISSED", over all CPUs), copied just before the
# "qc: window start" marker under a line "@ start" and just after
# "qc: window end" under "@ end", into one file per window
# (qc_window_file "$QC_KPROBE_PROFILE" WINDOW txt) -> analyze.sh, which
# gives it to qc-analyze --kprobe-profile (tracing/profile.c): a probe
# whose MISSED grew refuses the window; without the file (a run from
# before it), dropped probe hits are reported as not measured.
QC_KPROBE_PROFILE=kprobe-profile
# and from those traces, by scripts/analyze.sh on the host (the shape of
# each file a verdict reads: docs/schemas/, checked by scripts/check-run.sh):
QC_ANALYSIS=analysis        # .json -> summarize.sh; .txt for people
#   analysis-quiet.json     the control, charged by the window's drain calls
QC_SELFTEST_JSON=selftest.json  # planted vs counted per CPU -> summarize.sh
QC_SELFTEST_ANALYSIS=selftest-analysis  # .json, .txt: the self-test trace's analysis
QC_SELFTEST_CHARGED=selftest-charged  # .json -> summarize.sh: the planted causes as drain causes
QC_PLANTER_FUNCTION=qc_plant_write  # hammer/plant.c: what plants them, the drain of selftest-charged
QC_RTHOG_SUMMARY=rthog-summary  # .json, .txt: scripts/rthog.sh, the drain's waits and the drainer's blocking
QC_AUDIT_JSON=audit.json    # scripts/audit.sh: per trigger, its sub-window's counts -> summarize.sh

# --- the console as the way home (qc.results=console) -------------------------
# guest-init/console-results.sh prints, before "QC-EXIT:", one line per
# isolated CPU and figure, "QC-CASE: cpuN_FIGURE pass|fail VALUE UNITS" (a
# LAVA monitor's pattern: scripts/lava-job.sh), then the results tree as a
# gzipped tar in base64 between "QC-RESULTS-BEGIN SHA256 BYTES" and
# "QC-RESULTS-END" (scripts/lava-fetch.sh decodes and checks it).
QC_CASE_SAYS="QC-CASE:"
QC_BLOCK_BEGIN="QC-RESULTS-BEGIN"
QC_BLOCK_END="QC-RESULTS-END"
