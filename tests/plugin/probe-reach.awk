# probe-reach.awk: in `trace-cmd report` text with the exposure probes
# (tracing/probes/<variant>.list), each qc_hammer drain_all_pages() call,
# in call order, and the number of distinct CPUs whose lists a qc:drain_cpu
# event drained between that call's entry and return (on any CPU: wq's
# work items run on the CPUs they drain). One number per call.
/^ *qc_hammer\/[0-9]+-[0-9]+ .* drain_all: / { open = 1; n = 0; split("", seen); next }
open && / drain_cpu: / {
	if (match($0, /cpu=[0-9]+/)) {
		c = substr($0, RSTART + 4, RLENGTH - 4)
		if (!(c in seen)) { seen[c] = 1; n++ }
	}
	next
}
open && /^ *qc_hammer\/[0-9]+-[0-9]+ .* drain_all_ret: / { print n; open = 0 }
