# run-txt.jq: run.txt's "key: value" lines as the JSON text of one object
# of strings, in their order and with a key given twice kept twice, so
# that the validator (validate.jq) sees it. jq -R -r -n -f run-txt.jq FILE
[inputs | select(test("^\\s*$") | not)] | . as $l
| [range(length) as $i | $l[$i] | capture("^(?<k>[A-Za-z0-9_]+): ?(?<v>.*)$")
   // error("line \($i + 1), \($l[$i] | tojson), is not \"key: value\"")
   | "\(.k | tojson): \(.v | sub("\\s+$"; "") | tojson)"]
| "{" + join(", ") + "}"
