#!/usr/bin/env node
// ps_suite_games.js - the distinct games of the reference's simulation tests
// (testdata.jsonl), one script file each, for the speed comparison with the
// reference engine (bench/puzzlescript_ref.sh).  A game is a distinct source
// text; its level is the one its first test loads (the test's `level`,
// 0-based, messages included), and games whose level is a message are left
// out by the bench when either engine says so.
//
// Usage: node ps_suite_games.js TESTDATA.jsonl OUTDIR
// Writes OUTDIR/NNN.txt and prints per game: file, level, seed, test name.
'use strict';
const fs = require('fs');
const path = require('path');
const [file, outdir] = process.argv.slice(2);
if (!file || !outdir) {
	process.stderr.write('usage: ps_suite_games.js TESTDATA.jsonl OUTDIR\n');
	process.exit(2);
}
fs.mkdirSync(outdir, { recursive: true });
const seen = new Set();
let n = 0;
for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
	if (!line.trim())
		continue;
	const t = JSON.parse(line);
	if (seen.has(t.source))
		continue;
	seen.add(t.source);
	const name = String(++n).padStart(3, '0') + '.txt';
	fs.writeFileSync(path.join(outdir, name), t.source);
	const seed = t.seed === undefined || t.seed === null ? '-' : String(t.seed);
	process.stdout.write([name, t.level || 0, seed.replace(/\s/g, '_') || '-', t.name.replace(/\s+/g, ' ')].join('\t') + '\n');
}
