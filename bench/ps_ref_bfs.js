#!/usr/bin/env node
// ps_ref_bfs.js - the reference PuzzleScript engine (increpare/PuzzleScript,
// JavaScript) driven by a plain breadth-first search, for side-by-side speed
// and fidelity checks against levelkit's engine (bench/ps_bfs.c).  Bench only:
// the reference is never a dependency of levelkit, and none of its code is in
// this repository; bench/puzzlescript_ref.sh fetches it at run time.
//
// The search is the one ps_bfs.c runs: from every stored state every input
// (up, left, down, right, and action unless the game says noaction), each a
// whole turn with the again turns it causes (as the reference's test harness
// runs them); a turn that wins ends in a state of its own (levelkit keeps a
// won bit in its key) which is not expanded.  A state is the engine's own:
// restoreLevel() of a backupLevel() snapshot, the key its level.objects.
//
// Usage: node ps_ref_bfs.js REF_SRC_DIR GAME.txt LEVEL [--max-generated N]
//            [--seconds S] [--min-seconds M] [--seed SEED] [--solve]
//   REF_SRC_DIR: the reference's src/ directory (holding js/engine.js)
//   LEVEL: 0-based index into the script's levels (messages included),
//          as the reference's loadLevel counts them
//   --max-generated N: stop after N turns (default: no bound)
//   --seconds S: stop after S CPU seconds (default 10)
//   --min-seconds M: repeat the whole search until M CPU seconds have
//          passed, for a steadier rate on small levels (default 0)
//   --solve: stop at the first win, print the inputs of the solution
//   --rng-in-key: a state holds the random generator's state too, as
//          levelkit's keys of a game that draws random numbers do
//   --replay INPUTS: instead of searching, play INPUTS (u l d r x, t a
//          tick) from the level's start with SEED and say whether they win
//          (then the inputs played and the random numbers drawn)
// Prints one tab-separated line: states stored, turns run (generated), CPU
// seconds per search, runs, won (yes/no), generated per CPU second, and, with
// --solve, the solution.
'use strict';

const fs = require('fs');
const vm = require('vm');
const path = require('path');

function usage() {
	process.stderr.write('usage: ps_ref_bfs.js REF_SRC_DIR GAME.txt LEVEL [--max-generated N] ' +
		'[--seconds S] [--min-seconds M] [--seed SEED] [--solve]\n');
	process.exit(2);
}

const argv = process.argv.slice(2);
if (argv.length < 3)
	usage();
const refDir = argv[0], gameFile = argv[1], levelIndex = parseInt(argv[2], 10);
let maxGenerated = Infinity, seconds = 10, minSeconds = 0, seed = '0', wantSolution = false, rngInKey = false;
let replay = null;
for (let a = 3; a < argv.length; a++) {
	switch (argv[a]) {
	case '--max-generated': maxGenerated = Number(argv[++a]); break;
	case '--seconds': seconds = Number(argv[++a]); break;
	case '--min-seconds': minSeconds = Number(argv[++a]); break;
	case '--seed': seed = argv[++a]; break;
	case '--solve': wantSolution = true; break;
	case '--rng-in-key': rngInKey = true; break;
	case '--replay': replay = argv[++a]; break;
	default: usage();
	}
}

// ---- browser shims, as the reference's own node test runner has them
const store = {};
global.localStorage = {
	getItem(k) { return Object.prototype.hasOwnProperty.call(store, k) ? store[k] : null; },
	setItem(k, v) { store[k] = String(v); },
	removeItem(k) { delete store[k]; },
};
global.document = {
	URL: 'bench://',
	body: { classList: { contains() { return false; } }, addEventListener() {}, removeEventListener() {} },
	createElement() { return { style: {}, innerHTML: '', textContent: '', getContext() { return null; } }; },
	getElementById() { return null; },
};
global.window = global;
global.lastDownTarget = null;
global.canvas = null;
global.input = global.document.createElement('TEXTAREA');
for (const f of ['canvasResize', 'redraw', 'forceRegenImages', 'consolePrintFromRule', 'consolePrint',
	'consoleError', 'consoleCacheDump', 'addToDebugTimeline', 'killAudioButton', 'showAudioButton',
	'regenSpriteImages', 'jumpToLine', 'printLevel', 'playSound'])
	global[f] = function () {};
global.console_print_raw = function () {};
global.levelString = '';
global.inputString = '';
global.outputString = '';
global.editor = { getValue() { return global.levelString; } };
global.UnitTestingThrow = function (e) { throw e; };

const sources = ['js/storagewrapper.js', 'js/bitvec.js', 'js/level.js', 'js/languageConstants.js',
	'js/globalVariables.js', 'js/debug.js', 'js/font.js', 'js/rng.js', 'js/riffwave.js', 'js/sfxr.js',
	'js/codemirror/stringstream.js', 'js/colorhelpers.js', 'js/colors.js', 'js/engine.js',
	'js/parser.js', 'js/compiler.js', 'js/soundbar.js'];
let code = '';
for (const f of sources) {
	const p = path.join(refDir, f);
	if (!fs.existsSync(p)) {
		if (f === 'js/debug_off.js' || f === 'js/soundbar.js')
			continue;
		process.stderr.write(`ps_ref_bfs: ${p}: not found (REF_SRC_DIR must be the reference's src/)\n`);
		process.exit(2);
	}
	code += `\n// ---- ${f}\n` + fs.readFileSync(p, 'utf8') + '\n';
}
// the search's view of a win: the reference's harness (unitTesting) goes
// straight to the next level; here a win only raises a flag
code += '\nvar __bench_won = false;\nnextLevel = function () { __bench_won = true; againing = false; };\n';
code += 'function __bench_won_get() { return __bench_won; }\nfunction __bench_won_set(v) { __bench_won = v; }\n';
vm.runInThisContext(code, { filename: 'reference.js' });
global.stripHTMLTags = s => s.replace(/<\/?[a-zA-Z][^>]*>/g, '').trim();

const text = fs.readFileSync(gameFile, 'utf8');
global.unitTesting = true;
global.lazyFunctionGeneration = false;
vm.runInThisContext('unitTesting = true; lazyFunctionGeneration = false;');
global.levelString = text;
compile(['loadLevel', levelIndex], text, seed);
// the reference plays a game with up to MAX_ERRORS errors
if (vm.runInThisContext('errorCount > MAX_ERRORS || typeof state === "undefined" || state === null || ' +
	'typeof level === "undefined" || level === null || curlevel !== ' + levelIndex)) {
	process.stderr.write(`ps_ref_bfs: ${gameFile}: the reference does not compile it or has no level ${levelIndex}\n`);
	process.exit(1);
}
const ev = s => vm.runInThisContext(s);
if (ev('level.message !== undefined || textMode')) {
	process.stderr.write(`ps_ref_bfs: ${gameFile}: level ${levelIndex} is a message\n`);
	process.exit(1);
}
const ninputs = ev('"noaction" in state.metadata') ? 4 : 5;

// the engine's globals, reached through functions compiled in its scope;
// with --rng-in-key (a game that draws random numbers, as levelkit keys it)
// a state also holds the generator's state, and its key the numbers drawn
const api = vm.runInThisContext(`({
	draws: 0,
	rng() {
		const r = RandomGen._state;
		return r ? { s: r.s.slice(), i: r.i, j: r.j, draws: this.draws } : null;
	},
	setRng(g) {
		const r = RandomGen._state;
		if (!g || !r)
			return;
		for (let k = 0; k < 256; k++)
			r.s[k] = g.s[k];
		r.i = g.i;
		r.j = g.j;
		this.draws = g.draws;
	},
	count() {
		const api = this, u = RNG.prototype.uniform;
		RandomGen.uniform = function () { api.draws++; return u.call(this); };
	},
	start() {
		__bench_won_set(false);
		while (againing) { againing = false; processInput(-1); }
		backups = [];
		return { snap: backupLevel(), won: __bench_won_get(), rng: this.rng() };
	},
	step(snap, dir, rng) {
		// a turn's "caught looping" messages are kept (urgent) however
		// often they repeat, and the reference gives up after 100 of
		// them ("too many errors"): a search's turns are each a fresh
		// start, as each of the reference's own tests is
		errorStrings = [];
		restoreLevel(snap);
		this.setRng(rng);
		backups = [];
		againing = false;
		winning = false;
		messagetext = "";
		__bench_won_set(false);
		processInput(dir);
		let n = 0;
		while (againing && n < 500) { againing = false; processInput(-1); n++; }
		return __bench_won_get();
	},
	snapshot() { return backupLevel(); },
	input(dir) {
		__bench_won_set(false);
		if (dir === -1)
			processInput(-1);
		else
			processInput(dir);
		let n = 0;
		while (againing && n < 500) { againing = false; processInput(-1); n++; }
		return __bench_won_get();
	},
	objects() { return level.objects; },
})`);

function cpu() {
	const u = process.cpuUsage();
	return (u.user + u.system) / 1e6;
}

function keyOf(objects, won) {
	return Buffer.from(objects.buffer, objects.byteOffset, objects.byteLength).toString('latin1') + (won ? 'W' : '') +
		(rngInKey ? '#' + api.draws : '');
}

// --replay INPUTS: play a solution (u l d r x, t for a tick) and say
// whether it wins, as the reference's own test harness plays inputs
if (replay !== null) {
	api.count();
	const s0 = api.start();
	let won = s0.won, n = 0;
	for (const c of replay) {
		const dir = 'uldrxt'.indexOf(c);
		if (dir < 0 || won)
			continue;
		won = api.input(dir === 5 ? -1 : dir);
		n++;
	}
	process.stdout.write(`${won ? 'won' : 'not won'}\t${n}\t${api.draws}\n`);
	process.exit(won ? 0 : 1);
}

function search() {
	api.count();
	api.draws = 0;
	const s0 = api.start();
	const seen = new Map();
	const snaps = [s0.snap], rngs = [s0.rng], parent = [-1], input = [-1], wonAt = [s0.won];
	seen.set(keyOf(s0.snap.dat, s0.won), 0);
	let generated = 0, solvedAt = s0.won ? 0 : -1;
	const t0 = cpu();
	outer:
	for (let cur = 0; cur < snaps.length && solvedAt < 0; cur++) {
		if (wonAt[cur])
			continue;
		for (let dir = 0; dir < ninputs; dir++) {
			// the clock every 16 turns: some games' turns take the
			// reference tens of milliseconds (suite game 180)
			if (generated >= maxGenerated || ((generated & 15) === 0 && cpu() - t0 > seconds))
				break outer;
			let won;
			try {
				won = api.step(snaps[cur], dir, rngInKey ? rngs[cur] : null);
			} catch (e) {
				// the reference gives up on some games (a rule group that
				// loops for ever: "too many errors"); nothing to compare
				process.stderr.write(`ps_ref_bfs: ${gameFile}: the reference fails: ${e.message}\n`);
				process.exit(3);
			}
			generated++;
			const k = keyOf(api.objects(), won);
			if (seen.has(k))
				continue;
			seen.set(k, snaps.length);
			snaps.push(api.snapshot());
			rngs.push(rngInKey ? api.rng() : null);
			parent.push(cur);
			input.push(dir);
			wonAt.push(won);
			if (won && wantSolution) {
				solvedAt = snaps.length - 1;
				break outer;
			}
			if (won)
				solvedAt = -2 - (snaps.length - 1);   /* remembered, search goes on */
		}
	}
	const found = solvedAt >= 0 ? solvedAt : solvedAt < -1 ? -2 - solvedAt : -1;
	let solution = '';
	for (let s = found; s > 0; s = parent[s])
		solution = 'uldrx'.charAt(input[s]) + solution;
	return { stored: snaps.length, generated, won: found >= 0 || s0.won, solution, secs: cpu() - t0 };
}

let runs = 0, total = 0, last;
const start = cpu();
do {
	if (runs > 0)
		compile(['loadLevel', levelIndex], text, seed);
	last = search();
	runs++;
	total += last.secs;
} while (cpu() - start < minSeconds);
const per = total / runs;
const out = [last.stored, last.generated, per.toFixed(4), runs, last.won ? 'yes' : 'no',
	per > 0 ? Math.round(last.generated / per) : 0];
if (wantSolution)
	out.push(last.solution);
process.stdout.write(out.join('\t') + '\n');
