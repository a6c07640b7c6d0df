#!/bin/sh
# bench/: welch against reference values worked by hand (and checked with
# an independent arbitrary-precision integration of the Student t density,
# mpmath quad, 30 digits), its refusals of bad input, and pft built and run
# natively with tiny parameters.  Boots nothing.
# (dirname's answer without its process)
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/ktap.sh"
root=$(cd "$here/.." && pwd)
QC_ROOT=$root
. "$root/scripts/lib/paths.sh"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

ktap_require gcc make jq
ktap_plan 21

# field KEY JSON: a top-level scalar of welch --json / pft output, a line
# each line that has one, its last "KEY": value (up to "," or "}"), as
# sed -n 's/.*"KEY":\([^,}]*\).*/\1/p' prints them; read in the shell (a
# sed and its pipeline a field before).
field() {
	while IFS= read -r _fl; do
		case $_fl in *"\"$1\":"*) ;; *) continue ;; esac
		_fl=${_fl##*"\"$1\":"}
		printf '%s\n' "${_fl%%[,\}]*}"
	done <<EOF
$2
EOF
}
# near X Y TOL: |X - Y| <= TOL.
near() { awk -v x="$1" -v y="$2" -v e="$3" 'BEGIN { d = x - y; exit !(x != "" && d <= e && -d <= e) }'; }
# welch_near JSON T DF P SIG: what welch_is checks of welch --json, read
# as field reads it and compared as near does, in one awk (four seds and
# three awks were most of this program's processes).
# (JSON given to awk by a here-document, not a printf's process)
welch_near() {
	awk -v t="$2" -v df="$3" -v p="$4" -v sig="$5" '
		# each line'"'"'s last "KEY": value (up to "," or "}"), a line each
		{ for (k in want) { s = $0; v = ""; hit = 0
			while (match(s, "\"" k "\":[^,}]*")) {
				v = substr(s, RSTART + length(k) + 3, RLENGTH - length(k) - 3); hit = 1
				s = substr(s, RSTART + RLENGTH)
			}
			if (hit) { got[k] = (k in seen) ? got[k] "\n" v : v; seen[k] } } }
		function near(x, y, e,   d) { d = x - y; return x != "" && d <= e && -d <= e }
		BEGIN { want["t"]; want["df"]; want["p"]; want["significant"] }
		END { exit !(near(got["t"], t, 0.0001) && near(got["df"], df, 0.0001) &&
			     near(got["p"], p, 0.00001) && got["significant"] == sig) }' <<EOF
$1
EOF
}
# welch_is DESC A B T DF P SIG [OPTS]: welch --json gives t, df, p (to the
# digits quoted) and the verdict.
welch_is() {
	desc=$1 fa=$2 fb=$3 t=$4 df=$5 p=$6 sig=$7
	shift 7
	out=$("$welch" --json "$@" "$fa" "$fb" 2>&1)
	if welch_near "$out" "$t" "$df" "$p" "$sig"; then
		ktap_ok "$desc"
	else
		ktap_not_ok "$desc"
		ktap_diag "expected t=$t df=$df p=$p significant=$sig; got: $out"
	fi
}
# refused DESC PATTERN CMD...: fails with one "<tool>: error:" line.
refused() { desc=$1; shift; expect_one_error "$desc" '[a-z]*' "$@"; }
samples() { f=$scratch/$1; shift; printf '%s\n' "$@" > "$f"; }

# pft and welch kept built in the cache, made again when out of date
# (ktap_kept_build; bench/Makefile includes the plugin's): building both
# from scratch was about 1.1 CPU-s, most of this program.
ktap_check "bench/Makefile builds pft (static) and welch" \
	ktap_kept_build bench BENCH_OUT "$root/bench/Makefile $root/bench/plugin/Makefile" pft welch
welch=$KTAP_KEPT/welch pft=$KTAP_KEPT/pft

# Wikipedia's Welch's t-test examples 1 and 2 ("Welch's t-test", Examples).
# welch reports t of B against A, so the sign is the opposite of the page's.
# 1: n=15/15, means 20.82 / 22.98667, variances 7.867429 / 3.812667;
#    s²/n = 0.524495 / 0.254178, sum 0.778673, se = 0.882425;
#    t = 2.16667 / 0.882425 = 2.4554;
#    df = 0.778673² / (0.524495²/14 + 0.254178²/14)
#       = 0.606331 / (0.0196496 + 0.0046148) = 24.9885;  p = 0.021378.
samples w1a 27.5 21.0 19.0 23.6 17.0 17.9 16.9 20.1 21.9 22.6 23.1 19.6 19.0 21.7 21.4
samples w1b 27.1 22.0 20.8 23.4 23.4 23.5 25.8 22.0 24.8 20.2 21.9 22.1 22.9 20.5 24.4
welch_is "welch: Wikipedia example 1, t=2.4554 df=24.9885 p=0.02138, significant" \
	"$scratch/w1a" "$scratch/w1b" 2.455356 24.988529 0.021378 true
# 2: n=10/20, means 20.61 / 22.135, variances 9.041 / 0.898184;
#    s²/n = 0.9041 / 0.0449092, sum 0.949009, se = 0.974171;
#    t = 1.525 / 0.974171 = 1.5654;
#    df = 0.949009² / (0.9041²/9 + 0.0449092²/19)
#       = 0.900618 / (0.0908223 + 0.00010615) = 9.9047;  p = 0.14884.
samples w2a 17.2 20.9 22.6 18.1 21.7 21.4 23.5 24.2 14.7 21.8
samples w2b 21.5 22.8 21.0 23.0 21.6 23.6 22.5 20.7 23.4 21.8 20.7 21.7 21.5 22.5 23.6 21.5 22.5 23.5 21.5 21.8
welch_is "welch: Wikipedia example 2, t=1.5654 df=9.9047 p=0.1488, not significant" \
	"$scratch/w2a" "$scratch/w2b" 1.565434 9.904741 0.148842 false

# Clearly significant, pft-like: A = 100 101 99 100 102, B = A + 10.
# Deviations -0.4 0.6 -1.4 -0.4 1.6, squares sum 5.2, variance 1.3 each;
# s²/n = 0.26 each, se = sqrt(0.52) = 0.721110; t = 10 / 0.721110 = 13.8675;
# df = 0.52² / (2 * 0.26²/4) = 0.2704 / 0.0338 = 8; t_crit(8) = 2.3060
# (tables); diff = 10 / 100.4 = +9.96 %.
samples sa 100 101 99 100 102
samples sb 110 111 109 110 112
welch_is "welch: B = A + 10 is significant (t=13.8675 df=8)" \
	"$scratch/sa" "$scratch/sb" 13.867505 8 0.0000007 true
out=$("$welch" --json "$scratch/sa" "$scratch/sb")
if near "$(field t_crit "$out")" 2.306004 0.00001 && near "$(field diff_pct "$out")" 9.960159 0.00001; then
	ktap_ok "welch: t_crit(df=8) = 2.3060, B vs A = +9.96 %"
else
	ktap_not_ok "welch: t_crit(df=8) = 2.3060, B vs A = +9.96 %"; ktap_diag "$out"
fi

# Small df, where a normal-approximation or df-table shortcut goes wrong:
# A = 1 3, B = 5 7: variances 2 and 2, s²/n = 1 each, se = sqrt 2;
# t = 4 / 1.414214 = 2.8284 > 1.96, yet df = 2² / (1/1 + 1/1) = 2, and for
# df = 2 the t CDF is closed-form: p = 1 - |t| / sqrt(t² + 2)
# = 1 - 2.828427 / 3.162278 = 0.105573, t_crit = 4.3027: not significant.
samples na 1 3
samples nb 5 7
welch_is "welch: n=2 each, t=2.8284 df=2 p=0.1056 is not significant" \
	"$scratch/na" "$scratch/nb" 2.828427 2 0.105573 false

# Fractional df, where rounding df down (mmtests) flips the verdict:
# A = 1 3 5: mean 3, squares 4+0+4, variance 4, s²/n = 4/3;
# B = 7.5 9.5: mean 8.5, variance 2, s²/n = 1; se² = 7/3, se = 1.527525;
# t = 5.5 / 1.527525 = 3.6006; df = (7/3)² / ((4/3)²/2 + 1²/1)
# = (49/9) / (17/9) = 49/17 = 2.8824: t_crit(2.8824) = 3.2572, p = 0.03922,
# significant; floored to df = 2, t_crit = 4.3027, p = 0.06922, not.
samples fa 1 3 5
samples fb 7.5 9.5
welch_is "welch: fractional df 49/17 = 2.8824, t=3.6006 p=0.0392, significant" \
	"$scratch/fa" "$scratch/fb" 3.600595 2.882353 0.039216 true
welch_is "welch --mmtests floors df to 2: p=0.0692, not significant" \
	"$scratch/fa" "$scratch/fb" 3.600595 2 0.069222 false --mmtests

# Text output carries the same verdict for a human reader.
# (the pipeline in this shell, not in a sh of its own)
says_not_significant() { "$welch" "$scratch/w2a" "$scratch/w2b" | grep -q '^verdict: not significant at 95 %'; }
ktap_check "welch: text output names the verdict" says_not_significant

# Bad input.
samples one 42
refused "welch: a set of one sample is refused" "has 1 sample: a t-test needs at least 2" \
	"$welch" "$scratch/sa" "$scratch/one"
printf '1\n2\n# note\n\nabc\n' > "$scratch/bad"
refused "welch: a non-number names file and line" "bad:5: 'abc' is not a number" \
	"$welch" "$scratch/bad" "$scratch/sa"
refused "welch: a missing file is refused" "No such file" "$welch" "$scratch/none" "$scratch/sa"
refused "welch: one file only is refused" "need two sample files" "$welch" "$scratch/sa"

# Zero variance in both sets (deterministic runs, e.g. QEMU -icount): no t.
samples za 5 5 5
samples zb 6 6 6
out=$("$welch" --json "$scratch/za" "$scratch/zb" 2>&1)
# (says why: case, not a printf and a grep)
case $out in *'zero variance'*) why=yes ;; *) why=no ;; esac
if [ "$(field significant "$out")" = null ] && [ "$(field t "$out")" = null ] && [ $why = yes ]; then
	ktap_ok "welch: zero variance in both sets gives no verdict, says why"
else
	ktap_not_ok "welch: zero variance in both sets gives no verdict, says why"; ktap_diag "$out"
fi

# pft, natively: 2 threads x 1 MiB x 2 rounds.
pages=$((1048576 / $(getconf PAGESIZE)))
out=$("$pft" -t 2 -m 1 -r 2 2>&1)
ktap_diag "$out"
if [ "$(field faults "$out")" = $((2 * pages * 2)) ] &&
   awk -v x="$(field faults_per_sec "$out")" 'BEGIN { exit !(x > 0) }'; then
	ktap_ok "pft: faults = threads * pages * rounds and faults_per_sec > 0"
else
	ktap_not_ok "pft: faults = threads * pages * rounds and faults_per_sec > 0"
fi
# The kernel's own count agrees: at least one minor fault per page touched
# (the rest are the threads' stacks and the like).
ktap_check "pft: the kernel counted at least that many minor faults" \
	test "$(field minflt "$out")" -ge $((2 * pages * 2))
ktap_check "pft: --runs 3 prints three JSON lines" \
	test "$("$pft" -t 1 -m 1 -r 1 -n 3 | grep -c '^{"run":[123],')" -eq 3
out=$("$pft" -a 0 -t 2 -m 1 -r 1)
ktap_check "pft: -a 0 -t 2 pins both threads to CPU 0" \
	test "$(printf '%s\n' "$out" | sed -n 's/.*"cpus":\[\([^]]*\)\].*/\1/p')" = 0,0
# Workers as processes (an mm each) that start each round together: the
# same faults, counted by the kernel for the reaped children.
out=$("$pft" -P -S -t 2 -m 1 -r 3 2>&1)
ktap_diag "$out"
ktap_check "pft: --processes --sync-rounds: faults = threads * pages * rounds, said in the line" \
	test "$(field faults "$out") $(field processes "$out") $(field sync_rounds "$out")" = "$((2 * pages * 3)) true true"
ktap_check "pft: --processes: the kernel counted at least that many minor faults in the workers" \
	test "$(field minflt "$out")" -ge $((2 * pages * 3))
refused "pft: a zero thread count is refused" "--threads '0' is not a whole number" "$pft" -t 0

ktap_finish
