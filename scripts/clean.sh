#!/bin/sh
# clean.sh [--all]: remove build outputs from the cache (the pristine tree,
# patched trees and ccache stay unless --all). results/ is never touched.
set -eu
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
. "$here/lib/paths.sh"
. "$here/lib/log.sh"
info "removing $QC_CACHE/build and $QC_CACHE/initramfs"
rm -rf "$QC_CACHE/build" "$QC_CACHE/initramfs"
if [ "${1:-}" = --all ]; then
	info "removing all of $QC_CACHE"
	rm -rf "$QC_CACHE"
fi
