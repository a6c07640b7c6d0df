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

# kernel sources: every tree patches/series builds from; and the build
pkgs="$(qc_registry | awk '{ print $3 }' | sort -u | paste -sd' ' -)"
pkgs="$pkgs gcc make bc flex bison libelf-dev libssl-dev cpio xz-utils ccache git sparse kmod"
# guest: emulator, measurement tools, userland
pkgs="$pkgs qemu-system-x86 rt-tests trace-cmd busybox-static"
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
info "done: $(echo $pkgs | wc -w) packages present"
