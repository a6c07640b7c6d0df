# quietcore: thin entry points; the work is in scripts/ (see README.md).
# `make setup` as root once; everything else as an ordinary user.

VARIANT  ?= spinlock
# empty: the variants patches/series marks "default"
VARIANTS ?=
SCENARIO ?= hammer
DURATION ?= 20
ISOLATED ?= 1-3
REFILL   ?= auto
RATE     ?=
# extra kernel parameters for the measured guests, e.g.
# KERNEL_ARGS=rcutree.kthread_prio=20 (scenario rthog: RCU boosting above the hog)
KERNEL_ARGS ?=
# auto: measure the guests' slowdown against hardware first, then scale
# RCU's forcing intervals by it (scripts/time-scale.sh); empty: no scaling
TIME_SCALE ?=
RUN      ?=
REANALYZE ?=
NOTE     ?=
TRACES   ?=

STRESS_SECONDS ?= 300
# make lava-job: the lab's device (qemu or x86-board), the kernel's and the
# initramfs's URLs ("" = this machine's build, by file://), the job file
DEVICE   ?= qemu
URLS     ?=
OUT      ?=

.PHONY: all setup build run compare audit report keep stress lava-job test test-fast clean help

all: help

help:
	@echo "make setup                      install Debian packages (root, once)"
	@echo "make test                       fast checks + end-to-end guest boot (KTAP)"
	@echo "make test-fast                  the checks that boot nothing"
	@echo "make compare [VARIANTS=...] [SCENARIO=...] [DURATION=s] [ISOLATED=1-3] [REFILL=auto|none|2-3] [RATE=drains/s]"
	@echo "             [KERNEL_ARGS=\"rcutree.kthread_prio=20 ...\"]  (also make run)"
	@echo "             [TIME_SCALE=auto]  RCU's forcing intervals scaled by the guests' measured slowdown"
	@echo "make audit [VARIANTS=...]       which housekeeping operations interrupt an isolated CPU"
	@echo "                                (= make compare SCENARIO=audit)"
	@echo "make report RUN=results/<run-id> [REANALYZE=1]  re-render a run's report (REANALYZE=1: re-analyse a copy)"
	@echo "make keep RUN=results/<run-id> NOTE=\"what it shows\" [TRACES=1]"
	@echo "                                make a run a reference run, tracked by git (new runs are ignored)"
	@echo "make build VARIANT=wq           build one variant's guest kernel"
	@echo "make run VARIANT=wq [SCENARIO=...] [DURATION=s]"
	@echo "make stress [STRESS_SECONDS=300] [VARIANTS=...] [RATE=...]  debug builds under the drain stress"
	@echo "make lava-job VARIANT=wq [SCENARIO=hammer] [DEVICE=qemu|x86-board] [URLS=\"KERNEL INITRAMFS\"] [OUT=job.yaml]"
	@echo "                                a LAVA job for a lab (docs/lava.md); scripts/lava-fetch.sh LOG brings its results home"
	@echo "make clean                      remove build outputs in the cache"

setup:
	@scripts/setup.sh

build:
	@scripts/build.sh $(VARIANT)

run:
	@scripts/run.sh -V "$(VARIANT)" -s "$(SCENARIO)" -d "$(DURATION)" -c "$(ISOLATED)" --refill "$(REFILL)" \
		$(if $(RATE),--rate "$(RATE)") $(foreach a,$(KERNEL_ARGS),--kernel-arg "$(a)")

compare:
	@scripts/compare.sh $(if $(VARIANTS),--variants "$(VARIANTS)") --scenario "$(SCENARIO)" \
		--duration "$(DURATION)" --isolated "$(ISOLATED)" --refill "$(REFILL)" $(if $(RATE),--rate "$(RATE)") \
		$(foreach a,$(KERNEL_ARGS),--kernel-arg "$(a)") $(if $(TIME_SCALE),--time-scale "$(TIME_SCALE)")

# The isolation audit: the compare job with the audit scenario.
audit:
	@$(MAKE) --no-print-directory compare SCENARIO=audit

# A run's report from its summary.json; nothing else of the run changes.
# REANALYZE=1: analyse, judge and report a copy, in a new directory.
report:
	@test -n "$(RUN)" || { echo "quietcore: error: which run? make report RUN=results/<run-id>" >&2; exit 1; }
	@$(if $(REANALYZE),scripts/reanalyze.sh,scripts/report.sh) $(RUN)

# A run becomes a reference run, the only kind git tracks (results/README.md).
# NOTE reaches the script through the environment, so that a note may hold
# quotes ("$(NOTE)" in the recipe would end at its first one).
keep: export QC_KEEP_NOTE = $(NOTE)
keep:
	@test -n "$(RUN)" || { echo "quietcore: error: which run? make keep RUN=results/<run-id> NOTE=\"what it shows\"" >&2; exit 1; }
	@scripts/keep.sh $(if $(TRACES),--traces) "$(RUN)" "$$QC_KEEP_NOTE"

stress:
	@scripts/stress.sh --duration "$(STRESS_SECONDS)" $(if $(VARIANTS),--variants "$(VARIANTS)") $(if $(RATE),--rate "$(RATE)")

# A LAVA v2 job for one variant (docs/lava.md); prints the job file's path.
lava-job:
	@scripts/lava-job.sh --variant "$(VARIANT)" --scenario "$(SCENARIO)" --device "$(DEVICE)" \
		--duration "$(DURATION)" --isolated "$(ISOLATED)" $(if $(RATE),--rate "$(RATE)") \
		$(if $(URLS),--urls "$(URLS)") $(if $(OUT),--out "$(OUT)") $(foreach a,$(KERNEL_ARGS),--kernel-arg "$(a)")

test:
	@tests/run.sh

test-fast:
	@tests/run.sh --fast

clean:
	@scripts/clean.sh
