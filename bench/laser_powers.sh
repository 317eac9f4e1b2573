#!/usr/bin/env bash
# bench/laser_powers.sh - the laser game's facts over powers against an
# answer set encoding written apart (bench/laser/into.lp): on generated
# 5x5 levels with combiners, the number of tidy solutions that satisfy
# into(P + Q) >= 1 (a combiner adds P and Q and its beam reaches a target),
# levelkit (laser_driver count --satisfy) against clingo (refraction.lp
# with levelkit's extension, bench/laser/oracle.sh, plus into.lp), for
# three sums per level.  Part 5 of the section bench/laser_refraction.sh
# writes (its table is kept in BUILD_DIR/bench/laser20-parts/5.md).
#
# Usage: bench/laser_powers.sh [BUILD_DIR]   N_POWERS (40 levels per preset),
# CLINGO_TIMEOUT (30 s)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
drv=$build/laser_driver
tmp=$build/bench/laser-powers
frag=$build/bench/laser20-parts
n=${N_POWERS:-40}
limit=${CLINGO_TIMEOUT:-30}
[ -x "$drv" ] || { echo "bench: build first" >&2; exit 2; }
rm -rf "$tmp"
mkdir -p "$tmp" "$frag"
sh bench/laser/oracle.sh ../shared/laser/refraction.lp > "$tmp/sum.lp"
sums=("1/2 1/2" "1/2 1" "1 1")
res=$tmp/results
: > "$res"
for p in split-combine split-combine-2; do
	case $p in
	split-combine) pieces='1 SP2, 1 CMB2, 3 BND' ;;
	*) pieces='2 SP2, 2 CMB2, 4 BND' ;;
	esac
	# two sources of powers 1 and 1/2: beams of 1/2 and 1 to add
	"$drv" gen -n "$n" --seed 22 --preset "$p" --size 5x5 --pieces "$pieces" --distractors 1 \
		--sources 2 --powers '1, 1/2' > "$tmp/$p.txt" 2>/dev/null || true
	"$drv" convert "$tmp/$p.txt" lvl 2>/dev/null | awk -v f="$tmp/$p" '/^size/ { k++ } { print > (f "." k ".lvl") }'
	for lvl in "$tmp"/$p.*.lvl; do
		lp=${lvl%.lvl}.lp
		python3 bench/laser/lvl_facts.py "$lvl" > "$lp"
		unit=$(sed -n 's/^unit(\([0-9]*\))\.$/\1/p' "$lp")
		for s in "${sums[@]}"; do
			read -r a b <<<"$s"
			ours=$("$drv" count --tidy --timeout "$limit" --satisfy "into($a + $b) >= 1" "$lvl" |
				awk -F'\t' '{ print ($3 ~ />=/ ? "timeout" : $3), $5 }')
			# P and Q in the level's units; a power no beam can carry
			# (not a whole number of units) is wanted by no solution
			want=$(awk -v u="$unit" -v a="$a" -v b="$b" 'BEGIN {
				# a whole number ("1") has no denominator
				if (split(a, x, "/") < 2) x[2] = 1
				if (split(b, y, "/") < 2) y[2] = 1
				p = u * x[1] / x[2]; q = u * y[1] / y[2]
				if (p == int(p) && q == int(q)) printf "want(%d,%d).", p, q }')
			if [ -z "$want" ]; then
				theirs="0 0"
			else
				echo "$want" > "$tmp/want.lp"
				# LIMIT s of CPU, as laser_refraction.sh
				out=$( (ulimit -t "$limit"; exec timeout $((10 * limit)) clingo "$tmp/sum.lp" "$lp" \
					bench/laser/into.lp "$tmp/want.lp" -c tidy=1 0 -q) 2>/dev/null || true)
				m=$(sed -n 's/^Models *: *\([0-9]*\)$/\1/p' <<<"$out")
				t=$(sed -n 's/^CPU Time *: *\([0-9.]*\)s.*/\1/p' <<<"$out")
				[ -n "$m" ] && theirs="$m $t" || theirs="timeout $limit"
			fi
			echo "$p $a+$b $ours $theirs" >> "$res"
		done
	done
done
# columns: preset sum ours ours_s clingo clingo_s
bad=$(awk '$3 != "timeout" && $5 != "timeout" && $3 != $5' "$res" | wc -l)
{
	echo "### Facts over powers against an answer set encoding"
	echo
	echo "\`bench/laser_powers.sh\`: $n generated 5x5 levels each of \`split-combine\` and \`split-combine-2\` (two sources, of"
	echo 'powers 1 and 1/2); for each,'
	echo 'the number of tidy solutions with a beam into a target that a combiner made by adding P and Q'
	echo '(`into(P + Q) >= 1`), for three sums: levelkit'"'"'s search with the concept (bounded at every node)'
	echo 'against clingo on `bench/laser/into.lp`, written apart from `laser_powers.c`.'
	echo
	echo '| sum | compared | equal | differ | timed out (levelkit/clingo) | levels where some solution has it | levelkit s | clingo s |'
	echo '|---|---|---|---|---|---|---|---|'
	for s in "${sums[@]}"; do
		read -r a b <<<"$s"
		awk -v s="$a+$b" '$2 == s {
			n++
			if ($3 == "timeout" || $5 == "timeout") { ot += $3 == "timeout"; ct += $5 == "timeout"; next }
			eq += $3 == $5; ne += $3 != $5; some += $3 > 0; a += $4; c += $6
		} END { printf "| %s | %d | %d | %d | %d/%d | %d | %.3f | %.1f |\n", s, n, eq, ne, ot, ct, some, a, c }' "$res"
	done
	echo
	echo "(Run on $(date -u +%Y-%m-%d), load average $(cut -d' ' -f1-3 /proc/loadavg) at its end; answers that differ: $bad.)"
	echo
} > "$frag/5.md"
cat "$frag/5.md"
if [ "$bad" -ne 0 ]; then
	awk '$3 != "timeout" && $5 != "timeout" && $3 != $5' "$res" >&2
	echo "bench: facts over powers: answers differ from clingo" >&2
	exit 1
fi
