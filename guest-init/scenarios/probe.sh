# Scenario "probe": boot and exit at once. scripts/accel.sh uses it to see
# whether an accelerator really runs a guest.
exit 0
