#!/bin/sh
# bench/laser/oracle.sh - the answer set program of ../shared/laser/refraction.lp
# with levelkit's extension of SPEC.md (docs/games/laser.md, "Targets on several
# sides"): a target is satisfied when the beams on all its in-ports *sum* to its
# need, not when one in-port receives it.  Only the target rule changes (the file's
# other rules, the corrected total-power bound among them, are kept as they are),
# so the program is made from the shared file each time rather than copied.
#
# usage: bench/laser/oracle.sh [REFRACTION_LP] > refraction-sum.lp
set -eu
lp=${1:-$(dirname "$0")/../../../shared/laser/refraction.lp}
rule='ok(X,Y) :- occ(X,Y,K), ktype(K,tgt), in(K,S), recv(X,Y,S,V), need(K,V).'
grep -qxF "$rule" "$lp" || {
	echo "oracle.sh: $lp has no line '$rule' (has refraction.lp changed?)" >&2
	exit 2
}
awk -v rule="$rule" '
	$0 == rule {
		print "% levelkit: a target sums the beams on its in-ports (one to four sides)"
		print "ok(X,Y) :- occ(X,Y,K), ktype(K,tgt), need(K,V),"
		print "           #sum { W,S : in(K,S), recv(X,Y,S,W) } = V."
		next
	}
	{ print }' "$lp"
