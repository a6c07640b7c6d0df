# report.md from the blocks of model.jq (GitHub-flavoured Markdown). No
# line is over 200 characters: prose is wrapped at 100 columns (Markdown
# joins the lines again), and a table whose rows would be wider than 200
# becomes a list of its rows here (report.html keeps the table).
include "model";

# (gsub only where there is a "|": jq 1.6's gsub costs even where nothing
# matches, and a table has hundreds of cells.)
def cell: tostring | if contains("|") then gsub("\\|"; "\\|") else . end;
def row: "| " + (map(cell) | join(" | ")) + " |";
def rule($align): "|" + ($align | split("") | map(if . == "r" then "---:" else "---" end) | join("|")) + "|";

# A word that would open a block if it began a line (a list item, a quote,
# a heading, a table row, an HTML block, a setext underline) stays on the
# line before.
def opens_block: test("^([-+*=_]+|#{1,6}|[0-9]+[.)])$") or test("^([>|]|<[A-Za-z/!?]|```|~~~)");
# wrap($indent): the text in lines of at most 100 columns where its words
# allow, each line after the first led by $indent. (Each step builds its
# state anew: jq 1.6's .cur += ... and .cur = ... walk paths, a quarter of
# report.md's cost for a few thousand words.)
def wrap($indent):
	reduce (split(" ")[]) as $w ({lines: [], cur: null};
		if .cur == null then {lines, cur: $w}
		elif (.cur | length) + 1 + ($w | length) > 100 and ($w | opens_block | not) and $w != ""
		then {lines: (.lines + [.cur]), cur: ($indent + $w)}
		else {lines, cur: (.cur + " " + $w)} end)
	| .lines + [.cur // ""] | join("\n");
def paragraphs: split("\n") | map(wrap("")) | join("\n");
def item: "- " + wrap("  ");

def md_table:
	([(.head | row), rule(.align)] + (.rows | map(row))) as $lines
	| if all($lines[]; length <= 200) then $lines | join("\n")
	  else .head as $h | .rows | map([$h, .] | transpose | map("\(.[0]): \(.[1])") | join("; ") | item)
		| join("\n") end;

def md_block:
	if .h1 then "# " + .h1
	elif .h2 then "## " + .h2
	elif .p then .p | paragraphs
	elif .ul then .ul | map(item) | join("\n")
	elif .table then .table | md_table
	elif .plot then "![plot: \(.plot)](plots/\(.plot).svg)\n\n" + ("*\(.caption)*" | paragraphs)
	else empty end;

# report_md(blocks): the whole file.
def report_md($b): $b | map(md_block) | join("\n\n") + "\n";
