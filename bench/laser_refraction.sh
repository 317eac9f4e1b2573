#!/usr/bin/env bash
# bench/laser_refraction.sh - the laser game's figures for issue 20, written
# to docs/benchmarks.md (section "laser-20"); bench/laser.sh runs it last.
#  1. Refraction's own levels (the 61 puzzles of the original game and the
#     35 of BrainPOP's progression, as JSON in edbutler/infinite-refraction's
#     puzzles/; not in this repository: REFRACTION_DIR names a directory
#     holding original.txt and brainpop.txt, and the part is skipped without
#     it): every designer's solution verified, and per level the tidy count
#     and the oracle's own shortcut query (a tidy solution in which no
#     splitter fires), levelkit against clingo on the oracle with levelkit's
#     one extension (targets on several sides add their beams,
#     bench/laser/oracle.sh), both with a time limit;
#  2. generated 5x5 levels whose targets may sit on up to three sides,
#     counts (all, tidy) and shortcut verdicts against the same oracle;
#  3. generation at the paper's scale on 10x10, one core: the presets with
#     the 28-piece palette 6 SP2, 2 SP3, 6 CMB2, 2 CMB3, 12 BND, first designs
#     from the whole palette (as before issue 20) within PALETTE_SECONDS
#     each, and from sub-palettes; then levels of about 40 pieces (three
#     sources, at least 12 pieces placed, 6 distractors, 10 blockers first);
#     the paper's times beside them;
#  4. symmetric blockers (the paper's Form constraint): time per level and
#     every level's blockers checked invariant;
#  5. the facts over powers against an answer set encoding written apart
#     (bench/laser_powers.sh).
#
# Usage: bench/laser_refraction.sh [BUILD_DIR]   (default: build/release)
# N_SUM (60 per preset), N_SCALE (10 per concept), PALETTE_SECONDS (120),
# SCALE_SECONDS (1800: CPU seconds for each run of N_SCALE levels in parts
# 3 and 4), SCALE_PRESETS (part 3's concepts; all seven),
# CLINGO_TIMEOUT (30 s), CLINGO_TIMEOUT_MULTI (part 1's limit on levels with a
# target on several sides; CLINGO_TIMEOUT), REFRACTION_JOBS (part 1's levels
# run at once, 1), REFRACTION_DIR (unset: part 1 skipped),
# REFRACTION_FILES (part 1's files, "original brainpop"), PARTS
# ("1 2 3 4 5"): the parts to run now; each part's table is kept in
# BUILD_DIR/bench/laser20-parts, and the section is made of the latest of
# each, so parts may be run apart.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
build=${1:-build/release}
drv=$build/laser_driver
solve=$build/solve
oracle=../shared/laser
asp=bench/laser
tmp=$build/bench/laser20
n_sum=${N_SUM:-60}
n_scale=${N_SCALE:-10}
palette_seconds=${PALETTE_SECONDS:-120}
scale_seconds=${SCALE_SECONDS:-1800}
limit=${CLINGO_TIMEOUT:-30}
limit_one=$limit
limit_multi=${CLINGO_TIMEOUT_MULTI:-$limit}
ref_jobs=${REFRACTION_JOBS:-1}
# levelkit's limits and times: CPU seconds under LEVELKIT_CLOCK=cpu
lk_clock="wall clock"
[ "${LEVELKIT_CLOCK:-}" = cpu ] && lk_clock=CPU
[ -x "$drv" ] || { echo "bench: build first: cmake --workflow --preset release" >&2; exit 2; }
command -v clingo >/dev/null || { echo "bench: clingo is needed (apt-get install gringo)" >&2; exit 2; }
parts=${PARTS:-1 2 3 4 5}
frag=$build/bench/laser20-parts
rm -rf "$tmp"
mkdir -p "$tmp" "$frag"
run_part() { case " $parts " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
oracle_lp=$tmp/refraction-sum.lp
sh bench/laser/oracle.sh "$oracle/refraction.lp" > "$oracle_lp"
palette='6 SP2, 2 SP3, 6 CMB2, 2 CMB3, 12 BND'
presets=(split-combine split-combine-2 six-benders monolithic monolithic-open monolithic-tidy monolithic-open-tidy)
over_all() { case $1 in monolithic | monolithic-open) return 0 ;; *) return 1 ;; esac; }
cpu() { awk '{ print $1 }' "$1"; }

# clingo_run MODE LP [CONCEPT] -> "answer seconds" (as bench/laser.sh)
clingo_run() {
	local mode=$1 lp=$2 concept=${3:-} out tidy=(-c tidy=1) args
	args=("$oracle_lp" "$lp")
	over_all "$concept" && tidy=()
	case $mode in
	all) args+=(0 --project -q) ;;
	tidy) args+=(-c tidy=1 0 -q) ;;
	nosplit) args+=("$oracle/no_splitter.lp" -c tidy=1 1 -q) ;;
	shortcut) args+=("$asp/concepts.lp" "$asp/$concept.lp" ${tidy[@]+"${tidy[@]}"} 1 -q) ;;
	esac
	# LIMIT s of CPU (the machine is shared: a wall-clock limit would
	# measure the load), ten times that on the wall clock at most
	out=$( (ulimit -t "$limit"; exec timeout $((10 * limit)) clingo "${args[@]}") 2>/dev/null || true)
	local secs answer
	secs=$(sed -n 's/^CPU Time *: *\([0-9.]*\)s.*/\1/p' <<<"$out")
	case $mode in
	all | tidy) answer=$(sed -n 's/^Models *: *\([0-9]*\)$/\1/p' <<<"$out") ;;
	*) answer=$(grep -qx UNSATISFIABLE <<<"$out" && echo unsat || (grep -qx SATISFIABLE <<<"$out" && echo sat) || true) ;;
	esac
	[ -n "$answer" ] && [ -n "$secs" ] && echo "$answer $secs" || echo "timeout $limit"
}

# ours MODE FILE [CONCEPT] -> "answer seconds"; unknown past the limit
ours() {
	local mode=$1 file=$2 concept=${3:-} all=()
	over_all "$concept" && all=(--all)
	case $mode in
	all) "$drv" count --timeout "$limit" "$file" | awk -F'\t' '{print ($3 ~ />=/ ? "timeout" : $3), $5}' ;;
	tidy) "$drv" count --tidy --timeout "$limit" "$file" | awk -F'\t' '{print ($3 ~ />=/ ? "timeout" : $3), $5}' ;;
	nosplit) "$drv" shortcut --timeout "$limit" 'uses(splitter)' "$file" |
		awk -F'\t' '{print ($3 == "shortcut" ? "sat" : $3 == "none" ? "unsat" : "timeout"), $6}' ;;
	shortcut) "$drv" shortcut ${all[@]+"${all[@]}"} --timeout "$limit" "$concept" "$file" |
		awk -F'\t' '{print ($3 == "shortcut" ? "sat" : $3 == "none" ? "unsat" : "timeout"), $6}' ;;
	esac
}

# compare FILE.lvl MODE [CONCEPT]: "mode ours ours_s clingo clingo_s"
compare() {
	local file=$1 mode=$2 concept=${3:-} lp=${1%.lvl}.lp
	[ -f "$lp" ] || python3 bench/laser/lvl_facts.py "$file" > "$lp"
	echo "$mode $(ours "$mode" "$file" "$concept") $(clingo_run "$mode" "$lp" "$concept")"
}

# split_levels FILE PREFIX: the levels of any file the commands read as PREFIX.N.lvl
split_levels() {
	"$drv" convert "$1" lvl 2>/dev/null | awk -v p="$2" '/^size/ { n++ } { print > (p "." n ".lvl") }'
}

# summary RESULTS MODE: "compared equal differ timeouts ours_total
# clingo_total"; timeouts are "levelkit's/clingo's" (both: counted twice)
summary() {
	awk -v m="$2" '$1 == m {
		n++
		if ($2 == "timeout" || $4 == "timeout") { ot += $2 == "timeout"; ct += $4 == "timeout"; next }
		eq += $2 == $4; ne += $2 != $4; a += $3; c += $5
	} END { printf "%d %d %d %d/%d %.3f %.1f\n", n, eq, ne, ot, ct, a, c }' "$1"
}

# a part's table: written to $frag/N.md with when and how it was run
sect=
begin_part() {
	sect=$frag/$1.md
	: > "$sect"
}
end_part() {
	echo "(Run on $(date -u +%Y-%m-%d), load average $(cut -d' ' -f1-3 /proc/loadavg) at its end; clingo limited to $limit s of CPU a query, levelkit to $limit s of $lk_clock.)" >> "$sect"
	echo >> "$sect"
}

# ------------------------------------------------ 1. Refraction's levels
if run_part 1 && [ -n "${REFRACTION_DIR:-}" ] && [ -f "$REFRACTION_DIR/original.txt" ]; then
	begin_part 1
	echo "bench: Refraction's levels" >&2
	{
		echo "### Refraction's own levels against the oracle"
		echo
		echo 'Every level of `original.txt` (the original game, with Refraction 2 rules) and `brainpop.txt`'
		echo '(BrainPOP'"'"'s progression) read as the commands read it; the designer'"'"'s placement is each record'"'"'s'
		echo '`solution`.  Tidy counts and the oracle'"'"'s shortcut query (a tidy solution without a firing splitter).'
		echo
		echo '| file | levels | with a target on several sides | designer'"'"'s solution verified (tidy) | tidy counts equal / differ / timed out (levelkit/clingo) | no-splitter verdicts equal / differ / timed out (levelkit/clingo) | levelkit s | clingo s (decided by both) |'
		echo '|---|---|---|---|---|---|---|---|'
	} >> "$sect"
	for f in ${REFRACTION_FILES:-original brainpop}; do
		src=$REFRACTION_DIR/$f.txt
		[ -f "$src" ] || continue
		"$solve" --verify "$src" > "$tmp/$f.verified" 2>/dev/null || true
		nlev=$(grep -c '^verified:' "$tmp/$f.verified" || true)
		yes=$(grep -c '^verified: yes' "$tmp/$f.verified" || true)
		tidy=$(grep -c '^verify-note: .*; tidy$' "$tmp/$f.verified" || true)
		multi=$(awk '/^fixed: . TGT [NESW][NESW]+>/ { n[rec]++ } /^title:/ { rec++ } END { c = 0; for (r in n) c++; print c }' "$tmp/$f.verified")
		split_levels "$src" "$tmp/$f"
		: > "$tmp/$f.results"
		: > "$tmp/$f.timeouts"
		# a level with a target on several sides may get a larger limit
		# (CLINGO_TIMEOUT_MULTI); each result line ends with the level's
		# number, its limit and "multi" or "one"
		# REFRACTION_JOBS levels at a time (each side's limit is CPU
		# time, so they do not measure one another)
		for lvl in "$tmp"/$f.*.lvl; do
			(
				n=${lvl##*/$f.}
				n=${n%.lvl}
				kind=one
				grep -q '^fixed [A-Z] TGT [NESW][NESW]' "$lvl" && kind=multi
				lim=$limit_one
				[ $kind = multi ] && lim=$limit_multi
				limit=$lim
				echo "$(compare "$lvl" tidy) $n $lim $kind"
				echo "$(compare "$lvl" nosplit) $n $lim $kind"
			) > "$lvl.res" &
			while [ "$(jobs -rp | wc -l)" -ge "$ref_jobs" ]; do wait -n || true; done
		done
		wait
		for lvl in "$tmp"/$f.*.lvl; do cat "$lvl.res"; done > "$tmp/$f.results"
		# every level not decided by both sides, named with the side that timed out
		awk '$2 == "timeout" || $4 == "timeout" {
			who = ($2 == "timeout" && $4 == "timeout") ? "both" : ($2 == "timeout" ? "levelkit" : "clingo")
			q = $1 == "tidy" ? "tidy count" : "no-splitter verdict"
			ans = $2 != "timeout" ? " (levelkit: " $2 ")" : ($4 != "timeout" ? " (clingo: " $4 ")" : "")
			printf "%s %d %s: %s timed out at %s s (%s)%s\n", f, $6, q, who, $7, $8 == "multi" ? "targets on several sides" : "one-sided targets", ans
		}' f="$f" "$tmp/$f.results" | sort -k2,2n >> "$tmp/$f.timeouts"
		read -r tn teq tne tto ta tc <<<"$(summary "$tmp/$f.results" tidy)"
		read -r sn seq sne sto sa sc <<<"$(summary "$tmp/$f.results" nosplit)"
		echo "| $f | $nlev | $multi | $yes of $nlev ($tidy tidy) | $teq / $tne / $tto | $seq / $sne / $sto | $(awk -v a="$ta" -v b="$sa" 'BEGIN { printf "%.3f", a + b }') | $(awk -v a="$tc" -v b="$sc" 'BEGIN { printf "%.1f", a + b }') |" >> "$sect"
		if [ "$tne" != 0 ] || [ "$sne" != 0 ]; then
			awk '$2 != "timeout" && $4 != "timeout" && $2 != $4' "$tmp/$f.results" >&2
			echo "bench: $f: answers differ from clingo" >&2
			exit 1
		fi
	done
	echo >> "$sect"
	{
		echo "Limits: $limit_one s of CPU for clingo and of $lk_clock for levelkit a query; $limit_multi s on the levels"
		echo "with a target on several sides (clingo also stopped at ten times its limit on the wall clock).  Every query"
		echo "not decided by both sides (the other side's answer in brackets):"
		echo
		for f in ${REFRACTION_FILES:-original brainpop}; do
			[ -s "$tmp/$f.timeouts" ] && sed 's/^/- /' "$tmp/$f.timeouts"
		done
		cat "$tmp"/*.timeouts | grep -q . || echo "- none"
		echo
	} >> "$sect"
	end_part
elif run_part 1; then
	echo "bench: REFRACTION_DIR not set (or without original.txt): Refraction's levels skipped" >&2
fi

# ------------------------------------- 2. targets on several sides, generated
if run_part 2; then
begin_part 2
echo "bench: generated levels with targets on several sides" >&2
declare -A small=(
	[split-combine]="--pieces '1 SP2, 1 CMB2, 3 BND' --distractors 1 --sources 2"
	[six-benders]="--pieces '7 BND' --distractors 1 --sources 2"
	[monolithic]="--sources 2 --targets 1-2 --pieces '1 SP2, 2 CMB2, 3 BND' --distractors 0"
	[monolithic-tidy]="--sources 2 --targets 1-2 --pieces '1 SP2, 2 CMB2, 3 BND' --distractors 1"
)
res=$tmp/sum.results
: > "$res"
for p in split-combine six-benders monolithic monolithic-tidy; do
	eval "\"$drv\" gen -n $n_sum --seed 20 --preset $p --size 5x5 --target-sides 3 ${small[$p]}" \
		> "$tmp/sum-$p.txt" 2>/dev/null || true
	split_levels "$tmp/sum-$p.txt" "$tmp/sum.$p"
	for lvl in "$tmp"/sum.$p.*.lvl; do
		compare "$lvl" all >> "$res"
		compare "$lvl" tidy >> "$res"
		echo "$(compare "$lvl" shortcut "$p")" | sed 's/^shortcut/own/' >> "$res"
	done
done
multi=$(cat "$tmp"/sum.*.lvl | grep -c '^fixed [A-Z] TGT [NESW][NESW][NESW]*>' || true)
{
	echo "### Generated levels with targets on several sides (5x5) against the oracle"
	echo
	echo "\`gen laser --param target-sides=3\`: $n_sum levels of each of four presets, $multi targets on two or three sides"
	echo 'among them; each level'"'"'s counts of all and of tidy solutions and its own concept'"'"'s shortcut verdict'
	echo '(over all solutions for `monolithic`).'
	echo
	echo '| query | compared | equal | differ | timed out (levelkit/clingo) | levelkit s | clingo s |'
	echo '|---|---|---|---|---|---|---|'
	for m in all tidy own; do
		read -r n eq ne to a c <<<"$(summary "$res" $m)"
		echo "| $m | $n | $eq | $ne | $to | $a | $c |"
	done
	echo
} >> "$sect"
if awk '$2 != "timeout" && $4 != "timeout" && $2 != $4' "$res" | grep -q .; then
	awk '$2 != "timeout" && $4 != "timeout" && $2 != $4' "$res" >&2
	echo "bench: generated levels: answers differ from clingo" >&2
	exit 1
fi
end_part
fi

# ------------------------------------------------ 3. the paper's scale
if run_part 3; then
begin_part 3
echo "bench: the paper's scale" >&2
declare -A paper=(
	[split-combine]="7.26 (2.12 search)"
	[split-combine-2]="18.9 (8.29 search)"
	[monolithic]="152 (140 search)"
	[monolithic-open]="74.2 (67.2 search)"
)
# gen_run TAG N SECONDS ARGS...: N levels (or what SECONDS of CPU give);
# "levels cpu median_wall boards pieces blockers"
gen_run() {
	local tag=$1 n=$2 secs=$3
	shift 3
	# SECONDS of CPU at most (ulimit -t; the stats are written level by
	# level), and three times that on the wall clock of a loaded machine
	( ulimit -t "$secs"; exec /usr/bin/time -f %U -o "$tmp/$tag.cpu" timeout $((3 * secs)) "$drv" gen \
		-n "$n" --seed 21 "$@" --stats "$tmp/$tag.stats" > "$tmp/$tag.txt" 2>/dev/null ) || true
	local made
	touch "$tmp/$tag.stats"
	made=$(awk -F'\t' '$2 == "ok"' "$tmp/$tag.stats" | wc -l)
	tail -1 "$tmp/$tag.cpu" 2>/dev/null | grep -q '^[0-9.][0-9.]*$' && tail -1 "$tmp/$tag.cpu" > "$tmp/$tag.cpu1" ||
		echo "$secs" > "$tmp/$tag.cpu1"
	mv "$tmp/$tag.cpu1" "$tmp/$tag.cpu"
	local size
	size=$(awk 'BEGIN { RS = "" } {
		n++; split($0, L, "\n")
		for (i in L) {
			l = L[i]
			if (l ~ /^fixed: . (SRC|TGT)/) p++
			else if (l ~ /^tray:/) { split(l, w, " "); p += w[2] }
			else if (l !~ /:/ && l ~ /^[.#A-Za-z]+$/) b += gsub(/#/, "#", l)
		}
	} END { printf "%.1f %.1f", n ? (p + b) / n : 0, n ? b / n : 0 }' "$tmp/$tag.txt")
	local med
	med=$(awk -F'\t' '$2 == "ok" { print $3 }' "$tmp/$tag.stats" | sort -g |
		awk '{ t[NR] = $1 } END { printf "%.2f", NR ? t[int((NR + 1) / 2)] : 0 }')
	echo "$made $(cpu "$tmp/$tag.cpu") $med $(awk -F'\t' '{ b += $4 } END { print b + 0 }' "$tmp/$tag.stats") $size"
}
{
	echo "### Generation at the paper's scale (10x10, one core)"
	echo
	echo "The paper (Smith, Butler and Popović 2013, §6.4) reports one shortcut-free puzzle per run,"
	echo 'generated by metasp and clasp with eight threads on a 2011 laptop (2.2 GHz Core i7), problem'
	echo 'construction and search in seconds; its instance is the game'"'"'s 10 x 10 board "with about 40'
	echo 'pieces".  levelkit: CPU seconds per level on one core of this machine, with the 28-piece palette'
	echo "\`$palette\`: first designs from the whole palette (as before issue 20; each"
	echo "preset given $palette_seconds s of CPU at most) and from sub-palettes (the default; $n_scale levels),"
	echo 'then levels of about 40 pieces: three sources, two or three targets, at least 12 pieces in the'
	echo 'intended solution, 6 distractors (none for `monolithic`, whose concept counts every given piece),'
	echo '10 blockers first (none for the `-open` presets).  "pieces" counts sources, targets, tray pieces'
	echo 'and blockers of a level.'
	echo
	echo '| concept | paper s (search) | whole palette: levels in CPU s | sub-palettes: CPU s per level | pieces, blockers a level | about 40 pieces: CPU s per level | pieces, blockers a level |'
	echo '|---|---|---|---|---|---|---|'
} >> "$sect"
# per LEVELS CPU: "CPU s per level (N levels)", or none in CPU s
per() { awk -v m="$1" -v c="$2" 'BEGIN { printf m ? "%.2f (%d levels)" : "- (0 levels in %.0f s)", m ? c / m : c, m }'; }
read -r -a scale_presets <<<"${SCALE_PRESETS:-${presets[*]}}"
for p in "${scale_presets[@]}"; do
	read -r wm wc _ _ _ _ <<<"$(gen_run "whole-$p" "$n_scale" "$palette_seconds" --preset "$p" --pieces "$palette" --whole-palette 1)"
	read -r sm sc _ _ spieces sblk <<<"$(gen_run "sampled-$p" "$n_scale" "$scale_seconds" --preset "$p" --pieces "$palette")"
	distr=6 blk=10
	over_all "$p" && distr=0
	case $p in *-open*) blk=0 ;; esac   # no blocker at all
	read -r bm bc _ _ bpieces bblk <<<"$(gen_run "forty-$p" "$n_scale" "$scale_seconds" --preset "$p" --pieces "$palette" \
		--sources 3 --targets 2-3 --min-pieces 12 --distractors "$distr" --blockers "$blk")"
	echo "| $p | ${paper[$p]:--} | $wm in $wc | $(per "$sm" "$sc") | $spieces, $sblk | $(per "$bm" "$bc") | $bpieces, $bblk |" >> "$sect"
done
echo >> "$sect"
# how far monolithic reaches: the same levels of about 40 pieces with the
# least count of placed pieces asked lowered (REACH, "12 11 10")
{
	echo "How many placed pieces \`monolithic\` reaches (the same 10 blockers, three sources, two or three"
	echo "targets, no distractor; $n_scale levels or $scale_seconds s of CPU each):"
	echo
	echo '| at least N pieces placed | CPU s per level | boards a level | pieces, blockers a level |'
	echo '|---|---|---|---|'
} >> "$sect"
for k in ${REACH:-12 11 10}; do
	read -r rm rc _ rb rpieces rblk <<<"$(gen_run "reach-$k" "$n_scale" "$scale_seconds" --preset monolithic \
		--pieces "$palette" --sources 3 --targets 2-3 --min-pieces "$k" --distractors 0 --blockers 10)"
	echo "| $k | $(per "$rm" "$rc") | $(awk -v b="$rb" -v m="$rm" 'BEGIN { printf m ? "%.0f" : "%d boards, none", m ? b / m : b }') | $rpieces, $rblk |" >> "$sect"
done
echo >> "$sect"
end_part
fi

# ------------------------------------------------ 4. symmetric blockers
if run_part 4; then
begin_part 4
echo "bench: symmetric blockers" >&2
{
	echo "### Symmetric blockers (the paper's Form constraint)"
	echo
	echo "\`gen laser --param symmetry=S --param blockers=8\`, $n_scale levels each; every level's blockers checked"
	echo 'invariant under the symmetry (the first ones and the repairs'"'"' alike), and its concept re-checked by'
	echo 'the shortcut query.'
	echo
	echo '| preset | symmetry | levels | CPU s per level | blockers a level | invariant | re-checked: requires |'
	echo '|---|---|---|---|---|---|---|'
} >> "$sect"
for p in six-benders split-combine-2; do
	for sym in none lr both rot180; do
		read -r m c _ _ _ blk <<<"$(gen_run "sym-$p-$sym" "$n_scale" "$scale_seconds" --preset "$p" --symmetry "$sym" --blockers 8)"
		inv=$(awk -v sym="$sym" 'BEGIN { RS = "" } {
			nl = split($0, L, "\n"); h = 0
			for (i = 1; i <= nl; i++) if (L[i] !~ /:/ && L[i] ~ /^[.#A-Za-z]+$/) g[++h] = L[i]
			w = length(g[1]); ok = 1
			for (y = 1; y <= h; y++) for (x = 1; x <= w; x++) {
				if (substr(g[y], x, 1) != "#") continue
				mx = w + 1 - x; my = h + 1 - y
				if (sym == "lr" && substr(g[y], mx, 1) != "#") ok = 0
				if (sym == "both" && (substr(g[y], mx, 1) != "#" || substr(g[my], x, 1) != "#")) ok = 0
				if (sym == "rot180" && substr(g[my], mx, 1) != "#") ok = 0
			}
			n++; good += ok
		} END { printf "%d of %d", good, n }' "$tmp/sym-$p-$sym.txt")
		[ "$sym" = none ] && inv=-
		concept=$(sed -n 's/^requires: //p' "$tmp/sym-$p-$sym.txt" | head -1)
		req=$("$drv" shortcut --timeout 60 "$concept" "$tmp/sym-$p-$sym.txt" | awk -F'\t' '$3 == "none"' | wc -l)
		per=$(awk -v m="$m" -v c="$c" 'BEGIN { printf m ? "%.2f" : "-", m ? c / m : 0 }')
		echo "| $p | $sym | $m | $per | $blk | $inv | $req of $m |" >> "$sect"
	done
done
echo >> "$sect"
end_part
fi

# ------------------------------------------------ 5. facts over powers
if run_part 5; then
	echo "bench: facts over powers" >&2
	bench/laser_powers.sh "$build" > /dev/null
fi

# the section: a head, then the latest table of each part
all=$tmp/section.md
{
	echo '## Laser: Refraction'"'"'s levels, the paper'"'"'s scale (issue 20)'
	echo
	echo "Written by \`bench/laser_refraction.sh\` ($(nproc) cores, $(clingo --version | head -1)); the machine is"
	echo 'shared by several sessions, so the CPU seconds are the measure and wall-clock times are upper'
	echo 'bounds.  The oracle is `../shared/laser/refraction.lp` (with its corrected total-power bound) with'
	echo 'levelkit'"'"'s one extension, targets on several sides that add their beams (`bench/laser/oracle.sh`),'
	echo 'and facts written by `bench/laser/lvl_facts.py`; clingo'"'"'s times are its own `CPU Time`, levelkit'"'"'s its own clock (CPU seconds when run with `LEVELKIT_CLOCK=cpu`).'
	echo
	for k in 1 2 5 3 4; do
		[ -f "$frag/$k.md" ] && cat "$frag/$k.md"
	done
} > "$all"
write_section laser-20 "$all"
echo "bench: written to docs/benchmarks.md (laser-20)" >&2
