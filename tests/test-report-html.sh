#!/bin/sh
# report.html as a browser shows it: headless Chromium (Debian's chromium,
# which make setup installs) renders the fixture run's report with a small
# script of ours added at its end (a copy of the page), and, in one start
# of the browser, takes a screenshot and dumps the DOM after the script
# has read what the browser computed: the first section is the answer
# table, every verdict word is in its verdict's colour (the verdict table,
# tracing/verdict-policy.json: name and colour class), and every SVG plot
# is there with a size on the page. Skips (KSFT_SKIP) where chromium is
# not installed. Boots nothing.
. "$(dirname "$0")/ktap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/scripts/lib/paths.sh"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
run=$scratch/run

ktap_require jq gnuplot chromium
ktap_plan 9

cp -r "$root/tests/fixtures/run" "$run"
rm -f "$run/report.md" "$run/report.html"
render() { "$root/scripts/report.sh" "$run" >/dev/null 2>"$scratch/err"; }
ktap_check "report.sh renders the fixture run" render

# What the page must show, from the files it is made from, in one jq: the
# verdict table (name and colour class) and the answer's rows.
{ read -r verdicts; read -r answer_rows; } <<EOF
$(jq -rn --slurpfile p "$root/tracing/verdict-policy.json" --slurpfile s "$run/summary.json" \
	'($p[0] | [.verdicts[] | {name, class}] | tojson),
	 ([$s[0].variants | to_entries[] | "\(.key)=\(.value.verdict)"] | join(" "))')
EOF

# The browser itself: Debian's /usr/bin/chromium is a shell script that
# reads /etc/chromium.d (a findmnt, an ls, expr and grep a dozen times)
# and adds a desktop's flags (extensions, GPU rasterization) before it
# execs /usr/lib/chromium/chromium, which is started directly where it is.
browser=/usr/lib/chromium/chromium
[ -x "$browser" ] || browser=chromium
# chromium ARGS...: headless, sandboxless (root), nothing fetched or kept
# (its profile and its crash reporter's database in the scratch
# directory), and as lean as the checks allow: one process
# (--single-process --no-zygote: no zygote, GPU, network, storage or
# renderer process, each another start of the 250 MB browser), no
# extensions, no software GPU (--disable-software-rasterizer: with
# --disable-gpu alone chromium still loads SwiftShader, Vulkan in
# software, 2,500 of its 47,000 page faults, for the same screenshot to
# the byte), an 800x600 window (a 1280x4000 one costs a second of CPU
# more, drawing and PNG-encoding pixels the checks do not read). A
# browser that hangs (single-process is chromium's least travelled mode)
# is stopped after two minutes: the checks then fail, the suite goes on.
chromium_flags="--headless --no-sandbox --disable-gpu --disable-software-rasterizer
	--single-process --no-zygote
	--disable-extensions --disable-background-networking --disable-component-update --disable-sync
	--no-first-run --window-size=800,600"
chromium_headless() {
	# shellcheck disable=SC2086 # the flags are words
	XDG_CONFIG_HOME=$scratch/config timeout 120 "$browser" $chromium_flags \
		--user-data-dir="$scratch/profile" "$@" 2>>"$scratch/chromium.log"
}

# The probe: what the browser computed, written into the page as lines
# "KEY VALUE..." in <pre id="qc-probe">, read back from the dumped DOM.
# Verdict words: every <strong> whose text ends in a verdict's name; its
# colour must be the one its verdict's class stands for (--good, --bad,
# --warn, --info on :root) and not the text's.
cat > "$scratch/probe.js" <<EOF
<script>
(function () {
	var table = $verdicts, out = [], root = getComputedStyle(document.documentElement);
	var body = getComputedStyle(document.body).color;
	var h2 = document.querySelector("h2"), next = h2 && h2.nextElementSibling;
	out.push("first-h2 " + (h2 ? h2.textContent : "none"));
	out.push("after-first-h2 " + (next ? next.tagName : "none"));
	var table1 = document.querySelector("table");
	out.push("first-table-head " + (table1 ? Array.prototype.map.call(
		table1.rows[0].cells, function (c) { return c.textContent; }).join("|") : "none"));
	out.push("answer-rows " + (next && next.rows ? Array.prototype.slice.call(next.rows, 1).map(function (r) {
		return r.cells[0].textContent + "=" + r.cells[1].textContent; }).join(" ") : "none"));
	// A probe element in each class's colour: the browser resolves the
	// variable to the colour it paints.
	var want = {};
	table.forEach(function (v) {
		var p = document.createElement("span");
		p.style.color = "var(--" + v.class + ")";
		document.body.appendChild(p);
		want[v.name] = getComputedStyle(p).color;
		p.remove();
	});
	var words = 0, bad = [];
	Array.prototype.forEach.call(document.querySelectorAll("strong"), function (s) {
		var t = s.textContent.trim(), v = table.filter(function (x) {
			return t === x.name || t.slice(-(x.name.length + 2)) === ": " + x.name; });
		if (v.length === 0) return;
		words++;
		var c = getComputedStyle(s).color;
		if (c !== want[v[0].name] || c === body) bad.push(t + ":" + c);
	});
	out.push("verdict-words " + words);
	out.push("uncoloured " + (bad.length ? bad.join(",") : "none"));
	out.push("distinct " + Object.keys(want).map(function (k) { return want[k]; })
		.filter(function (c, i, a) { return a.indexOf(c) === i; }).length);
	var svgs = document.querySelectorAll("figure svg"), shown = 0;
	Array.prototype.forEach.call(svgs, function (s) {
		var r = s.getBoundingClientRect();
		if (r.width > 100 && r.height > 100 && s.querySelectorAll("path, polyline, rect").length > 0) shown++;
	});
	out.push("svgs " + svgs.length + " shown " + shown);
	var pre = document.createElement("pre");
	pre.id = "qc-probe";
	pre.textContent = out.join("\n");
	document.body.appendChild(pre);
})();
</script>
EOF
awk -v probe="$scratch/probe.js" '/^<\/body>$/ { while ((getline l < probe) > 0) print l } { print }' \
	"$run/report.html" > "$scratch/probed.html"
# One start of the browser for both the screenshot and the DOM: the probe
# runs as the page is parsed, and --dump-dom prints the DOM once the page
# has loaded. The screenshot is of the report with the probe's script at
# its end: the probe's <pre> lands at the page's foot, below the pixels shot.
render_page() { chromium_headless --screenshot="$PWD/report.png" --dump-dom "file://$scratch/probed.html"; }
# The browser's start is ~2.4 s of CPU, most of this program's, and what
# it makes of a page is the same while the page and the browser are: its
# screenshot and DOM are kept (ktap_kept), keyed on the page (with the
# probe), the flags, and the browser's build: its binary's and the
# package database's inode, size and times (its libraries and the fonts
# it draws with come in packages). A report that renders differently is
# a different page: the browser renders it.
browser_build=$(ls -lLi --time-style=+%s.%N "$browser" /var/lib/dpkg/status 2>&1)
ktap_kept chromium "$(printf '%s\n' "$chromium_flags" "$browser_build" | cat - "$scratch/probed.html" | cksum)" render_page
[ "$KTAP_KEPT_MADE" = yes ] || ktap_diag "chromium's screenshot and DOM of this very page, kept from an earlier run: $KTAP_KEPT"
shot=$KTAP_KEPT/report.png dom=$KTAP_KEPT/stdout
# A PNG screenshot of the page, of a size only a drawn page has (the
# report's first 800x600 pixels: 75 KB; a blank page's: under 3 KB).
screenshot() {
	[ "$(head -c 8 "$shot" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
		[ "$(wc -c < "$shot")" -gt 20000 ]
}
ktap_check "chromium renders report.html to a screenshot" screenshot

# probe KEY: its value, from the probe's lines (one sed for them all; the
# lookups are the shell's own).
sed -n '/<pre id="qc-probe">/,/<\/pre>/{s/<[^>]*>//g;p;}' "$dom" > "$scratch/probe.txt"
probe() {
	while IFS= read -r _l; do
		case $_l in "$1 "*) printf '%s\n' "${_l#"$1 "}" ;; esac
	done < "$scratch/probe.txt"
}
ktap_check "chromium ran the probe on the rendered page" test -n "$(probe first-h2)"

ktap_check "the first section is the answer" test "$(probe first-h2)" = Answer
answer_table_first() {
	test "$(probe after-first-h2)" = TABLE &&
		test "$(probe first-table-head)" = 'variant|verdict|decided by|exposure|quiet control'
}
ktap_check "... and its first block is the answer table, the page's first table" answer_table_first
ktap_check "... one row per variant, with its verdict" test "$(probe answer-rows)" = "$answer_rows"
coloured() { test "$(probe uncoloured)" = none && test "$(probe verdict-words)" -ge 20; }
ktap_check "every verdict word on the page is in its verdict's colour" coloured
ktap_check "... and the verdict table's four colour classes are four colours" test "$(probe distinct)" = 4
ktap_check "every SVG plot is on the page with a size and its lines" \
	test "$(probe svgs)" = "4 shown 4"
if [ -z "$(probe first-h2)" ]; then
	if [ "$KTAP_KEPT_MADE" = yes ]; then ktap_diag "$(tail -n 5 "$scratch/chromium.log")"
	else ktap_diag "(kept from an earlier run: rm -rf $KTAP_KEPT to render it again)"; fi
fi
ktap_finish
