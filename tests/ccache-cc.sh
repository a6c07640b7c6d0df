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
# does. A command of one source, or without -o, goes to ccache as it is.
# Without ccache (or QC_CACHE), or with an argument it does not know or
# cannot quote, it is the command itself.
ccache_cc() {
	_cc_bin=$1
	shift
	if [ -z "${QC_CACHE:-}" ] || ! command -v ccache >/dev/null 2>&1; then
		command "$_cc_bin" "$@"
		return
	fi
	_cc_flags='' _cc_link='' _cc_srcs='' _cc_n=0 _cc_o=no
	for _cc_a; do
		case $_cc_a in *"'"*) command "$_cc_bin" "$@"; return ;; esac
		if [ $_cc_o = yes ]; then _cc_link="$_cc_link '$_cc_a'" _cc_o=given; continue; fi
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
	[ $_cc_rc -ne 0 ] || eval "command \"\$_cc_bin\" $_cc_link" || _cc_rc=1
	rm -rf "$_cc_dir"
	return $_cc_rc
}
