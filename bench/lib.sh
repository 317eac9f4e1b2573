# bench/lib.sh - shared by the bench scripts: put a section into
# docs/benchmarks.md between "<!-- begin NAME -->" and "<!-- end NAME -->",
# replacing what was there and keeping the other sections.
# usage: write_section NAME FILE   (FILE holds the section's text)
write_section() {
	local name=$1 text=$2 out=docs/benchmarks.md tmpf
	tmpf=$(mktemp)
	[ -f "$out" ] || printf '# Benchmarks\n\nEach section is written by a script in bench/; re-run it to refresh it.\n' > "$out"
	if grep -q "^<!-- begin $name -->" "$out"; then
		awk -v name="$name" -v file="$text" '
			$0 == "<!-- begin " name " -->" { print; while ((getline line < file) > 0) print line; skip = 1; next }
			$0 == "<!-- end " name " -->" { skip = 0 }
			!skip' "$out" > "$tmpf"
	else
		{ cat "$out"; printf '\n<!-- begin %s -->\n' "$name"; cat "$text"; printf '<!-- end %s -->\n' "$name"; } > "$tmpf"
	fi
	mv "$tmpf" "$out"
}
