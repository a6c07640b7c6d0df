#!/bin/sh
# report.html as a browser shows it: headless Chromium (Debian's chromium,
# which make setup installs) renders the fixture run's report, takes a
# screenshot and dumps the DOM after a small script of ours, added to a
# copy of the page, has read what the browser computed: the first section
# is the answer table, every verdict word is in its verdict's colour (the
# verdict table, tracing/verdict-policy.json: name and colour class), and
# every SVG plot is there with a size on the page. Skips (KSFT_SKIP)
# where chromium is not installed. Boots nothing.
. "$(dirname "$0")/ktap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
run=$scratch/run

ktap_require jq gnuplot chromium
ktap_plan 9

cp -r "$root/tests/fixtures/run" "$run"
rm -f "$run/report.md" "$run/report.html"
ktap_check "report.sh renders the fixture run" sh -c "'$root/scripts/report.sh' '$run' >/dev/null 2>'$scratch/err'"

# chromium ARGS...: headless, sandboxless (root), nothing fetched or kept.
chromium_headless() {
	chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run \
		--user-data-dir="$(mktemp -d "$scratch/profile.XXXXXX")" "$@" 2>>"$scratch/chromium.log"
}
# A PNG screenshot of the page, of a size only a drawn page has.
screenshot() {
	chromium_headless --window-size=1280,4000 --screenshot="$scratch/report.png" "file://$run/report.html" >/dev/null &&
		[ "$(head -c 8 "$scratch/report.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
		[ "$(wc -c < "$scratch/report.png")" -gt 20000 ]
}
ktap_check "chromium renders report.html to a screenshot" screenshot

# The probe: what the browser computed, written into the page as lines
# "KEY VALUE..." in <pre id="qc-probe">, read back from the dumped DOM.
# Verdict words: every <strong> whose text ends in a verdict's name; its
# colour must be the one its verdict's class stands for (--good, --bad,
# --warn, --info on :root) and not the text's.
verdicts=$(jq -c '[.verdicts[] | {name, class}]' "$root/tracing/verdict-policy.json")
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
chromium_headless --virtual-time-budget=5000 --dump-dom "file://$scratch/probed.html" > "$scratch/dom.html"
probe() { sed -n '/<pre id="qc-probe">/,/<\/pre>/p' "$scratch/dom.html" | sed 's/<[^>]*>//g' | sed -n "s/^$1 //p"; }
ktap_check "chromium ran the probe on the rendered page" test -n "$(probe first-h2)"

ktap_check "the first section is the answer" test "$(probe first-h2)" = Answer
ktap_check "... and its first block is the answer table, the page's first table" sh -c \
	"test '$(probe after-first-h2)' = TABLE && test '$(probe first-table-head)' = 'variant|verdict|decided by|exposure|quiet control|old rule by time'"
ktap_check "... one row per variant, with its verdict" \
	test "$(probe answer-rows)" = "$(jq -r '[.variants | to_entries[] | "\(.key)=\(.value.verdict)"] | join(" ")' "$run/summary.json")"
ktap_check "every verdict word on the page is in its verdict's colour" \
	sh -c "test '$(probe uncoloured)' = none && test '$(probe verdict-words)' -ge 20"
ktap_check "... and the verdict table's four colour classes are four colours" test "$(probe distinct)" = 4
ktap_check "every SVG plot is on the page with a size and its lines" \
	test "$(probe svgs)" = "4 shown 4"
[ -z "$(probe first-h2)" ] && ktap_diag "$(tail -n 5 "$scratch/chromium.log")"
ktap_finish
