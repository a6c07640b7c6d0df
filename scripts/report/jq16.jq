# Compile time, not output: jq 1.6 drops the builtins a program does not
# use in passes, until a pass drops nothing, and each pass walks the whole
# program once for every definition left in it (about 200 builtins and
# the report's own): an unused builtin that only another unused builtin
# calls waits for the next pass. The report's program (report.sh's
# render) left five passes; naming the builtins its second and third
# passes dropped (and so those they call), in a branch never taken,
# leaves two, the least there can be (the last finds nothing to drop):
# 5 % of a render's instructions, 20 ms of its 220 on a 2-core PVM host.
# A builtin the report starts or stops using may add a pass back (never
# a wrong output): callgrind counts a render's instructions to compare. It
# outputs nothing; newer jq (linear dropping) gains nothing and loses
# nothing.
def keep_builtins:
	if false then (mktime, strftime(""), strptime(""), isinfinite, tojson, paths, splits(""), first(empty),
		input, halt_error(1), max_by(.), min_by(.), isnormal, floor, recurse, from_entries, paths(.), all(.),
		isfinite, arrays, objects, scalars, flatten(1), range(1), fromdateiso8601, todateiso8601,
		until(.; .), limit(1; .), last(.), combinations, repeat(.), INDEX(.; .), IN(.))
	else empty end;
