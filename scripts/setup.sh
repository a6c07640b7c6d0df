#!/bin/sh
# setup.sh: install every Debian package quietcore needs. Run once per
# machine as root (make setup); idempotent. Everything else runs as an
# ordinary user.
set -eu
qc_prog=setup
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/lib/paths.sh"
. "$here/lib/log.sh"
. "$here/lib/plugin.sh"
. "$here/lib/variants.sh"
. "$here/lib/qemu.sh"

# kernel sources: every tree patches/series builds from; and the build
pkgs="$(qc_registry | awk '{ print $3 }' | sort -u | paste -sd' ' -)"
pkgs="$pkgs gcc make bc flex bison libelf-dev libssl-dev cpio xz-utils ccache git sparse kmod"
# guest: measurement tools, userland (the emulator: below, from backports)
pkgs="$pkgs rt-tests trace-cmd busybox-static"
# where the vCPUs of a guest about to be stopped as hung are (scripts/vcpus.sh)
pkgs="$pkgs gdb"
# host analysis and reports
pkgs="$pkgs libtracecmd-dev libtraceevent-dev libtracefs-dev pkg-config jq gnuplot-nox"
# headless Chromium: tests/test-report-html.sh renders report.html in it
# (without it that test skips)
pkgs="$pkgs chromium"
# LAVA's dispatcher, so that a lab's job runs here too, without a server
# (lava-run: make lava-job, tests/test-lava.sh, docs/lava.md). Bookworm's
# 2023.01, measured on Dec 6: 136 new packages in 54 s; it upgrades
# systemd (252.38 to 252.39) and perl (5.36.0-7+deb12u2 to u4), and its
# gawk takes /usr/bin/awk over from mawk (docs/findings.md, "LAVA"); no
# worker is started where systemd is not init.
pkgs="$pkgs lava-dispatcher"

[ "$(id -u)" -eq 0 ] ||
	die "make setup installs Debian packages and must run as root: run 'sudo make setup' (once per machine)"
need_cmd apt-get
info "installing: $pkgs"
apt-get update -q >/dev/null
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $pkgs >/dev/null ||
	die "apt-get could not install the packages above: check the output of 'apt-get install $pkgs'"

# The emulator. bookworm's QEMU 7.2 runs stale translated code after the
# guest patches its own text (a vCPU translating a page another vCPU
# writes: fixed in QEMU 8.1), so QEMU comes from the same Debian mirror's
# backports suite, pinned so that only its own packages come from there.
. /etc/os-release
[ "${VERSION_CODENAME:-}" = bookworm ] ||
	die "make setup knows Debian bookworm, not '${VERSION_CODENAME:-unknown}': install QEMU $QC_QEMU_PROVEN by hand"
# The mirror that serves bookworm here, as apt itself names it.
mirror=$(apt-cache policy | awk '$3 == "bookworm/main" { print $2; exit }')
[ -n "$mirror" ] || die "apt has no source for bookworm/main: fix /etc/apt/sources.list.d, then run make setup again"
# write_if_changed FILE: stdin into FILE, only when it differs (idempotent).
write_if_changed() {
	t=$(mktemp)
	cat > "$t"
	if cmp -s "$t" "$1"; then rm -f "$t"; else mv "$t" "$1"; chmod 644 "$1"; fi
}
write_if_changed /etc/apt/sources.list.d/quietcore-backports.sources <<EOT
# quietcore (scripts/setup.sh): QEMU from $QC_QEMU_SUITE; pinned in
# /etc/apt/preferences.d/quietcore-qemu so nothing else comes from it.
Types: deb
URIs: $mirror
Suites: $QC_QEMU_SUITE
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOT
write_if_changed /etc/apt/preferences.d/quietcore-qemu <<EOT
# quietcore (scripts/setup.sh): from $QC_QEMU_SUITE, QEMU alone.
Package: *
Pin: release n=$QC_QEMU_SUITE
Pin-Priority: 1

Package: $QC_QEMU_PACKAGES
Pin: release n=$QC_QEMU_SUITE
Pin-Priority: 990
EOT
apt-get update -q >/dev/null 2>&1 || true
apt-cache policy qemu-system-x86 | grep -q " $mirror $QC_QEMU_SUITE/" ||
	die "$QC_QEMU_SUITE cannot be reached at $mirror: check the network and 'apt-get update', then run make setup again"
info "installing QEMU from $QC_QEMU_SUITE: $QC_QEMU_PACKAGES"
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $QC_QEMU_PACKAGES >/dev/null ||
	die "apt-get could not install QEMU from $QC_QEMU_SUITE: check the output of 'apt-get install $QC_QEMU_PACKAGES'"
v=$(qc_check_qemu)
info "done: $(echo $pkgs | wc -w) packages present, QEMU $v"
