# report.md from the blocks of model.jq (GitHub-flavoured Markdown).
include "model";

def cell: tostring | gsub("\\|"; "\\|");
def row: "| " + (map(cell) | join(" | ")) + " |";
def rule($align): "|" + ($align | split("") | map(if . == "r" then "---:" else "---" end) | join("|")) + "|";

def md_block:
	if .h1 then "# " + .h1
	elif .h2 then "## " + .h2
	elif .p then .p
	elif .ul then .ul | map("- " + .) | join("\n")
	elif .table then .table | ([(.head | row), rule(.align)] + (.rows | map(row))) | join("\n")
	elif .plot then "![plot: \(.plot)](plots/\(.plot).svg)\n\n*\(.caption)*"
	else empty end;

blocks | map(md_block) | join("\n\n") + "\n"
