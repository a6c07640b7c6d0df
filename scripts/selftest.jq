# The self-test's links per isolated CPU, each stated once: analyze.sh
# judges selftest.json's pass by them, check-run.jq checks that pass
# against them. Each reads one CPU's entry of selftest.json's cpus.
#
# Counted: every planted interruption of a named kind counted.
def counted_ok: .planted == .counted;
# Sender-less: the bare reschedule vectors (hammer/plant.c) counted
# without a sender, at least one of them; where the planter's probe says
# when each went (sent, merged), every planted one sent and each either
# unknown or merged with a real reschedule IPI pending at the same time,
# so that an unknown vector that was no bare one's breaks the sum.
def senderless_ok:
  .senderless == null
  or (.senderless | (.unknown // 0) > 0 and (.sent == null or .sent == .planted)
      and .planted == .unknown + (.merged // 0));
# Deferred: every planted delayed work item traced back to the planter
# through its timer's arming.
def deferred_ok: .deferred == null or .deferred.planted == .deferred.drain;
# Through an irq_work: every IPI the planter's irq_work sent, from its
# CPU's hardirq, counted, and unknown: who queued an irq_work is not
# traced, so its handler's send must refuse a PASS, not pass as nobody's.
def irq_work_ok: .irq_work == null
  or (.irq_work | .counted == .planted and .unknown == .planted);
# Names by symbol: every IPI sent by a function named as a compiler's
# clone of the planter's (qc_plant_write.part.0) traced back to the
# planter, the clone matched by its base name.
def clone_ok: .clone == null or .clone.planted == .clone.drain;
def selftest_cpu_ok: counted_ok and senderless_ok and deferred_ok and irq_work_ok and clone_ok;
