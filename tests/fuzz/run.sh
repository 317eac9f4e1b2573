#!/usr/bin/env bash
# tests/fuzz/run.sh - build the fuzzers (preset fuzz) and run each for its share
# of SECONDS; fail on any crash, leak, timeout or out-of-memory.
#
# Usage: tests/fuzz/run.sh [SECONDS] [TARGET...]
#        tests/fuzz/run.sh --grow [SIZE] [TARGET...]
#   SECONDS  the whole run, wall clock (default 120); the record reader
#            gets the largest share
#   TARGET   record, level, expr, rules, script, json (default: all six,
#            one after the other)
#   --grow   instead of fuzzing, run each target once on inputs of about
#            SIZE bytes (default 131072) made from the smallest
#            $FUZZ_GROW_COUNT (default 200) inputs of its corpus by
#            tests/fuzz/grow.py, and fail on a timeout: parsers whose time grows
#            faster than their input
# Environment: FUZZ_BUILD (default build/fuzz), FUZZ_JOBS (parallel build
# jobs, default 2), FUZZ_ARGS (more libFuzzer flags, e.g. -max_len=65536).
#
# Each target's corpus grows in $FUZZ_BUILD/corpus/TARGET (kept between
# runs) on top of seeds remade from the repository (tests/fuzz/seeds.py);
# whatever fails is kept in $FUZZ_BUILD/crashes/ with the fuzzer's log.
# docs/fuzzing.md tells how to reproduce and minimise a crash.
set -euo pipefail
cd "$(dirname "$0")/../.."

grow=false
if [ "${1:-}" = --grow ]; then
	grow=true
	shift
	total=131072
	case ${1:-} in
	[0-9]*) total=$1; shift ;;
	esac
else
	total=${1:-120}
	shift || true
fi
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(record level expr rules script json)
build=${FUZZ_BUILD:-build/fuzz}
case $total in
'' | *[!0-9]*) echo "tests/fuzz/run.sh: SECONDS must be a whole number, not '$total'" >&2; exit 2 ;;
esac

# Shares of the time: the record reader has the most formats to get wrong.
weight() {
	case $1 in
	record) echo 4 ;;
	level) echo 3 ;;
	expr) echo 2 ;;
	rules) echo 2 ;;
	script) echo 3 ;;
	json) echo 2 ;;
	*) echo "tests/fuzz/run.sh: unknown target '$1' (record, level, expr, rules, script, json)" >&2; exit 2 ;;
	esac
}
sum=0
for t in "${targets[@]}"; do
	sum=$((sum + $(weight "$t")))
done

echo "==> fuzz: building in $build"
if [ "$build" = build/fuzz ]; then
	cmake --preset fuzz >/dev/null
else
	cmake --preset fuzz -B "$build" >/dev/null
fi
cmake --build "$build" --target fuzzers -j "${FUZZ_JOBS:-2}" >/dev/null

rm -rf "$build/seeds"
python3 tests/fuzz/seeds.py . "$build/seeds"
mkdir -p "$build/crashes"

failed=()
if $grow; then
	for t in "${targets[@]}"; do
		dir=$build/grow/$t
		log=$build/crashes/$t-grow.log
		rm -rf "$dir"
		mkdir -p "$build/corpus/$t"
		python3 tests/fuzz/grow.py "$total" "${FUZZ_GROW_COUNT:-200}" "$dir" "$build/corpus/$t" \
			"$build/seeds/$t"
		echo "==> fuzz_$t: $(find "$dir" -type f | wc -l) large inputs"
		start=$(date +%s)
		# Files, not a directory: each runs once, whole (no -max_len cut).
		if find "$dir" -type f -print0 | xargs -0 -r "$build/fuzz/fuzz_$t" -timeout=10 \
			-rss_limit_mb=2048 -artifact_prefix="$build/crashes/$t-grow-" >"$log" 2>&1; then
			echo "    done in $(($(date +%s) - start)) s; the slowest:"
		else
			echo "tests/fuzz/run.sh: fuzz_$t failed on a large input; its log is $log:" >&2
			grep -E -A10 '^==[0-9]+==|^SUMMARY|invariant failed|ALARM' "$log" | head -30 >&2 || true
			failed+=("$t")
		fi
		# (head ends the pipe early: no pipefail here)
		sed -n 's/^Executed \(.*\) in \([0-9]*\) ms$/\2 ms \1/p' "$log" >"$log.ms"
		sort -rn "$log.ms" >"$log.sorted"
		head -5 "$log.sorted" | sed 's/^/    /'
		rm -f "$log.ms" "$log.sorted"
	done
	targets=()
fi
for t in ${targets[@]+"${targets[@]}"}; do
	secs=$((total * $(weight "$t") / sum))
	[ "$secs" -ge 1 ] || secs=1
	corpus=$build/corpus/$t
	log=$build/crashes/$t.log
	mkdir -p "$corpus"
	echo "==> fuzz_$t: $secs s (corpus $corpus, $(find "$corpus" -type f | wc -l) inputs)"
	# -timeout: no input may take 10 s (a hang or a quadratic parser);
	# -rss_limit_mb: nor 2 GB; -error_exitcode and -timeout_exitcode keep
	# libFuzzer's defaults (77 and 70), any non-zero status is a failure.
	# ${FUZZ_ARGS} is split on blanks on purpose: several flags.
	# shellcheck disable=SC2086
	if "$build/fuzz/fuzz_$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-dict="tests/fuzz/$t.dict" -artifact_prefix="$build/crashes/$t-" \
		-print_final_stats=1 ${FUZZ_ARGS:-} "$corpus" "$build/seeds/$t" >"$log" 2>&1; then
		grep -E '^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::peak_rss_mb)' "$log" |
			sed 's/^/    /' || true
	else
		echo "tests/fuzz/run.sh: fuzz_$t failed; its log is $log:" >&2
		grep -E -A25 '^==[0-9]+==|^SUMMARY|invariant failed|ERROR: libFuzzer|^artifact_prefix|Test unit written' \
			"$log" | head -60 >&2 || tail -40 "$log" >&2
		# The failing input itself, so that a run on another machine (CI)
		# can be reproduced from its log: base64 -d > unit; fuzz_T unit.
		for unit in "$build/crashes/$t"-*; do
			[ -f "$unit" ] && [ "$(stat -c %s "$unit")" -le 65536 ] || continue
			echo "tests/fuzz/run.sh: $(basename "$unit") as base64:" >&2
			base64 -w 76 "$unit" >&2
		done
		failed+=("$t")
	fi
done

if [ ${#failed[@]} -gt 0 ]; then
	echo "tests/fuzz/run.sh: failed: ${failed[*]}; inputs kept in $build/crashes/" >&2
	ls -l "$build/crashes" >&2
	exit 1
fi
if $grow; then
	echo "==> fuzz: no large input too slow"
else
	echo "==> fuzz: no failures in $total s"
fi
