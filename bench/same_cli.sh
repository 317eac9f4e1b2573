#!/usr/bin/env bash
# bench/same_cli.sh - the record commands' edge cases on two builds, their
# outputs compared byte for byte: stdout, stderr, the exit status and the
# file -o leaves (or its absence).  bench/same.sh covers the bench
# workloads and every format; this covers what the commands decide
# themselves: -o with and without --force over inputs and other files,
# bad input, --count, --top and --asc, --progression, --dedupe, concept
# filters with -j 1 and -j 2, --fields, --explain, usage errors, --help
# and --version (docs/benchmarks.md, "Refactorings (issue 19)").
#
# Usage: bench/same_cli.sh OLD_BUILD_DIR NEW_BUILD_DIR
# Prints one line per case (same, or DIFFERS with the first lines that
# differ) and exits 1 when any differs.  Needs no data beyond the repository.
set -uo pipefail
cd "$(dirname "$0")/.."
old=$(cd "$1" && pwd)
new=$(cd "$2" && pwd)
repo=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
differ=0

# Every case runs in a fresh directory holding these files, so that the
# names in messages are the same for both builds.
setup() {
	rm -rf "$1" && mkdir -p "$1" && cd "$1" || exit 2
	cp "$repo"/levels/*.xsb "$repo"/tests/levels/small.xsb "$repo"/tests/levels/bad.xsb \
		"$repo"/tests/levels/filter.xsb "$repo"/tests/levels/filter-dedupe.xsb \
		"$repo"/tests/levels/fruit.xsb "$repo"/tests/levels/skiddy.xsb .
	"$old/solve" -j 1 -t 0 --max-states 20000 small.xsb fruit.xsb skiddy.xsb >solved.xsb 2>/dev/null
	"$old/rate" -j 1 -k 3 -t 0 --max-states 5000 small.xsb fruit.xsb skiddy.xsb >rated.xsb 2>/dev/null
	printf 'title: nul\n#####\n#@$\0.#\n#####\n' >nul.xsb
	echo 'not a level' >existing.txt
}

S='$B/solve -t 0 --max-states 20000'
R='$B/rate -t 0 -k 3 --max-states 5000'
F='$B/filter'
cases=(
	"$S -j 1 small.xsb"
	"$S -j 2 small.xsb fruit.xsb skiddy.xsb combination-sample.xsb laser-examples.xsb"
	"$S -j 2 -f tsv small.xsb fruit.xsb"
	"$S -j 1 -f tsv --fields title,moves,solvable small.xsb"
	"$S -j 1 -f tsv --fields title,nosuch small.xsb"
	"$S -j 1 -f json small.xsb"
	"$S -j 1 -f html small.xsb"
	"$S -j 1 --stats -a bfs small.xsb"
	"$S -j 1 bad.xsb small.xsb"
	"$S -j 1 missing.xsb small.xsb"
	"$S -j 1 existing.txt"
	"$S -j 1 </dev/null"
	"$S -j 1 --verify solved.xsb"
	"$S -j 1 --verify -a bfs solved.xsb"
	"$S -j 2 --shortcut 'count(push) >= 3' concept-sample.xsb"
	"$S -j 1 --exists 'count(push) >= 3' concept-sample.xsb"
	"$S -j 1 --tidy small.xsb"
	"$S -j 1 -m nosuch small.xsb"
	"$S -j 1 --measure thesis --direction backward small.xsb"
	"$S -j 1 --without nosuch small.xsb"
	"$S -j 1 --without freeze small.xsb"
	"$S -j 1 -o out.xsb small.xsb; cat out.xsb"
	"$S -j 1 -o existing.txt small.xsb; cat existing.txt"
	"$S -j 1 -o existing.txt --force small.xsb; cat existing.txt"
	"cp small.xsb in.xsb; $S -j 1 -o in.xsb in.xsb; cat in.xsb"
	"cp small.xsb in.xsb; $S -j 1 -f tsv -o in.xsb in.xsb; cat in.xsb"
	"cat small.xsb bad.xsb >in.xsb; $S -j 1 -o in.xsb in.xsb; cat in.xsb"
	"cat small.xsb nul.xsb >in.xsb; $S -j 1 -o in.xsb in.xsb; cat in.xsb"
	"$S -j 1 -o empty.xsb missing.xsb; ls empty.xsb"
	"$S -j 1 -o page.html small.xsb; cat page.html"
	"$R -j 1 small.xsb"
	"$R -j 2 --explain small.xsb fruit.xsb skiddy.xsb"
	"$R -j 1 -f tsv small.xsb fruit.xsb"
	"$R -j 1 --graph --list-solutions 2 fruit.xsb"
	"$R -j 1 --static-order small.xsb"
	"$R -j 1 --runs-algo nosuch small.xsb"
	"$R -j 1 --graph --no-graph small.xsb"
	"$R -j 1 --no-graph small.xsb"
	"$F 'moves >= 3' solved.xsb"
	"$F -v 'moves >= 3' solved.xsb"
	"$F -c 'moves >= 3' solved.xsb"
	"$F -c 'moves >= 300' solved.xsb"
	"$F 'nosuch > 1' solved.xsb"
	"$F 'moves >' solved.xsb"
	"$F"
	"$F --top 3 --by moves solved.xsb"
	"$F --top 3 --by moves --asc solved.xsb"
	"$F --top 2 --by difficulty rated.xsb"
	"$F --top 2 --by nosuch solved.xsb"
	"$F --top 2 --by title solved.xsb"
	"$F --top 2 solved.xsb"
	"$F --top 0 --by moves solved.xsb"
	"$F --progression 4 rated.xsb"
	"$F --progression 5 --chapter 2 rated.xsb"
	"$F --progression 3 --by moves solved.xsb"
	"$F --chapter 2 solved.xsb"
	"$F --dedupe filter-dedupe.xsb"
	"$F --dedupe -c filter-dedupe.xsb"
	"$F --dedupe missing.xsb"
	"$F 'moves >= 3' bad.xsb solved.xsb"
	"$F -f tsv 'moves >= 1' solved.xsb"
	"$F -f tsv --fields title,moves 'moves >= 1' solved.xsb"
	"$F -f tsv --fields title,nosuch 'moves >= 1' solved.xsb"
	"$F -f json 'moves >= 1' solved.xsb"
	"$F -f html 'moves >= 1' solved.xsb"
	"$F -f sok 'moves >= 1' solved.xsb"
	"$F -f puzzlescript 'moves >= 1' solved.xsb fruit.xsb"
	"$F --forall 'count(push) >= 3' -t 0 concept-sample.xsb"
	"$F --forall 'count(push) >= 3' -t 0 -j 2 concept-sample.xsb"
	"$F --exists 'count(push) >= 3' -j 2 -t 0 'title != \"corridor\"' concept-sample.xsb"
	"$F --exists 'count(push) >= 3' --max-states 5 -t 0 concept-sample.xsb"
	"$F --exists 'count(push) >= 3' --tidy -t 0 concept-sample.xsb"
	"$F -t 3 'moves > 1' solved.xsb"
	"$F -j 2 'moves > 1' solved.xsb"
	"$F --forall x --exists y solved.xsb"
	"$F 'moves >= 3' -o out.xsb solved.xsb; cat out.xsb"
	"$F 'moves >= 3' -o existing.txt solved.xsb; cat existing.txt"
	"$F 'moves >= 3' -o existing.txt --force solved.xsb; cat existing.txt"
	"cp solved.xsb in.xsb; $F 'moves >= 3' -o in.xsb in.xsb; cat in.xsb"
	"cat solved.xsb bad.xsb >in.xsb; $F 'moves >= 3' -o in.xsb in.xsb; cat in.xsb"
	"cat solved.xsb nul.xsb >in.xsb; $F 'moves >= 3' -o in.xsb in.xsb; cat in.xsb"
	"cp solved.xsb in.xsb; $F 'nosuch > 3' -o in.xsb in.xsb; cat in.xsb"
	"cp solved.xsb in.xsb; $F --top 2 --by moves -o in.xsb in.xsb; cat in.xsb"
	"$F 'moves >= 3' -o none.xsb missing.xsb; ls none.xsb"
	"$F -c -o count.txt 'moves >= 3' solved.xsb; cat count.txt"
	"$S -j 1 small.xsb fruit.xsb | $F 'moves >= 2' | $R -j 1 -f tsv"
	"for c in solve rate filter; do \$B/\$c --help; \$B/\$c --version; done"
	"\$B/levelkit --help; \$B/levelkit --list-commands; \$B/levelkit help filter; \$B/levelkit nosuch"
	"$S --jobs 5000 small.xsb"
	"$S -t abc small.xsb"
	"$S --max-memory 12Q small.xsb"
	"$S --max-memory 1.5G -t 2.5s --max-states 100 small.xsb"
	"$S --nosuch small.xsb"
	"$F --title T 'moves > 1' solved.xsb"
	"$F -c -f html 'moves > 1' solved.xsb"
)

# run DIR COMMAND OUT: stdout, stderr and the exit status
run() {
	local B=$1
	(setup "$tmp/run" && eval "${2//\$B/$B}" >"$3.out" 2>"$3.err"; echo "exit $?" >>"$3.err")
	sed -i -E '/^(time|seconds|[a-z-]*-seconds): /d; s/(seconds|time)="?[0-9.]+"?//g; s/\t[0-9]+\.[0-9]+(e-?[0-9]+)?\t/\tT\t/g' "$3.out"
	sed -i -E "s#$B#BUILD#g; s#\.tmp[0-9]+#.tmpN#g" "$3.err"
}

for c in "${cases[@]}"; do
	run "$old" "$c" "$tmp/a"
	run "$new" "$c" "$tmp/b"
	if cmp -s "$tmp/a.out" "$tmp/b.out" && cmp -s "$tmp/a.err" "$tmp/b.err"; then
		printf 'same     %s\n' "$c"
	else
		differ=1
		printf 'DIFFERS  %s\n' "$c"
		diff "$tmp/a.out" "$tmp/b.out" | head -5
		diff "$tmp/a.err" "$tmp/b.err" | head -5
	fi
done
exit $differ
