# run-txt.awk: run.txt's "key: value" lines as the JSON text of one object
# of strings, in their order and with a key given twice kept twice, so
# that the validator (validate.jq) sees it; a line that is not "key:
# value" gives the string "line N is not key: value" instead, which no
# schema of an object accepts. awk -f run-txt.awk FILE
function str(s) {
	gsub(/\\/, "&&", s); gsub(/"/, "\\\"", s); gsub(/\t/, "\\t", s); gsub(/\r/, "\\r", s)
	return "\"" s "\""
}
/^[[:space:]]*$/ { next }
bad == "" && !/^[A-Za-z0-9_]+: ?/ { bad = "line " NR " is not 'key: value'" }
{
	k = $0; sub(/:.*/, "", k)
	v = $0; sub(/^[A-Za-z0-9_]+: ?/, "", v); sub(/[[:space:]]+$/, "", v)
	out = out sep str(k) ": " str(v); sep = ", "
}
END { print (bad != "" ? str(bad) : "{" out "}") }
