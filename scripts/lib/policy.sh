# policy.sh: the verdict policy (QC_VERDICT_POLICY overrides it): the
# analyzer traces by the drain functions summarize.sh judges by.
# Needs paths.sh and log.sh.
# shellcheck shell=sh

QC_POLICY=${QC_VERDICT_POLICY:-$QC_ROOT/tracing/verdict-policy.json}
# The drain's own functions (the policy's drain_functions), comma-separated
# as qc-analyze --drain-functions takes them.
qc_drain_functions() {
	jq -er '.drain_functions | join(",")' "$QC_POLICY" 2>/dev/null ||
		die "the verdict policy $QC_POLICY names no drain_functions: restore it (git checkout tracing/verdict-policy.json)"
}
