# How the report writes numbers and code: shared by model.jq and audit.jq.

def dash: if . == null then "–" else tostring end;
def rnd($d): (. * pow(10; $d) | round) / pow(10; $d);
# Latencies in µs: enough digits to read, no false precision.
def us: if . == null then "–" elif . >= 100 then (round | tostring)
	elif . >= 10 then (rnd(1) | tostring) else (rnd(2) | tostring) end;
# 412160 -> "412,160"
def grp: if length > 3 then (.[:-3] | grp) + "," + .[-3:] else . end;
def thou: if . == null then "–" else round | tostring
	| if startswith("-") then "-" + (.[1:] | grp) else grp end end;
def pct: if . == null then "–" else (if . > 0 then "+" else "" end) + (rnd(2) | tostring) + " %" end;
def secs: if . == null then "–" else rnd(1) | tostring end;
def code: "`" + . + "`";
# 1 "call" / 2 "calls", with the count written as thou writes it.
def plural($n; $one; $many): "\($n | thou) \(if $n == 1 then $one else $many end)";
