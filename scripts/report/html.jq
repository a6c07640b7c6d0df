# report.html from the blocks of model.jq: one file, CSS and SVGs inline,
# no script and no link, so that it opens offline and can be mailed.
# $svg_<name>: the plots' SVG text ("" when not rendered).
include "model";

# Each gsub only on a text that holds what it replaces: jq 1.6's gsub
# costs a regex search and a reduce even where nothing matches, and a
# report has hundreds of table cells, most without code or bold.
def inline: @html
	| if contains("`") then gsub("`(?<c>[^`]+)`"; "<code>\(.c)</code>") else . end
	| if contains("**") then gsub("\\*\\*(?<b>[^*]+)\\*\\*"; "<strong>\(.b)</strong>")
	# Verdict words stand out by colour as well as by weight: any bold
	# word of capitals and dashes is a verdict's (style() colours those
	# the policy names).
		| gsub("<strong>(?<v>[a-z0-9_.-]+: )?(?<w>[A-Z][A-Z-]+)</strong>";
			"<strong class=\"v-\(.w)\">\(.v // "")\(.w)</strong>")
	  else . end;
# A standalone SVG file as an inline element: drop the XML prolog and the
# DOCTYPE (it names a DTD by URL) and the namespace URLs HTML does not need.
# xlink:href, a fixed string found a hundred times in a histogram's SVG, is
# replaced by split and join: jq 1.6's gsub slices the whole string at
# every match (a fifth of the render's jq on the fixture run).
def svg_inline: sub("^(?s).*?<svg"; "<svg") | sub("<title>Gnuplot</title>"; "")
	| gsub(" xmlns(:xlink)?=\"[^\"]*\""; "")
	| split("xlink:href") | join("href");
def svg($name): {interruptions: $svg_interruptions, oslat: $svg_oslat, refill: $svg_refill, "drain-cdf": $svg_drain_cdf,
	"alloc-cost": $svg_alloc_cost, audit: $svg_audit}[$name];
def cells($tag; $align): [., ($align | split(""))] | transpose
	| map("<\($tag) class=\"\(.[1])\">\(.[0] | tostring | inline)</\($tag)>") | join("");

def html_block:
	if .h1 then "<h1>\(.h1 | inline)</h1>"
	elif .h2 then "<h2>\(.h2 | inline)</h2>"
	elif .p then "<p>\(.p | inline)</p>"
	elif .ul then "<ul>\n" + (.ul | map("<li>\(inline)</li>") | join("\n")) + "\n</ul>"
	elif .table then .table | .align as $a
		| "<table>\n<tr>\(.head | cells("th"; $a))</tr>\n"
		+ (.rows | map("<tr>\(cells("td"; $a))</tr>") | join("\n")) + "\n</table>"
	elif .plot then "<figure>\n\(svg(.plot) | svg_inline)\n<figcaption>\(.caption | inline)</figcaption>\n</figure>"
	else empty end;

# Each verdict's colour class, from the policy's verdict table (summary.json
# records it). A summary from before the table: PASS good, FAIL bad, the
# rest warn.
def verdict_classes:
	(.policy.verdicts // [{name: "PASS", class: "good"}, {name: "FAIL", class: "bad"}]) as $t
	| ($t | map(.name)) as $named
	| ($t | map(".v-\(.name) { color: var(--\(.class)); }") | join("\n"))
	  + ([.variants[].verdict] - $named | unique | map("\n.v-\(.) { color: var(--warn); }") | join(""));
def style: "
:root { --good: #1a7f37; --bad: #c62828; --warn: #a15c00; --info: #1f5fa8; }
body { font: 15px/1.45 system-ui, sans-serif; max-width: 64rem; margin: 1.5rem auto; padding: 0 1rem; color: #222; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.2rem; margin-top: 2rem; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: .5rem 0; font-size: .9rem; }
th, td { border: 1px solid #ccc; padding: .2rem .5rem; vertical-align: top; }
th { background: #f3f3f3; } td.r, th.r { text-align: right; } td.l, th.l { text-align: left; }
code { font-size: .85em; background: #f4f4f4; padding: 0 .2em; }
figure { margin: 1rem 0; } figure svg { max-width: 100%; height: auto; }
figcaption { font-size: .9rem; color: #555; }
";

# report_html(blocks): the whole file.
def report_html($b):
  "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
+ "<title>quietcore report — \(.run.id | @html)</title>\n<style>\(style)\(verdict_classes)\n</style>\n</head>\n<body>\n"
+ ($b | map(html_block) | join("\n")) + "\n</body>\n</html>\n";
