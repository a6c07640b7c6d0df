# paths.sh: where everything is: the repository (QC_ROOT), the cache
# outside it (QC_CACHE: trees, builds, the initramfs, the plugin), the
# installed kernel sources (QC_SRC) and the runs (QC_RESULTS), and, from
# the results contract (common/contract.sh), every file's name in a run.
# Needs nothing; every host script sources it first.
# shellcheck shell=sh

# (dirname's answer without its process: every script starts here)
case $0 in */*) _qc_dir=${0%/*} ;; *) _qc_dir=. ;; esac
# The directory above the script's, as cd and pwd would name it, without
# their subshell where the path is plain (no ".", "..", "//"): a fork
# costs more than a short script here.
case /$_qc_dir/ in
*/./*|*/../*|*//*) _qc_up= ;;
*) case $_qc_dir in /*) _qc_up=$_qc_dir ;; *) _qc_up=${PWD%/}/$_qc_dir ;; esac ;;
esac
QC_ROOT=${QC_ROOT:-${_qc_up%/*}}
QC_ROOT=${QC_ROOT:-$(cd "$_qc_dir/.." && pwd)}
# The cache follows the user, even where HOME is not set (a bare CI shell).
QC_HOME=${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}
QC_CACHE=${QC_CACHE:-${XDG_CACHE_HOME:-$QC_HOME/.cache}/quietcore}
QC_ARCH=x86_64
# Where Debian's linux-source-* packages put their tarballs.
QC_SRC=${QC_SRC:-/usr/src}

# Every result file's name and every qc.* parameter (the results contract).
. "$QC_ROOT/common/contract.sh"

# Build directory of one variant and flavour ("" or "debug").
qc_build_dir() { echo "$QC_CACHE/build/$1${2:+-$2}"; }
qc_tree_dir() { echo "$QC_CACHE/trees/$1"; }
# qc_pristine_dir TREE: where that source is unpacked, once, never written.
qc_pristine_dir() { echo "$QC_CACHE/$1"; }

# Results: one directory per run (runs.sh qc_new_run names it).
QC_RESULTS=${QC_RESULTS:-$QC_ROOT/results}
