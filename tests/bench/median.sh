# Sourced by the benchmark scripts that take a median over runs (POSIX sh).
# med: the median of the numbers on stdin, one per line or space-separated
# (the lower middle one for an even count).
med() { tr ' ' '\n' | grep . | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
