# validate.jq: the one validator, a jq module: a JSON document against
# one schema of docs/schemas/ (the format: the README.md there), and its
# text, read as the events of jq --stream, for duplicate keys, which a
# parsed object would silently have resolved to its last copy. Used by
# scripts/validate.sh (one file) and scripts/check-run.sh (every file of
# a run at once), each reading the text both ways in one jq. (Not one
# pass: rebuilding a document from its events is quadratic in jq 1.6,
# minutes for a stress run's hammer.json.)

# Where a value sits, as jq would address it: .cpus["2"].charged.
def where($p): if $p == [] then "the top level" else
	$p | map(if type == "number" then "[\(.)]"
	         elif test("^[A-Za-z_][A-Za-z0-9_]*$") then ".\(.)" else "[\(tojson)]" end) | join("") end;
# A number's kind: NaN and infinities are numbers to jq 1.6, never to us.
def kind: if type == "number" then
		(if isnan then "NaN" elif isinfinite then "infinite" elif . == floor then "integer" else "number" end)
	else type end;
def shown: if type == "number" and (isnan or isinfinite) then kind
	else tojson | if length > 40 then .[:37] + "..." else . end end;
# is($t): whether . is of the schema's type $t, as kind names it (NaN
# is not == its floor; the infinities are).
def is($t): if $t == "integer" then type == "number" and . == floor and (isinfinite | not)
	elif $t == "number" then type == "number" and (isnan or isinfinite | not)
	else type == $t end;

# duplicate(events): the first duplicate key in a stream of events, as a
# path, or null. A path is finished once its value is (a leaf) or its
# container has closed (a one-element closing event names the last key
# inside it); any later event under a finished path is a second copy of
# a key. A top-level value's end starts afresh (several documents in one
# stream). Array elements cannot repeat, so they are not remembered; the
# state is never bound to a variable, which would make jq copy it at
# every event.
def duplicate(events):
	first(foreach (events, null) as $e ({done: {}, dup: null, run: null};
		if $e == null or .dup != null then .
		elif ($e | length) == 2 then
			$e[0] as $p
			# The next element of the array the last event was in: the
			# same prefixes, already checked (a stress run's 30,000 samples).
			| if ($p[-1] | type) == "number" and .run == $p[:-1] then .
			  else
				(first(range(1; ($p | length) + 1) as $n | select(.done[$p[:$n] | tojson]) | $n) // null) as $n
				| if $n != null then .dup = $p[:$n]
				  elif ($p[-1] | type) == "number" then .run = $p[:-1]
				  else .done[$p | tojson] = true | .run = null end
			  end
		elif ($e[0] | length) == 1 then .done = {} | .run = null
		else .done[$e[0][:-1] | tojson] = true | .run = null end;
		select($e == null or .dup != null) | .dup));
def duplicate_text($dup): "\(where($dup[:-1])) has the key \($dup[-1] | tojson) twice";

# has_duplicate(events; $docs): whether the text whose parser events
# these are (jq --stream), and whose parsed values are $docs, holds a key
# twice. The parser gives one event for each leaf of the text (a scalar
# or an empty container) and one closing each other container: one per
# value of the text. A parsed object keeps one copy of a repeated key,
# dropping the others' values: the text has more events than $docs have
# values (..) exactly when a key repeats. Counting is a few ms where
# duplicate() walks every event (~90 ms for a run's files), so it is
# asked only where a key repeats, to name it.
def has_duplicate(events; $docs):
	reduce events as $e (0; . + 1) != ([$docs[] | ..] | length);

# A plain schema: one type and at most a range (an array's samples, an
# object's counts), its values checked by a cheap test first, the full
# one only for a value that fails it (errors() finds nothing else wrong
# with a value that passes).
def plain: (keys - ["type", "minimum", "maximum"]) == [] and (.type | type) == "string";
def fails_plain($it): (is($it.type) | not) or ($it.minimum != null and . < $it.minimum) or ($it.maximum != null and . > $it.maximum);

# at($p; $what): a problem of the value at path $p, "<where> <what>";
# is_not($p; $why): one of ., that value, "<where> is <value>, <why>".
def at($p; $what): "\(where($p)) \($what)";
def is_not($p; $why): at($p; "is \(shown), \($why)");

# validate($docs; $schema): "ok" or the first problem of a file whose
# JSON values are $docs, "<where>: <what>", one line.
def validate($docs; $schema):
	($schema.definitions // {}) as $defs
	# errors($s; p): the problems of . under schema $s at path p (a
	# filter, evaluated only for a message), first the value's own type,
	# then (only if that holds) the rest, in the schema's order: enum,
	# pattern, minLength, minimum, maximum, required, minProperties, the
	# keys, x-sums, x-not-above (the last two name an object's members),
	# the items. (Only the keywords that apply to the value's type are
	# looked at: a run's files are validated on every summarize pass.)
	| def errors($s; p):
		(if $s["$ref"] then $defs[$s["$ref"]] else $s end) as $s
		| . as $v
		| $s.type as $st
		| if $st != null and (if ($st | type) == "array" then any($st[] as $t | $v | is($t); .) else is($st) end | not) then
			is_not(p; "not \([$st] | flatten | join(" or "))")
		  elif $v == null then empty
		  else
			(if $s.enum and (any($s.enum[]; . == $v) | not) then
				is_not(p; "not one of \($s.enum | map(tojson) | join(", "))") else empty end),
			(type as $vt
			 | if $vt == "string" then
				(if $s.pattern and (test($s.pattern) | not) then is_not(p; "which does not match \($s.pattern)") else empty end),
				(if $s.minLength and length < $s.minLength then is_not(p; "shorter than \($s.minLength)") else empty end)
			 elif $vt == "number" then
				(if $s.minimum != null and . < $s.minimum then is_not(p; "below its minimum \($s.minimum)") else empty end),
				(if $s.maximum != null and . > $s.maximum then is_not(p; "above its maximum \($s.maximum)") else empty end)
			 elif $vt == "object" then
				($s.required | values[] | select(. as $k | $v | has($k) | not) | at(p + [.]; "is missing")),
				(if $s.minProperties and length < $s.minProperties then
					at(p; "has \(length) keys, fewer than \($s.minProperties)") else empty end),
				($s.propertyNames.pattern as $names | $s.properties as $props | $s.additionalProperties as $more
				 | (($more | type) == "object" and ($more | plain)) as $plain_more
				 | keys_unsorted[] as $k | $v[$k]
				 | if $names and ($k | test($names) | not) then
					at(p; "has the key \($k | tojson), which does not match \($names)")
				   elif $props[$k] then errors($props[$k]; p + [$k])
				   elif $more == false then at(p + [$k]; "is not in the schema")
				   elif $plain_more then select(fails_plain($more)) | errors($more; p + [$k])
				   elif ($more | type) == "object" then errors($more; p + [$k])
				   else empty end),
				# x-sums: total = the sum of the values of object "of" (of its
				# members' "field" when one is named); total a member, or a
				# path of members ["classes", "unknown"].
				($s["x-sums"] | values[] as $r
				 | ($r.total | if type == "array" then . else [.] end) as $tp
				 | ($v[$r.of] // {} | [.[] | if $r.field then .[$r.field] else . end]) as $xs
				 | select(all($xs[], ($v | getpath($tp)); type == "number"))
				 | ($xs | add // 0) as $sum
				 | $v | getpath($tp) | select(. != $sum)
				 | is_not(p + $tp; "but the sum of \(where(p + [$r.of]))\(if $r.field then "[]." + $r.field else "" end) is \($sum)")),
				# x-not-above: part <= whole.
				($s["x-not-above"] | values[] as $r
				 | select(($v[$r.part] | type) == "number" and ($v[$r.whole] | type) == "number"
				          and $v[$r.part] > $v[$r.whole])
				 | $v[$r.part] | is_not(p + [$r.part]; "above \(where(p + [$r.whole])) \($v[$r.whole] | shown)"))
			 elif $vt == "array" and $s.items then
				# (hammer.json's 30,000 samples in a stress run: plain.)
				$s.items as $it
				| if $it | plain then
					first(range(length) as $i | .[$i] | select(fails_plain($it)) | errors($it; p + [$i])) // empty
				  else range(length) as $i | .[$i] | errors($it; p + [$i]) end
			 else empty end)
		  end;
	if $docs == [] then "the file is empty"
	elif ($docs | length) != 1 then "the file holds \($docs | length) JSON values, not one"
	else first(($docs[0] | errors($schema; [])), "ok") end;
