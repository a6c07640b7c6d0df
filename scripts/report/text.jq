# The answer table of model.jq as plain text: the last lines report.sh
# prints, so the last lines of `make compare` and `make report` too. The
# same rows as the report's first section; the evidence is in report.md.
include "model";

def plain: tostring | gsub("\\*\\*"; "") | gsub("`"; "");
# (jq 1.6: a string times 0 is null.)
def spaces($n): if $n > 0 then " " * $n else "" end;

# answer_text: its lines, the heading first.
def answer_text:
	  answer_table as $t
	| ([$t.head] + $t.rows | map(map(plain))) as $lines
	| [range(0; $t.head | length) as $i | [$lines[][$i] | length] | max] as $w
	| ($t.align | split("")) as $a
	| "answer (run \(.run.id); the evidence is in its report.md):",
	  ($lines[] | [to_entries[] | .key as $i | .value
		| if $a[$i] == "r" then spaces($w[$i] - length) + . else . + spaces($w[$i] - length) end]
		| join("  ") | sub(" +$"; ""));
