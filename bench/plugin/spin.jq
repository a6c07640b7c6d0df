# spin.jq: which of the plugin's function names are spin-waiting, for
# cost-runs.jq and drain-runs.jq (jq -L bench/plugin, include "spin").
#
# $spin holds bench/plugin/spin-wait.list's names as the source spells
# them (spin_names of the list's text, passed as --rawfile spin_list: read
# by the program itself, not by a jq of its own each pass). The plugin
# names a function as System.map does, and GCC names its clones of a
# static function after it with a suffix: on the 6.12-rt guest build
# rt_mutex_slowlock_block() exists only as
# rt_mutex_slowlock_block.constprop.0. A clone waits as its origin does,
# so it counts as the name it was cloned from.
# spin_names: spin-wait.list's text as its names: one a line, lines that
# start with '#' and blank ones left out.
def spin_names: split("\n") | map(select(test("^#|^[[:space:]]*$") | not));
def spin_base: sub("\\.(constprop|isra|part|cold)(\\.[0-9]+)*(\\..*)?$"; "");
def is_spin($spin): spin_base as $b | any($spin[]; . == $b);
# spun(FUNCTIONS; I): the sum of element I of FUNCTIONS' spin-waiting
# entries ({name: [insns, loads, stores]}), 0 when none.
def spun($fns; $i; $spin): [$fns // {} | to_entries[] | select(.key | is_spin($spin)) | .value[$i] // 0] | add // 0;
