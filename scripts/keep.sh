#!/bin/sh
# keep.sh [--traces] RUNDIR NOTE: make the run RUNDIR (results/<run-id>)
# a reference run, the only way a run enters git (make keep). New runs are
# ignored by git (results/.gitignore ignores every run it does not name);
# this one:
#   1. must render: scripts/report.sh re-renders its report from its
#      summary.json, or nothing is kept;
#   2. loses what a reader does not need, moved out of the repository to
#      $QC_CACHE/dropped/<run-id>/ (nothing is deleted): the traces
#      (trace*.dat; --traces keeps them, for the one compare and one audit
#      a user should be able to open in KernelShark without running
#      anything), the audit's per-sub-window analyses (<guest>/audit/,
#      summed in audit.json), the logs (*.log, qemu.err; a stress run
#      keeps its console.log, the evidence it had no splat) and the raw
#      plugin counts (alloc-cost.jsonl and entry-counts.jsonl) and the
#      text-patch watch's record (text-pokes.txt, whose tally boot-params
#      already states), kept compressed as .gz;
#   3. is named in results/.gitignore ("!/<run-id>/"), so git sees it;
#   4. gets one line in results/README.md: its id, its report and NOTE,
#      what it shows.
# Then `git add` it (the command is printed). Nothing is committed here.
set -eu
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/lib/paths.sh"
. "$here/lib/log.sh"
. "$here/lib/runs.sh"

usage="usage: scripts/keep.sh [--traces] RUNDIR NOTE (make keep RUN=results/<run-id> NOTE=\"what it shows\" [TRACES=1])"
traces=no
[ "${1:-}" != --traces ] || { traces=yes; shift; }
[ $# -eq 2 ] || die "keep takes a run and a note, got $# arguments: $usage"
run=${1%/} note=$2
[ -n "$run" ] || die "which run? $usage"
[ -d "$run" ] || die "'$run' is not a directory: give a run of results/ (make keep RUN=results/<run-id> NOTE=...)"
id=$(basename "$run")
[ "$(cd "$run/.." && pwd -P)" = "$({ [ -d "$QC_RESULTS" ] || mkdir -p "$QC_RESULTS"; } && cd "$QC_RESULTS" && pwd -P)" ] ||
	die "'$run' is not a run of $QC_RESULTS: a reference run is kept where it was made, as results/<run-id>"
case $note in
''|*[![:print:]]*) die "NOTE must be one line saying what the run shows: make keep RUN=$run NOTE=\"...\"" ;;
esac
ignore=$QC_RESULTS/.gitignore readme=$QC_RESULTS/README.md
[ -f "$ignore" ] || die "$ignore is missing: restore it (git checkout results/.gitignore)"
! grep -qxF "!/$id/" "$ignore" || die "$id is already a reference run (results/.gitignore names it)"
[ -f "$run/$QC_SUMMARY" ] ||
	die "$run has no $QC_SUMMARY: only a summarized run renders (make report RUN=$run REANALYZE=1 re-judges a copy)"

# report.sh's own refusal, if any, is this one's reason.
why=$("$QC_ROOT/scripts/report.sh" "$run" 2>&1 >/dev/null) ||
	die "$run does not render, so it is not kept: $(printf '%s\n' "$why" | sed -n 's/^quietcore: error: //p' | tail -n1)"

# The files to drop, as paths inside the run, found by one find: the
# traces, the audit's sub-window analyses, the logs (a stress run keeps its
# consoles: they are its evidence, no splat).
set -- -path './*/audit' -type d -o \( -name '*.log' -o -name "$QC_QEMU_ERR" -o -name '.results.img' \) -type f
[ "$(qc_kv "$run/$QC_RUN_TXT" scenario)" != stress ] || set -- "$@" ! -name "$QC_CONSOLE"
[ "$traces" = yes ] || set -- -name 'trace*.dat' -o "$@"
dropped=$(cd "$run" && find . \( "$@" \) -printf '%P\n' | sort)
aside=$QC_CACHE/dropped/$id
moved=0 moved_dirs=
for f in $dropped; do
	# (a log inside a folder already moved, the audit's, went with it)
	for d in $moved_dirs; do case $f in "$d"/*) continue 2 ;; esac; done
	[ ! -d "$run/$f" ] || moved_dirs="$moved_dirs $f"
	# (dirname's answer, and mkdir and rm only where there is work for
	# them: a process each per file was most of a keep's own cost)
	case $f in */*) d=${f%/*} ;; *) d=. ;; esac
	[ -d "$aside/$d" ] || mkdir -p "$aside/$d"
	[ ! -e "$aside/$f" ] && [ ! -L "$aside/$f" ] || rm -rf "${aside:?}/$f"
	mv "$run/$f" "$aside/$f"
	moved=$((moved + 1))
done
[ -z "$dropped" ] || info "moved $moved files and folders out of the run, to $aside"
for f in $(cd "$run" && find . \( -name "$QC_COST_FILE" -o -name "$QC_ENTRY_COUNTS" -o -name "$QC_TEXT_POKES" \) -printf '%P\n'); do
	gzip -9n "$run/$f" || die "cannot compress $run/$f"
	info "compressed $f to $f.gz"
done

echo "!/$id/" >> "$ignore"
[ -f "$readme" ] || printf '# results/: reference runs\n\n## Kept with make keep\n\n' > "$readme"
with=
[ "$traces" = no ] || with=' (with traces)'
printf -- '- [%s](%s/report.md)%s: %s\n' "$id" "$id" "$with" "$note" >> "$readme"
# (du's size: its line up to the tab, as cut -f1 gives it)
size=$(du -sh "$run")
info "kept $id (${size%%"	"*}): git add $run ${ignore#"$QC_ROOT"/} ${readme#"$QC_ROOT"/}"
