# IRQ affinity for isolate.sh (busybox ash; sourced by it, never run):
# new IRQs default to the housekeeping CPUs and existing ones are moved
# there. Managed IRQs (multiqueue devices) refuse with EIO: the kernel owns
# their affinity and isolcpus=managed_irq keeps them off isolated CPUs
# where it can; the refused ones go in the record (irq.refused), which
# verify.sh --record reads.

# steer_irqs: uses isolate.sh's hk_mask, hk_list, set_file and rec.
steer_irqs() {
	qc_cpulist_hexmask "$hk_mask"
	set_file irq.default_smp_affinity /proc/irq/default_smp_affinity "$HEXMASK"
	irq_set=0 irq_refused=
	for d in /proc/irq/[0-9]*; do
		n=${d##*/}
		read_first "$d/smp_affinity_list"
		[ "$LINE" != "$hk_list" ] || continue
		if echo "$hk_list" > "$d/smp_affinity_list" 2>/dev/null; then
			irq_set=$((irq_set + 1))
			rec "irq.$n.was" "$LINE"
		else
			irq_refused="$irq_refused $n"
		fi
	done
	rec irq.moved "$irq_set"
	rec irq.refused "${irq_refused# }"
}
