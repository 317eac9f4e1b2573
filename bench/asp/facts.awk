# facts.awk - the level records of a levelkit file as ASP facts for
# combination.lp: with -v want=K, the K-th level (default 1).
#   awk -v want=2 -f bench/asp/facts.awk levels.xsb > level.lp
# Types are numbered from 1 in the order of the pieces field, merging a
# colour and kind given twice; colours from 1 in order of first mention.
BEGIN { RS = ""; FS = "\n"; if (!want) want = 1 }
/(^|\n)game: combination/ {
	if (++k != want)
		next
	y = 0
	pieces = ""
	for (i = 1; i <= NF; i++) {
		line = $i
		if (line ~ /^pieces:/) {
			pieces = substr(line, 8)
		} else if (line ~ /^[.#o]+$/) {
			for (x = 1; x <= length(line); x++) {
				c = substr(line, x, 1)
				if (c == ".")
					printf "cell(%d,%d).\n", x - 1, y
				else if (c == "o")
					printf "hole(%d,%d).\n", x - 1, y
			}
			y++
		}
	}
	n = split(pieces, part, ",")
	nc = nt = 0
	for (i = 1; i <= n; i++) {
		split(part[i], w, " ")
		kind = w[3]
		sub(/s$/, "", kind)
		if (!(w[2] in colour))
			colour[w[2]] = ++nc
		key = colour[w[2]] SUBSEP kind
		if (!(key in type)) {
			type[key] = ++nt
			tc[nt] = colour[w[2]]
			tk[nt] = kind
		}
		count[type[key]] += w[1]
	}
	for (t = 1; t <= nt; t++)
		printf "type(%d,%d,%s,%d).\n", t, tc[t], tk[t], count[t]
	exit
}
