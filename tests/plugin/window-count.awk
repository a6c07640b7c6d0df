# window-count.awk: from objdump -d output, the number of instructions a
# marker window executes, for tests/test-plugin*.sh. The window is the code
# after the open marker (xchg %bx,%bx or %ebx,%ebx) following the symbol
# named by -v from=NAME, up to the close marker (xchg %cx,%cx or
# %ecx,%ecx), both markers excluded. One backward jump in it is the loop:
# its body (from the jump's target to the jump) runs -v loops=N times,
# everything else once.
function hex(s,  v, i) {
	v = 0
	for (i = 1; i <= length(s); i++)
		v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}
BEGIN { n = 0 }
$0 ~ "<" from ">:$" { seen = 1; next }
seen && !on && /xchg +%e?bx,%e?bx/ { on = 1; next }
on && /xchg +%e?cx,%e?cx/ { done = 1; exit }
on && /^ *[0-9a-f]+:/ {
	a = $1
	sub(":", "", a)
	addr[n] = hex(a)
	if (match($0, /\tj[a-z]+ +[0-9a-f]+ /)) {
		t = substr($0, RSTART, RLENGTH)
		sub(/\tj[a-z]+ +/, "", t)
		sub(/ $/, "", t)
		jump[n] = hex(t)
	}
	n++
}
END {
	if (!done) { print "window-count: no marker window after <" from ">" > "/dev/stderr"; exit 1 }
	body = 0
	for (i = 0; i < n; i++)
		if ((i in jump) && jump[i] < addr[i])
			for (j = 0; j <= i; j++)
				if (addr[j] >= jump[i])
					body++
	print (n - body) + loops * body
}
