# check-boots.awk: the static half of "the suite's order does not matter"
# (tests/ci-builds.list, ktap_build_boots in ktap.sh). Reads one test
# program (continuation lines joined) and prints one line per problem:
#   - a fast program boots a guest outside an expected refusal;
#   - a slow program has no "# qc-test: boots" line, declares a build that
#     is not a CI build, boots before ktap_build_boots, boots without
#     --no-build (it would build behind the suite's back), boots without
#     naming its variants (a script's default may change), names a build
#     it did not declare, or boots over qc_variants (every variant of
#     patches/series: each new one would become a CI build).
# Usage: awk -v ci="spinlock wq ..." -f check-boots.awk tests/test-x.sh
function problem(msg) { printf "%s:%d: %s\n", FILENAME, start, msg; bad = 1 }
function declared_has(b) { return (" " boots " ") ~ (" " b " ") }
function check_name(name, debug) {
	if (name ~ /\$/) return	# a variable: from ktap_boots (qc_variants is refused)
	if (debug) name = name "-debug"
	if (!declared_has(name)) problem("boots " name ", which its '# qc-test: boots' line does not declare")
}
# file_end: the checks of a whole program.
function file_end() {
	if (slow && boots == "") { start = 1; problem("is slow but has no '# qc-test: boots' line") }
}
BEGIN { split(ci, c); for (i in c) is_ci[c[i]] = 1 }
FNR == 1 { if (NR > 1) { f = FILENAME; FILENAME = prev; file_end(); FILENAME = f } slow = built = 0; boots = line = ""; prev = FILENAME }
/^# qc-test: slow/ { slow = 1 }
/^# qc-test: boots / { boots = substr($0, 18); for (i = 4; i <= NF; i++) if (!($i in is_ci)) {
	start = FNR; problem("declares " $i ", which is not a CI build (tests/ci-builds.list)") } }
{
	if (line == "") start = FNR
	line = line $0
	if (line ~ /\\$/) { sub(/\\$/, " ", line); next }
	l = line; line = ""
	if (l ~ /^[ \t]*#/) next
	if (l ~ /ktap_build_boots/ && l !~ /^[ \t]*ktap_build_boots[ \t]*\(\)/) built = 1
	if (l ~ /qc_variants/) problem("uses qc_variants: boot the builds declared on its '# qc-test: boots' line (ktap_boots)")
	boot = l ~ /scripts\/(run|compare|stress)\.sh/ || l ~ /^[ \t]*ktap_guest[ \t]/
	if (!boot) next
	if (!slow) {
		if (l !~ /^[ \t]*(expect_error|expect_one_error)[ \t]/)
			problem("boots a guest but is not '# qc-test: slow'")
		next
	}
	definition = l ~ /^[ \t]*[a-z_]+\(\)[ \t]*\{/
	if (!definition && !built) problem("boots before ktap_build_boots has built what it boots")
	if (l !~ /--no-build/) problem("boots without --no-build: it would build behind the suite")
	debug = l ~ /--debug/ || l ~ /stress\.sh/	# stress boots debug builds
	named = 0
	n = split(l, w, /[ \t]+/)
	for (i = 1; i < n; i++) {
		v = w[i + 1]; gsub(/"/, "", v)
		if (w[i] == "-V" || w[i] == "--variant") { named = 1; check_name(v, debug) }
		if (w[i] == "--variants") {
			named = 1
			# a quoted list: its words up to the closing quote
			for (j = i + 1; j <= n; j++) { v = w[j]; q = v ~ /.+"$/ || (j == i + 1 && v !~ /^"/); gsub(/"/, "", v); if (v != "") check_name(v, debug); if (q) break }
		}
	}
	if (!named) problem("boots without naming its variants (-V or --variants)")
}
END { FILENAME = prev; file_end(); exit bad }
