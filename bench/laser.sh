#!/usr/bin/env bash
# bench/laser.sh - the laser game's figures (issue 14), written to
# docs/benchmarks.md (section "laser"):
#  1. the three example levels of ../shared/laser: counts (all, tidy) and
#     the oracle's own shortcut query (no splitter fires), levelkit against
#     clingo on the ASP encoding of the same rules (refraction.lp);
#  2. generated levels small enough for clingo (5x5), N_SMALL per concept
#     preset: counts of all and of tidy solutions, and shortcut verdicts for
#     the level's own concept and for the next preset's, every one compared,
#     and the time each tool takes;
#  3. 10x10 generated levels, a few per preset, against clingo with a time
#     limit;
#  4. generation on 10x10, N_GEN levels per preset on one core: time per
#     shortcut-free level, and every level re-checked apart (all its tidy
#     solutions enumerated by the plain search, each judged by the
#     whole-placement simulation: zero may violate the concept);
#  5. throughput: two processes (this machine's two cores) generating the
#     presets in turn for THROUGHPUT_SECONDS;
#  6. then bench/laser_refraction.sh (issue 20, section "laser-20").
#
# Usage: bench/laser.sh [BUILD_DIR]     (default: build/release)
# gringo (which holds clingo) is installed here if missing (a Debian
# package; never a dependency of levelkit); python3 runs lvl2lp.py.
# N_SMALL (100), N_GEN (100), N_BIG (2), CLINGO_TIMEOUT (30 s), EXAMPLE_TIMEOUT
# (120 s, for the three examples),
# THROUGHPUT_SECONDS (300).  Takes about an hour on this 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
build=${1:-build/release}
drv=$build/laser_driver
oracle=../shared/laser
asp=bench/laser
tmp=$build/bench/laser
n_small=${N_SMALL:-100}
n_gen=${N_GEN:-100}
n_big=${N_BIG:-2}
limit=${CLINGO_TIMEOUT:-30}
example_limit=${EXAMPLE_TIMEOUT:-120}
tp_seconds=${THROUGHPUT_SECONDS:-300}
presets=(split-combine split-combine-2 six-benders monolithic monolithic-open monolithic-tidy monolithic-open-tidy)
# pieces for 5x5 boards, small enough for clingo to finish
declare -A small=(
	[split-combine]="--pieces '1 SP2, 1 CMB2, 3 BND' --distractors 1"
	[split-combine-2]="--pieces '2 SP2, 2 CMB2, 4 BND' --distractors 0"
	[six-benders]="--pieces '7 BND' --distractors 1"
	[monolithic]="--sources 2 --targets 1-2 --pieces '1 SP2, 2 CMB2, 3 BND' --distractors 0"
	[monolithic-open]="--sources 2 --targets 1-2 --pieces '1 SP2, 2 CMB2, 3 BND' --distractors 0"
	[monolithic-tidy]="--sources 2 --targets 1-2 --pieces '1 SP2, 2 CMB2, 3 BND' --distractors 1"
	[monolithic-open-tidy]="--sources 2 --targets 1-2 --pieces '1 SP2, 2 CMB2, 3 BND' --distractors 1"
)
# presets whose guarantee covers all solutions, not only tidy ones
over_all() { case $1 in monolithic | monolithic-open) return 0 ;; *) return 1 ;; esac; }
[ -x "$drv" ] || { echo "bench: build first: cmake --workflow --preset release" >&2; exit 2; }
command -v python3 >/dev/null || { echo "bench: python3 is needed for lvl2lp.py" >&2; exit 2; }
if ! command -v clingo >/dev/null; then
	echo "bench: installing gringo (clingo; benchmark only)" >&2
	SUDO=
	[ "$(id -u)" -eq 0 ] || SUDO=sudo
	$SUDO apt-get install -y --no-install-recommends gringo >&2
fi
rm -rf "$tmp"
mkdir -p "$tmp"
now() { date +%s.%N; }
# the oracle with levelkit's one extension of SPEC.md (targets on several
# sides add their beams; docs/games/laser.md), made from the shared file
oracle_lp=$tmp/refraction-sum.lp
sh bench/laser/oracle.sh "$oracle/refraction.lp" > "$oracle_lp"

# clingo_run MODE LP [CONCEPT] -> "answer seconds" (answer: a count, sat,
# unsat, or timeout); seconds are clingo's own (grounding and solving).
clingo_run() {
	local mode=$1 lp=$2 concept=${3:-} out tidy=(-c tidy=1)
	local args=("$oracle_lp" "$lp")
	over_all "$concept" && tidy=()
	case $mode in
	all) args+=(0 --project -q) ;;
	tidy) args+=(-c tidy=1 0 -q) ;;
	nosplit) args+=("$oracle/no_splitter.lp" -c tidy=1 1 -q) ;;
	shortcut) args+=("$asp/concepts.lp" "$asp/$concept.lp" ${tidy[@]+"${tidy[@]}"} 1 -q) ;;
	esac
	out=$(timeout "$limit" clingo "${args[@]}" 2>/dev/null || true)
	local secs answer
	secs=$(sed -n 's/^Time *: *\([0-9.]*\)s.*/\1/p' <<<"$out")
	case $mode in
	all | tidy) answer=$(sed -n 's/^Models *: *\([0-9]*\)$/\1/p' <<<"$out") ;;
	*) answer=$(grep -qx UNSATISFIABLE <<<"$out" && echo unsat || (grep -qx SATISFIABLE <<<"$out" && echo sat) || true) ;;
	esac
	[ -n "$answer" ] && [ -n "$secs" ] && echo "$answer $secs" || echo "timeout $limit"
}

# levelkit's answers in the same words: ours MODE FILE [CONCEPT] -> "answer seconds"
ours() {
	local mode=$1 file=$2 concept=${3:-}
	case $mode in
	all) "$drv" count "$file" | awk -F'\t' '{print $3, $5}' ;;
	tidy) "$drv" count --tidy "$file" | awk -F'\t' '{print $3, $5}' ;;
	nosplit) "$drv" shortcut 'uses(splitter)' "$file" |
		awk -F'\t' '{print ($3 == "shortcut" ? "sat" : $3 == "none" ? "unsat" : "unknown"), $6}' ;;
	shortcut)
		local all=()
		over_all "$concept" && all=(--all)
		"$drv" shortcut ${all[@]+"${all[@]}"} "$concept" "$file" |
		awk -F'\t' '{print ($3 == "shortcut" ? "sat" : $3 == "none" ? "unsat" : "unknown"), $6}' ;;
	esac
}

# compare FILE MODE [CONCEPT]: one line "mode ours ours_s clingo clingo_s"
compare() {
	local file=$1 mode=$2 concept=${3:-} lp=${1%.lvl}.lp
	[ -f "$lp" ] || python3 bench/laser/lvl_facts.py "$file" > "$lp"
	echo "$mode $(ours "$mode" "$file" "$concept") $(clingo_run "$mode" "$lp" "$concept")"
}

# split FILE PREFIX: the levels of a record file as PREFIX.N.lvl
split_levels() {
	"$drv" convert "$1" lvl | awk -v p="$2" '/^size/ { n++ } { print > (p "." n ".lvl") }'
}

sect=$tmp/section.md
{
	echo '## Laser (issue 14)'
	echo
	echo "Written by \`bench/laser.sh\` on $(date -u +%Y-%m-%d) ($(nproc) cores, $(clingo --version | head -1);"
	echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the start: the machine is shared, so wall-clock"
	echo 'figures are upper bounds and the CPU seconds are the steadier measure).'
	echo 'levelkit times are its own search time per level (`laser_driver`, one process for many levels,'
	echo 'the library calls `solve`, `gen laser` and `solve --shortcut` make);'
	echo "clingo's are its own \`Time\` (grounding and solving), with a limit of $limit s."
	echo
} > "$sect"

# ------------------------------------------------------- 1. the examples
echo "bench: examples" >&2
{
	echo '### The example levels'
	echo
	echo '| level | all: levelkit | all: clingo | tidy: levelkit | tidy: clingo | no splitter: levelkit | no splitter: clingo |'
	echo '|---|---|---|---|---|---|---|'
} >> "$sect"
saved_limit=$limit
limit=$example_limit
for lvl in split combine big10; do
	cp "$oracle/levels/$lvl.lvl" "$tmp/$lvl.lvl"
	# our converter (which takes targets on several sides) writes what the
	# shared one writes on SPEC.md's levels
	if ! cmp -s <(python3 "$oracle/lvl2lp.py" "$tmp/$lvl.lvl" | sort) \
		<(python3 bench/laser/lvl_facts.py "$tmp/$lvl.lvl" | sort); then
		echo "bench: $lvl: bench/laser/lvl_facts.py and lvl2lp.py write different facts" >&2
		exit 1
	fi
	row="| $lvl"
	for mode in all tidy nosplit; do
		read -r _ a as c cs <<<"$(compare "$tmp/$lvl.lvl" $mode)"
		row="$row | $a ($as s) | $c ($cs s)"
		if [ "$c" != timeout ] && [ "$a" != "$c" ]; then
			echo "bench: $lvl $mode: levelkit $a, clingo $c" >&2
			exit 1
		fi
	done
	echo "$row |" >> "$sect"
done
limit=$saved_limit
{
	echo
	echo "(clingo's limit here: $example_limit s.)"
	echo
} >> "$sect"

# ---------------------------------------- 2. small generated levels vs clingo
echo "bench: small levels against clingo" >&2
results=$tmp/small.txt
: > "$results"
for i in "${!presets[@]}"; do
	p=${presets[$i]}
	other=${presets[$(((i + 1) % ${#presets[@]}))]}
	eval "\"$drv\" gen -n $n_small --seed 14 --preset $p --size 5x5 ${small[$p]}" \
		> "$tmp/small-$p.txt" 2> "$tmp/small-$p.err"
	split_levels "$tmp/small-$p.txt" "$tmp/small.$p"
	for f in "$tmp"/small.$p.*.lvl; do
		for mode in all tidy; do
			echo "$p $(compare "$f" $mode)" >> "$results"
		done
		echo "$p $(compare "$f" shortcut "$p") own" >> "$results"
		echo "$p $(compare "$f" shortcut "$other") other" >> "$results"
	done
done
# columns: preset mode ours ours_s clingo clingo_s [own|other]
mismatch=$(awk '$5 != "timeout" && $3 != $5' "$results" | wc -l)
if [ "$mismatch" -ne 0 ]; then
	awk '$5 != "timeout" && $3 != $5' "$results" >&2
	echo "bench: $mismatch answers differ from clingo" >&2
	exit 1
fi
levels=$(awk '$2 == "tidy"' "$results" | wc -l)
{
	echo "### $levels generated levels (5x5) against clingo"
	echo
	echo 'Each level is compared four ways: the number of all solutions, of tidy solutions, and the'
	echo "shortcut verdict (tidy, as the oracle's query) for the level's own concept and for the next"
	echo "preset's concept, which some levels have shortcuts for.  Answers that differ: $mismatch."
	echo
	echo '| query | compared | clingo timed out | shortcuts (own / other) | levelkit total | clingo total | ratio | median ratio per level |'
	echo '|---|---|---|---|---|---|---|---|'
	for q in all tidy own other; do
		# the per-level ratios, sorted, for the median (mawk has no asort)
		awk -v q="$q" '
			(q == "all" || q == "tidy") && $2 != q { next }
			(q == "own" || q == "other") && $7 != q { next }
			$5 != "timeout" { print $6 / ($4 > 1e-6 ? $4 : 1e-6) }' "$results" | sort -g > "$tmp/ratios"
		med=$(awk '{ r[NR] = $1 } END { print NR ? r[int((NR + 1) / 2)] : 0 }' "$tmp/ratios")
		awk -v q="$q" -v med="$med" '
			(q == "all" || q == "tidy") && $2 != q { next }
			(q == "own" || q == "other") && $7 != q { next }
			{ n++ }
			$5 == "timeout" { to++; next }
			{ a += $4; c += $6; sat += $5 == "sat" }
			END {
				printf "| %s | %d | %d | %s | %.3f s | %.1f s | %.0fx | %.0fx |\n", q, n, to,
				       ((q == "own" || q == "other") ? sat : "-"), a, c, (a > 0 ? c / a : 0), med
			}' "$results"
	done
	echo
} >> "$sect"

# ---------------------------------------- 3. 10x10 generated levels vs clingo
echo "bench: 10x10 levels against clingo" >&2
big=$tmp/big.txt
: > "$big"
for p in "${presets[@]}"; do
	"$drv" gen -n "$n_big" --seed 15 --preset "$p" > "$tmp/big-$p.txt" 2>/dev/null
	split_levels "$tmp/big-$p.txt" "$tmp/big.$p"
	for f in "$tmp"/big.$p.*.lvl; do
		echo "$p $(compare "$f" tidy)" >> "$big"
		echo "$p $(compare "$f" shortcut "$p")" >> "$big"
	done
done
{
	echo "### 10x10 generated levels against clingo ($n_big per preset)"
	echo
	echo '| preset | query | levelkit | clingo |'
	echo '|---|---|---|---|'
	awk '{ printf "| %s | %s | %s (%s s) | %s (%s s) |\n", $1, $2, $3, $4, $5, $6 }' "$big"
	echo
} >> "$sect"
if awk '$5 != "timeout" && $3 != $5' "$big" | grep -q .; then
	echo "bench: 10x10 answers differ from clingo" >&2
	exit 1
fi

# ------------------------------------------------------- 4. generation
echo "bench: generation" >&2
{
	echo "### Generation on 10x10, one core ($n_gen levels per preset)"
	echo
	echo 'Seconds per shortcut-free level (wall clock, each level from its own (seed, index));'
	echo 'rounds are shortcut queries, cuts the blockers and tray pieces they led to; re-checked:'
	echo 'every level'"'"'s tidy solutions (all its solutions, one by one, for monolithic and monolithic-open)'
	echo 'enumerated without the concept and judged by the simulation'
	echo '(a level whose enumeration takes over a minute is left unchecked: the last column says how many were).'
	echo
	echo '| preset | levels | median s | mean s | 90% s | max s | CPU s per level | rounds per level | blockers in a level | boards proved hopeless | re-checked: shortcuts found |'
	echo '|---|---|---|---|---|---|---|---|---|---|---|'
} >> "$sect"
for p in "${presets[@]}"; do
	t0=$(now)
	/usr/bin/time -f %U -o "$tmp/gen-$p.cpu" "$drv" gen -n "$n_gen" --seed 16 --preset "$p" \
		--stats "$tmp/gen-$p.stats" > "$tmp/gen-$p.txt" 2> "$tmp/gen-$p.err" || true
	cpu=$(cat "$tmp/gen-$p.cpu")
	all=()
	over_all "$p" && all=(--all)
	"$drv" recheck ${all[@]+"${all[@]}"} "$p" "$tmp/gen-$p.txt" > "$tmp/recheck-$p.txt" || true
	found=$(awk -F'\t' '$4 != 0' "$tmp/recheck-$p.txt" | wc -l)
	checked=$(awk -F'\t' '$3 !~ />=/' "$tmp/recheck-$p.txt" | wc -l)
	# blockers per level: '#' in grid lines (lines without a field or comment)
	blockers=$(awk '/^title:/ { n++ } !/^[A-Za-z][A-Za-z0-9_.-]*:/ && !/^;/ { b += gsub(/#/, "#") }
		END { printf "%.1f", n ? b / n : 0 }' "$tmp/gen-$p.txt")
	sort -t$'\t' -k3,3n "$tmp/gen-$p.stats" | awk -F'\t' -v p="$p" -v cpu="$cpu" -v found="$found" -v checked="$checked" -v bl="$blockers" '
		{ t[++n] = $3; s += $3; ok += $2 == "ok"; r += $6; b += $7; pr += $10 }
		END {
			printf "| %s | %d of %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.1f | %s | %d | %d of %d |\n", p, ok, n,
			       t[int((n + 1) / 2)], s / n, t[int(n * 0.9 + 0.5)], t[n], cpu / n, r / n, bl, pr,
			       found, checked
		}' >> "$sect"
done
echo >> "$sect"

# ------------------------------------------------------- 5. throughput
echo "bench: throughput" >&2
for k in 1 2; do
	(
		i=0
		end=$(( $(date +%s) + tp_seconds ))
		while [ "$(date +%s)" -lt "$end" ]; do
			p=${presets[$((i % ${#presets[@]}))]}
			timeout $(( end - $(date +%s) + 1 )) "$drv" gen -n 1 --start $((i * 2 + k)) --seed 17 \
				--preset "$p" 2>/dev/null | grep -c '^requires:' || true
			i=$((i + 1))
		done
	) > "$tmp/throughput-$k.txt" &
done
wait
made=$(cat "$tmp"/throughput-*.txt | awk '{ s += $1 } END { print s + 0 }')
{
	echo "### Throughput"
	echo
	echo "Two processes, the five presets in turn, for $tp_seconds s: $made shortcut-free 10x10 levels, $(awk -v m="$made" -v t="$tp_seconds" 'BEGIN { printf "%.0f", m * 3600 / t }') an hour."
	echo
} >> "$sect"
write_section laser "$sect"
echo "bench: written to docs/benchmarks.md" >&2
# issue 20's figures: Refraction's own levels, targets on several sides,
# the paper's scale, symmetric blockers (its own section)
bench/laser_refraction.sh "$build"
