# variants.sh: the variant registry, patches/series (its header says what
# each word means): every variant, its base, tree, config fragments and
# audit list come from there, nowhere else; and the Debian kernel trees
# (linux-source-*) the variants are built from.
# Needs paths.sh, log.sh and plugin.sh (qc_check_variant: the plugin lists).
# shellcheck shell=sh

QC_SERIES=${QC_SERIES:-$QC_ROOT/patches/series}
qc_registry() { sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$QC_SERIES"; }
qc_variants() { qc_registry | awk '{ print $1 }'; }
# qc_variant_words: every variant, each followed by a space, as
# qc_variants | tr '\n' ' ' prints them; in the shell (qc_registry_each)
# when it can: every refusal of a variant names them.
qc_variant_words() {
	qc_registry_readable || { qc_variants | tr '\n' ' '; return; }
	_vw_words=''
	qc_registry_each _qc_variant_words_line || :
	printf '%s' "$_vw_words"
}
_qc_variant_words_line() { _vw_words="$_vw_words$1 "; }
# qc_registry_each FUNC: FUNC WORD... for each variant line of the
# registry, its words split in the shell as awk splits them (at blanks,
# the comment cut as sed cuts it; no glob, no process: every entry point
# looks fields up, and summarize.sh names every guest of a run). It stops
# at the first line FUNC returns non-zero for and returns 0 then, 1 when
# FUNC took every line. The caller makes sure the registry is readable.
qc_registry_each() {
	_re_f=$1 _re_rc=1
	qc_registry_load
	_re_rest=$_qc_rl_lines
	case $- in *f*) _re_glob=off ;; *) _re_glob=on; set -f ;; esac
	while [ -n "$_re_rest" ]; do
		_re_l=${_re_rest%%"$_qc_nl"*} _re_rest=${_re_rest#*"$_qc_nl"}
		# shellcheck disable=SC2086 # split into fields on purpose (no glob)
		set -- $_re_l
		[ $# -gt 0 ] || continue
		"$_re_f" "$@" || { _re_rc=0; break; }
	done
	[ "$_re_glob" = off ] || set +f
	return $_re_rc
}
# qc_registry_load: _qc_rl_lines, the registry's lines, their comments
# cut, each ended by a newline, read once a process (per QC_SERIES): the
# shell's read takes a byte a system call, and the checks of one variant
# look half a dozen fields up (a refusal read the registry ~20 times).
_qc_nl='
'
qc_registry_load() {
	[ "${_qc_rl_series-}" != "$QC_SERIES" ] || return 0
	_qc_rl_lines=
	while IFS= read -r _re_l || [ -n "$_re_l" ]; do
		_qc_rl_lines="$_qc_rl_lines${_re_l%%#*}$_qc_nl"
	done < "$QC_SERIES"
	_qc_rl_series=$QC_SERIES
}
# qc_registry_readable: the registry can be read in the shell; when it
# cannot, the general way (sed and awk) says why.
qc_registry_readable() { [ -r "$QC_SERIES" ] && [ ! -d "$QC_SERIES" ]; }
# qc_variant_field VARIANT N: word N of VARIANT's line; fails for an
# unknown variant. In the shell (qc_registry_each): the checks of one
# variant look up half a dozen fields.
qc_variant_field() {
	qc_variant_word "$@" || return
	printf '%s\n' "$QC_VW"
}
# qc_variant_word VARIANT N: QC_VW, the word qc_variant_field prints, set
# in this shell: the checks of a variant read it without a subshell each.
qc_variant_word() {
	case $2 in [1-9]) ;; *) QC_VW=$(qc_variant_field_awk "$@"); return ;; esac
	qc_registry_readable || { QC_VW=$(qc_variant_field_awk "$@"); return; }
	_vf_v=$1 _vf_n=$2 QC_VW=
	qc_registry_each _qc_variant_field_line
}
# (qc_variant_word's line: its word N kept, and the search stopped)
_qc_variant_field_line() {
	[ "$1" = "$_vf_v" ] || return 0
	[ "$_vf_n" -gt $# ] || eval "QC_VW=\${$_vf_n}"
	return 1
}
qc_variant_field_awk() {
	qc_registry | awk -v v="$1" -v n="$2" '$1 == v { print $n; found = 1; exit } END { exit !found }'
}
qc_variant_base() { qc_variant_field "$1" 2; }
qc_variant_tree() { qc_variant_field "$1" 3; }
# qc_variant_configs VARIANT [FLAVOUR]: the config fragments, as paths, in
# the order they merge; a flavour adds configs/<flavour>.config last, then,
# for each of the variant's fragments NAME.config, configs/NAME-<flavour>.config
# if there is one: what that kernel needs on top in the flavour (the RT
# fragment's RT lock debugging, guest-6.12-rt-debug.config).
qc_variant_configs() { qc_variant_config_paths "$@"; printf '%s' "$QC_CONFIGS"; }
# qc_variant_config_paths VARIANT [FLAVOUR]: QC_CONFIGS, the lines
# qc_variant_configs prints, set in this shell (qc_check_variant checks
# every variant's fragments: no subshell for it).
qc_variant_config_paths() {
	qc_variant_word "$1" 4
	_frags=$QC_VW QC_CONFIGS=
	while :; do case $_frags in *,*) _frags="${_frags%%,*} ${_frags#*,}" ;; *) break ;; esac; done
	for _f in $_frags ${2:+$2.config}; do
		QC_CONFIGS="$QC_CONFIGS$QC_ROOT/configs/$_f$_qc_nl"
	done
	[ -n "${2:-}" ] || return 0
	for _f in $_frags; do
		[ ! -f "$QC_ROOT/configs/${_f%.config}-$2.config" ] ||
			QC_CONFIGS="$QC_CONFIGS$QC_ROOT/configs/${_f%.config}-$2.config$_qc_nl"
	done
}
# qc_config_requested FRAGMENT...: what the fragments ask of Kconfig, one
# line per symbol ("CONFIG_X=v" or "# CONFIG_X is not set"), a later
# fragment's word overriding an earlier one's, as merge_config.sh merges
# them (a variant's fragment may turn off what guest.config turns on).
qc_config_requested() {
	sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*\)=.*/\1 &/p' -e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set.*/\1 &/p' "$@" |
		awk '{ k = $1; l = $0; sub(/^[^ ]* /, "", l); if (!(k in last)) order[++n] = k; last[k] = l }
			END { for (i = 1; i <= n; i++) print last[order[i]] }'
}
# qc_variant_audit VARIANT: the name of its audit list in tracing/probes/
# (the guest gets it as qc.audit).
qc_variant_audit() { qc_variant_field "$1" 5; }
# qc_variant_sends VARIANT: its send-side probe list in tracing/probes/
# (the guest gets it as qc.sends), named by the audit list's rule: the
# same tree's functions, so audit -> origins, audit-6.12 -> origins-6.12.
qc_variant_sends() {
	qc_variant_word "$1" 5 || return 1
	qc_sends_of "$QC_VW"
	echo "$QC_SEND_LIST"
}
# qc_sends_of AUDIT: QC_SEND_LIST, the send-side list of the audit list
# AUDIT by that rule, set in this shell (qc_check_variant: no subshell).
qc_sends_of() { QC_SEND_LIST=origins${1#audit}; }
# qc_registry_names: QC_REGISTRY_NAMES, every variant of the registry in
# its order, one word each, and QC_REGISTRY_BASELINE, the first one marked
# "baseline", read once a process (per QC_SERIES), in one pass.
qc_registry_names() {
	[ "${_qc_rn_series:-}" != "$QC_SERIES" ] || return 0
	_qc_rn_series=$QC_SERIES QC_REGISTRY_NAMES=
	if qc_registry_readable; then
		_mk_m=baseline QC_MARKED=''
		qc_registry_each _qc_registry_names_line || :
	else
		QC_REGISTRY_NAMES=$(qc_variants | tr '\n' ' ')
		qc_series_marked baseline
	fi
	QC_REGISTRY_BASELINE=${QC_MARKED%% *}
}
# (qc_registry_names's line: its variant, and whether it is marked)
_qc_registry_names_line() {
	QC_REGISTRY_NAMES="$QC_REGISTRY_NAMES $1"
	_qc_marked_line "$@"
}
# qc_label_variant LABEL: QC_VO, the variant of a guest's directory, named
# VARIANT[-FLAVOUR][-TAG] by qc_label: the longest variant it starts with
# (spinlock-6.12-debug is spinlock-6.12's, not spinlock's); fails if none.
# No process: a run's every guest is looked up.
qc_label_variant() {
	qc_registry_names
	QC_VO=
	for _lv in ${QC_REGISTRY_NAMES:-}; do
		case $1 in "$_lv"|"$_lv"-*) [ ${#_lv} -le ${#QC_VO} ] || QC_VO=$_lv ;; esac
	done
	[ -n "$QC_VO" ]
}
# qc_variant_of LABEL: the same, printed.
qc_variant_of() { qc_label_variant "$1" && echo "$QC_VO"; }
# qc_series_marked MARK: QC_MARKED, the variants whose line carries MARK,
# in order, on one line; in the shell (qc_registry_each) when it can:
# every entry point asks for the defaults, and summarize.sh the baseline.
qc_series_marked() {
	_mk_m=$1 QC_MARKED=''
	if qc_registry_readable; then
		qc_registry_each _qc_marked_line || :
	else
		QC_MARKED=$(qc_registry | awk -v m="$1" '{ for (i = 6; i <= NF; i++) if ($i == m) print $1 }' | paste -sd' ' -)
	fi
}
# (qc_series_marked's line: its variant, once for each of its marks,
# words 6 on, that is the one asked for)
_qc_marked_line() {
	_mk_v=$1
	[ $# -gt 5 ] || return 0
	shift 5
	for _mk_w; do
		[ "$_mk_w" != "$_mk_m" ] || QC_MARKED="$QC_MARKED${QC_MARKED:+ }$_mk_v"
	done
}
# The variants a job runs when VARIANTS is not given, on one line.
qc_default_variants() { qc_series_marked default; printf '%s\n' "$QC_MARKED"; }
# qc_check_variant VARIANT: a variant the registry knows, whose line is
# whole, and every file it needs there: each one missing fails in one line
# naming it, before anything is built (a list found missing after a build
# costs the build).
qc_check_variant() {
	# (its words read with qc_variant_word: no subshell for each)
	qc_variant_word "$1" 2 ||
		die "unknown variant '$1': choose one of: $(qc_variant_words)(see patches/series)"
	_base=$QC_VW
	qc_variant_word "$1" 5 || :
	_audit=$QC_VW
	[ -n "$_audit" ] ||
		die "patches/series: variant '$1' names no base, tree, configs and audit list: write '<variant> <base> <tree> <configs> <audit>'"
	if [ "$_base" != - ]; then
		qc_variant_word "$_base" 2 ||
			die "patches/series: the base '$_base' of variant '$1' is not a variant: name one, or '-' for the stock tree"
		qc_variant_word "$_base" 3 || :
		_base_tree=$QC_VW
		qc_variant_word "$1" 3 || :
		[ "$_base_tree" = "$QC_VW" ] ||
			die "patches/series: variant '$1' names tree $QC_VW but its base '$_base' is built from $_base_tree: name the base's tree"
	fi
	# (its send-side list and fragments named in this shell: a subshell
	# each was most of a refusal's own cost)
	qc_sends_of "$_audit"
	qc_variant_config_paths "$1"
	for _f in "$QC_ROOT/tracing/probes/$1.list" "$QC_ROOT/tracing/probes/$_audit.list" \
		"$QC_ROOT/tracing/probes/$QC_SEND_LIST.list" \
		$QC_CONFIGS \
		"$QC_DRAIN_REACH_LIST" "$QC_SPIN_WAIT_LIST"; do
		[ -s "$_f" ] || die "variant '$1' needs ${_f#"$QC_ROOT"/}, which is missing or empty: add it (see patches/series)"
	done
	qc_drain_reach "$1" >/dev/null
}
# qc_tree_tarball TREE: the stock source a tree package installs.
qc_tree_tarball() { qc_tree_tarball_of "$1"; echo "$QC_TARBALL"; }
# qc_tree_tarball_of TREE: QC_TARBALL, the path qc_tree_tarball prints, set
# in this shell (qc_check_tree checks every variant of a compare: no
# subshell for each).
qc_tree_tarball_of() { QC_TARBALL=$QC_SRC/$1.tar.xz; }
# qc_tree_version TREE: the installed package's version (6.1.192-3), which
# every run records: Debian's security archive moves.
qc_tree_version() { dpkg-query -W -f '${Version}' "$1" 2>/dev/null || echo "(version unknown)"; }
# qc_check_tree VARIANT...: each variant's tree package is installed (a build
# needs its source; a boot of an existing build does not).
qc_check_tree() {
	for _v in "$@"; do
		# (its tree read in this shell: every compare checks each variant's)
		qc_variant_word "$_v" 3
		_t=$QC_VW
		qc_tree_tarball_of "$_t"
		[ -f "$QC_TARBALL" ] ||
			die "variant '$_v' is built from $_t, which is not installed ($QC_TARBALL is missing): run 'sudo make setup'"
	done
}
# The patch files of one variant, in the order they apply.
qc_variant_patches() {
	for p in "$QC_ROOT/patches/$1"/*.patch; do
		[ -f "$p" ] || continue
		case ${p##*/} in 0000-cover-letter.patch) continue ;; esac
		printf '%s\n' "$p"
	done
}
