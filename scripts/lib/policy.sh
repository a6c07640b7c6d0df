# policy.sh: the verdict policy (QC_VERDICT_POLICY overrides it) and the
# drain-cause list it names (QC_DRAIN_CAUSES overrides that): the analyzer
# charges by the one summarize.sh judges by.
# Needs paths.sh and log.sh.
# shellcheck shell=sh

QC_POLICY=${QC_VERDICT_POLICY:-$QC_ROOT/tracing/verdict-policy.json}
# qc_drain_causes_file [NAME]: the list's path; NAME, the policy's
# drain_causes_file when the caller has read the policy already (no jq).
qc_drain_causes_file() {
	if [ -n "${QC_DRAIN_CAUSES:-}" ]; then echo "$QC_DRAIN_CAUSES"; return; fi
	if [ $# -gt 0 ]; then _dc=$1; else _dc=$(jq -r '.drain_causes_file // empty' "$QC_POLICY" 2>/dev/null) || _dc=; fi
	[ -n "$_dc" ] ||
		die "the verdict policy $QC_POLICY is missing or names no drain_causes_file: restore it (git checkout tracing/verdict-policy.json)"
	echo "$QC_ROOT/$_dc"
}

# The drain's own functions (the policy's drain_functions), comma-separated
# as qc-analyze --drain-functions takes them.
qc_drain_functions() {
	jq -er '.drain_functions | join(",")' "$QC_POLICY" 2>/dev/null ||
		die "the verdict policy $QC_POLICY names no drain_functions: restore it (git checkout tracing/verdict-policy.json)"
}
