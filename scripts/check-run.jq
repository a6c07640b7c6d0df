# check-run.jq: scripts/check-run.sh's checks of a run's JSON files, in
# one jq. $list: the files, "KIND FILE" lines, of which the first $given
# are given (all of them: then the cross-checks too; fewer: those before
# a file jq could not parse, each checked alone); $ARGS.named: fN, file
# N's values (--slurpfile, parsed alone: jq stops at the first file it
# cannot parse, naming it); input: the same files' texts as the parser's
# events (jq --stream), in that order, each followed by a newline (so
# that no token runs from one file into the next), for duplicate keys;
# $run_txt, $analysis, $selftest, $hammer, $pcp_window, $oslat: the
# schemas (docs/schemas/KIND.json, slurped); $planted: {GUEST: {CPU:
# planted}} from each guest's selftest-planted.txt (null: not "KIND CPU
# K" lines); $iso: run.txt's isolated CPUs, for messages; given
# (check-run.sh --policy), $ARGS.named.policy, the verdict policy's text,
# and .policy_file, its name. Prints nothing when every file holds (and,
# given a policy that holds too, "policy holds", then its baseline on a
# line of its own), "duplicate key" when check-run.sh must
# read each file alone to name the one holding a key twice, else the
# first problem, one line, naming the file and the fix.
include "validate";
include "selftest";

{"run-txt": $run_txt[0], analysis: $analysis[0], selftest: $selftest[0], hammer: $hammer[0],
 "pcp-window": $pcp_window[0], oslat: $oslat[0]} as $schemas

# The files: {kind, file, guest, name (its base name), docs (its values),
# doc (its one value, once it holds), fix (what to do about it;
# check-run.sh fix says the same)}.
| ($list | split("\n")[:-1]) as $lines
| [range($given) as $n | $lines[$n] | index(" ") as $i | .[:$i] as $kind | .[$i + 1:] as $file
   | ($file | split("/")) as $path | $ARGS.named["f\($n)"] as $docs
   | {kind: $kind, file: $file, guest: $path[-2], name: $path[-1], docs: $docs, doc: $docs[0],
      fix: ({"run-txt": "fix that line (scripts/lib/runs.sh qc_run_txt writes run.txt)",
             analysis: "re-run scripts/analyze.sh \($path[:-1] | join("/")) \($iso)",
             selftest: "re-run scripts/analyze.sh \($path[:-1] | join("/")) \($iso)"}[$kind]
            // "the guest wrote it: re-run the variant")}] as $files

# 0. No duplicate key anywhere (the parsed values kept the last copy).
| if has_duplicate(inputs; [$files[].docs[]]) then "duplicate key" else

# 1. Each file against its schema, in their order.
  (first($files[] as $f
	| validate($f.docs; $schemas[$f.kind]) | select(. != "ok")
	| "\($f.file): \(.) (schema docs/schemas/\($f.kind).json): \($f.fix)") // null) as $invalid
| if $invalid then $invalid elif $given < ($lines | length) then empty else

# The documents by guest and name.
($files | map(select(.kind != "run-txt"))
 | group_by(.guest) | map({key: .[0].guest, value: (map({key: .name, value: .}) | from_entries)}) | from_entries) as $g

# The last two parts of a path: a guest's directory and the file in it.
| def tail2: if type == "string" then split("/") | .[-2:] | join("/") else null end;

# 2. Provenance: each analysis names its own directory's trace, and the
# quiet control its own hammer window's drain calls.
  def provenance($guest; $f):
    # [the member naming a file, the file it must name (in the guest's
    # own directory), how a message calls it], of each file naming one.
    {"analysis.json": [["trace", "trace.dat", ""]],
     "analysis-quiet.json": [["trace", "trace-quiet.dat", ""]],
     "selftest-analysis.json": [["trace", "trace-selftest.dat", ""]],
     "selftest-charged.json": [["trace", "trace-selftest.dat", ""]]}[$f.name] | values
    | first(.[] as [$key, $file, $what] | "\($guest)/\($file)" as $own | $f.doc[$key] | select(tail2 != $own)
            | "\($what)\(.), not its own directory's \($own)")
    | "\($f.file) was made from \(.): it belongs to another guest; \($f.fix)";

# 3. The self-test: selftest.json's planted is selftest-planted.txt's,
# its counted what selftest-analysis.json counted of the planted causes
# (selftest.json's causes); pass only when every CPU's counted equals its
# planted.
  def selftest($guest; $d):
    $d["selftest.json"] as $s | select($s != null)
    | ($s.file | split("/")[:-1] | join("/")) as $dir
    | ($d["selftest-analysis.json"].doc) as $a | ($d["selftest-charged.json"].doc) as $c
    | $planted[$guest] as $p
    | if $a == null or $c == null or $p == null then
        "\($s.file) cannot be checked: \($dir)/\(if $p == null then "selftest-planted.txt" elif $a == null then "selftest-analysis.json" else "selftest-charged.json" end) is missing or not 'KIND CPU K' lines; \($s.fix)"
      else
        $s.doc as $s | ($s.causes // []) as $causes
        # CPU $k's [planted and counted (selftest.json), planted
        # (selftest-planted.txt)], 0 where a file does not name it.
        | def says($k): [$s.cpus[$k].planted, $s.cpus[$k].counted, $p[$k]] | map(. // 0);
          ([($p | with_entries(select(.key | test("^[0-9]+$")))), $s.cpus, $a.cpus, $c.cpus] | map(keys) | add | unique) as $cpus
        | [$cpus[] as $k | says($k) as [$planted, $counted, $told]
           | ([$a.cpus[$k].by_cause // {} | to_entries[] | select(.key as $x | $causes | index([$x])) | .value]
              | add // 0) as $n
           | if $planted != $told then "CPU \($k) planted \($planted), but selftest-planted.txt says \($told)"
             elif $counted != $n then "CPU \($k) counted \($counted), but selftest-analysis.json counted \($n) of the planted causes"
             elif ($s.cpus[$k].irq_work.planted // 0) != ($p["iwork:\($k)"] // 0) then
               "CPU \($k) planted \($s.cpus[$k].irq_work.planted // 0) IPIs from an irq_work, but selftest-planted.txt says \($p["iwork:\($k)"] // 0)"
             elif ($s.cpus[$k].senderless.planted // 0) != ($p["bare:\($k)"] // 0) then
               "CPU \($k) planted \($s.cpus[$k].senderless.planted // 0) sender-less vectors, but selftest-planted.txt says \($p["bare:\($k)"] // 0)"
             elif $s.cpus[$k].senderless != null
               and $s.cpus[$k].senderless.unknown != ($a.cpus[$k].origins | if . == null then null
                   else .unknown_by_cause["irq_vectors:reschedule"] // 0 end) then
               "CPU \($k) counted \($s.cpus[$k].senderless.unknown) sender-less vectors, but selftest-analysis.json has \($a.cpus[$k].origins.unknown_by_cause["irq_vectors:reschedule"] // "none") unknown"
             elif ($s.cpus[$k].senderless.merged // null) != null
               and $s.cpus[$k].senderless.merged != $a.cpus[$k].origins.bare.merged then
               "CPU \($k) counted \($s.cpus[$k].senderless.merged) merged sender-less vectors, but selftest-analysis.json has \($a.cpus[$k].origins.bare.merged // "none")"
             else empty end] as $bad
        | if $causes == [] then "it names no planted cause (causes)"
          elif $bad != [] then $bad[0]
          elif $s.pass != (all($cpus[]; says(.) | .[0] == .[1])
                           and all($s.cpus[]; senderless_ok and deferred_ok and irq_work_ok and clone_ok)) then
            "pass is \($s.pass), but its CPUs' planted and counted say otherwise"
          else empty end
        | "\($dir)/selftest.json disagrees with its evidence: \(.); re-run scripts/analyze.sh \($dir) \($iso)"
      end;

# 4. Once every file holds, the verdict policy, when given: its text is
# one JSON object with what a verdict is judged by (summarize.sh's check
# of it, moved here). Its text, parsed here rather than --slurpfile'd: a
# policy jq cannot parse must not stop the checks of the run's files, nor
# change how they are named. (Made whole, [...][0], before it is used:
# jq 1.6's try would also catch an error raised after it.) A text of no
# JSON value at all (blanks), or a file that could not be read (its text
# null), is no policy.
  def verdict_policy($file):
    (if . == null then null
     else [try (fromjson
          | select((.rule == "origins")
              and (.drain_functions | type == "array" and length > 0 and all(type == "string" and test("^[A-Za-z0-9_.]+$")))
              and (.min_drain_calls | type == "number")
              and (.min_exposure.refill | type == "number") and (.min_exposure.oslat | type == "number")
              and (.baseline | type == "string")
              and (.verdicts | type == "array" and all(.name and (.when | type == "string") and .class and .sentence)))
          | [.baseline])
     catch null][0] end)
    | if . then "policy holds", .[]
      else "\($file) is not a verdict policy (needs rule \"origins\", drain_functions, min_drain_calls, min_exposure.refill and .oslat, baseline, verdicts each with name, when, class and sentence): restore it from git" end;

  first($g | to_entries[] | .key as $guest | .value as $d
        | (($d[] | provenance($guest; .)), selftest($guest; $d)))
  // ($ARGS.named | select(has("policy")) | .policy | verdict_policy($ARGS.named.policy_file))
end
end
