# The stale-translation race alone, without the kernel's text patching
# (docs/int3/README.md): docs/int3/smc-race.c, built static on the host
# and carried in the guest script made from this one, run on vCPUs 1-2:
#   gcc -O2 -static -pthread -o /tmp/smc-race docs/int3/smc-race.c
#   { echo 'base64 -d > /tmp/smc-race <<EOF_SMC'; base64 /tmp/smc-race; echo EOF_SMC;
#     tail -n +9 docs/int3/smc-race.sh; } > /tmp/smc-guest.sh
#   scripts/run.sh -V spinlock --no-build --smp 4 -d 10 --guest-script /tmp/smc-guest.sh
# Each delay (spins between the two stores) gets its line in the console.
chmod +x /tmp/smc-race
/tmp/smc-race "${SMC_ROUNDS:-20000}" 0 30 100 300 1000 3000
