# ccache-cc.sh: a test's compile-and-link command through ccache. Source
# it after scripts/lib/paths.sh (the cache is QC_CACHE's, the kernel
# builds' ccache, as test-analyzer.sh and scripts/build.sh have it).
# shellcheck shell=sh

# ccache_cc CC ARGS...: the one command "CC ARGS..." that compiles its C
# (or .S) sources and links them in one go, which ccache does not cache
# ("multiple source files"), run as ccache can cache it: each source
# compiled on its own through ccache with the command's other options (a
# hit gives the object and the compiler's warnings again, as the compile
# printed them), then the link as the command has it, the objects where
# the sources were, linker options (-l, -L) where they were. Every source
# is compiled even after one fails, and nothing is linked then, as gcc
# does. The link is kept (ccache_kept_link): a static link was 0.2-0.3 s
# of a test's CPU, the same one each run. A command of one source, or
# without -o, goes to ccache as it is. Without ccache (or QC_CACHE), or
# with an argument it does not know or cannot quote, it is the command
# itself.
ccache_cc() {
	_cc_bin=$1
	shift
	if [ -z "${QC_CACHE:-}" ] || ! command -v ccache >/dev/null 2>&1; then
		command "$_cc_bin" "$@"
		return
	fi
	_cc_flags='' _cc_link='' _cc_srcs='' _cc_n=0 _cc_o=no _cc_out='' _cc_words=$_cc_bin
	for _cc_a; do
		case $_cc_a in *"'"*) command "$_cc_bin" "$@"; return ;; esac
		if [ $_cc_o = yes ]; then _cc_link="$_cc_link '$_cc_a'" _cc_o=given _cc_out=$_cc_a; continue; fi
		# (the command as the kept link's key has it: all but the output)
		_cc_words="$_cc_words $_cc_a"
		case $_cc_a in
		-o) _cc_link="$_cc_link -o" _cc_o=yes ;;
		-l*|-L*) _cc_link="$_cc_link '$_cc_a'" ;;
		-*) _cc_flags="$_cc_flags '$_cc_a'" _cc_link="$_cc_link '$_cc_a'" ;;
		*.c|*.S)
			_cc_n=$((_cc_n + 1))
			_cc_srcs="$_cc_srcs '$_cc_a'"
			_cc_link="$_cc_link \"\$_cc_dir/$_cc_n.o\"" ;;
		# (an argument of an option, or an input this does not know)
		*) command "$_cc_bin" "$@"; return ;;
		esac
	done
	# one source, or no -o: ccache takes such a command as it is
	if [ "$_cc_n" -lt 2 ] || [ $_cc_o != given ]; then
		CCACHE_DIR=${CCACHE_DIR:-$QC_CACHE/ccache} ccache "$_cc_bin" "$@"
		return
	fi
	_cc_dir=$(mktemp -d) || return 1
	_cc_rc=0 _cc_i=0
	eval "set -- $_cc_srcs"
	for _cc_a; do
		_cc_i=$((_cc_i + 1))
		eval "CCACHE_DIR=\"\${CCACHE_DIR:-\$QC_CACHE/ccache}\" ccache \"\$_cc_bin\" $_cc_flags -c -o \"\$_cc_dir/$_cc_i.o\" \"\$_cc_a\"" ||
			_cc_rc=1
	done
	[ $_cc_rc -ne 0 ] || ccache_kept_link || _cc_rc=1
	rm -rf "$_cc_dir"
	return $_cc_rc
}

# ccache_kept_link: ccache_cc's link ("$_cc_bin" $_cc_link, the objects
# in $_cc_dir, the output $_cc_out), kept in $QC_CACHE/tests/link-KEY,
# KEY the cksum of the command ($_cc_words) and of the objects' bytes,
# and used while every other file the linker read then (ld's
# --dependency-file: the C library, the start files, libgcc, a shared
# library), the compiler driver and ld have the same size, times and inode
# (as ccache checks its compiler); linked again otherwise. What the link
# printed is printed again, as ccache does a compile's warnings.
ccache_kept_link() {
	_cl_key=$({ printf '%s\n' "$_cc_words"; cat "$_cc_dir"/*.o; } | cksum) || return 1
	_cl_keep=$QC_CACHE/tests/link-${_cl_key%% *}-${_cl_key#* }
	if [ -f "$_cl_keep/inputs" ]; then
		set --
		while IFS=' ' read -r _cl_f _; do set -- "$@" "$_cl_f"; done < "$_cl_keep/inputs"
		if stat -L -c '%n %s %Y %Z %i' "$@" 2>/dev/null | cmp -s - "$_cl_keep/inputs" &&
			cp "$_cl_keep/out" "$_cc_out"; then
			[ ! -s "$_cl_keep/err" ] || cat "$_cl_keep/err" >&2
			return 0
		fi
	fi
	eval "command \"\$_cc_bin\" -Wl,--dependency-file=\"\$_cc_dir/deps\" $_cc_link" 2>"$_cc_dir/err"
	_cl_rc=$?
	[ ! -s "$_cc_dir/err" ] || cat "$_cc_dir/err" >&2
	[ $_cl_rc -eq 0 ] || return $_cl_rc
	# Kept aside, then renamed into place: a half-made one is never used;
	# a cache it cannot write only costs the next run the link.
	_cl_new=$_cl_keep.$$
	mkdir -p "$_cl_new" 2>/dev/null || return 0
	{ sed -n 's/:$//p' "$_cc_dir/deps" | grep -vF "$_cc_dir/"; command -v "$_cc_bin"; command -v ld; } |
		xargs stat -L -c '%n %s %Y %Z %i' > "$_cl_new/inputs" &&
		cp "$_cc_out" "$_cl_new/out" && cp "$_cc_dir/err" "$_cl_new/err" &&
		rm -rf "$_cl_keep" && mv -T "$_cl_new" "$_cl_keep" 2>/dev/null
	[ ! -d "$_cl_new" ] || rm -rf "$_cl_new"
	return 0
}
