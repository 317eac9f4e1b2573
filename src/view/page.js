/*
 * page.js - the script of levelkit's HTML page (src/view/page.c embeds it).
 *
 * It knows no game.  The data block holds, one JSON value a line, the
 * paints and symbols of the pictures, then the records: their fields, and
 * their frames as levelkit computed them (an atlas of primitives, the
 * first frame as atlas numbers, and for each later frame the numbers that
 * appear or disappear).  Drawing a frame is turning its numbers into SVG
 * elements; playing a solution is toggling numbers.
 *
 * The sheet is virtual: only the cards in view exist, so a page of 10,000
 * levels opens as fast as one of ten.  Opened with #selftest, the page
 * plays every solution, sorts and filters through its own controls and
 * writes what it saw into <pre id="lk-selftest"> (tests/browser_test.sh).
 */
(function () {
  'use strict';
  var C = window.LK_CONFIG || {};
  var U = 24;                       /* canvas units per cell */
  var CARD_W = 236, CARD_H = 312;
  var B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  var DIGIT = {};
  for (var di = 0; di < 64; di++) DIGIT[B64.charAt(di)] = di;

  var paints = [], symbols = [], recs = [], headers = [];
  var fieldNames = [], fieldSeen = {};
  var view = [];                    /* indices into recs, filtered and sorted */
  var state = { sort: '', desc: false, filter: '', open: -1 };
  var filterError = '', filterMissing = 0;
  var $ = function (id) { return document.getElementById(id); };

  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  }

  /* ---------------------------------------------------------- the data */

  function readData() {
    var block = $('lk-data');
    var lines = block ? block.textContent.split('\n') : [];
    for (var i = 0; i < lines.length; i++) {
      var line = lines[i];
      if (!line) continue;
      var v;
      try { v = JSON.parse(line); } catch (e) { continue; }  /* a page cut short */
      if (v.p) paints[v.p[0]] = v.p[1];
      else if (v.y) symbols[v.y[0]] = { name: v.y[1], label: v.y[2], code: v.y[3] };
      else if (v.hdr) headers.push(v);
      else if (v.r) {
        v.idx = recs.length;
        v.fmap = {};
        for (var k = 0; k < v.f.length; k++) {
          var name = v.f[k][0], low = name.toLowerCase();
          v.fmap[low] = v.f[k][1];
          if (!fieldSeen[low]) { fieldSeen[low] = true; fieldNames.push(name); }
        }
        recs.push(v);
      }
    }
    var defs = [];
    for (var s = 0; s < symbols.length; s++) {
      if (!symbols[s]) continue;
      defs.push('<g id="y' + s + '">' + symbols[s].code.split(';').map(element).join('') + '</g>');
    }
    $('lk-symbols').innerHTML = defs.join('');
  }

  /* One primitive's code (see view_encode_prim) as an SVG element. */
  function element(code) {
    var k = code.charAt(0), v = code.slice(1).split(',');
    switch (k) {
      case 'r':
        return '<rect x="' + v[0] + '" y="' + v[1] + '" width="' + v[2] + '" height="' + v[3] + '"' +
          (v[5] ? ' rx="' + v[5] + '"' : ' shape-rendering="crispEdges"') + ' ' + paints[v[4]] + '/>';
      case 'c':
        return '<circle cx="' + v[0] + '" cy="' + v[1] + '" r="' + v[2] + '" ' + paints[v[3]] + '/>';
      case 'p':
        var pts = [];
        for (var i = 1; i + 1 < v.length; i += 2) pts.push(v[i] + ',' + v[i + 1]);
        return '<polygon points="' + pts.join(' ') + '" ' + paints[v[0]] + '/>';
      case 'l':
        return '<line x1="' + v[0] + '" y1="' + v[1] + '" x2="' + v[2] + '" y2="' + v[3] + '" ' +
          paints[v[4]] + '/>';
      case 't':
        return '<text x="' + v[0] + '" y="' + v[1] + '" font-size="' + v[2] + '" text-anchor="middle" ' +
          'dominant-baseline="central" font-family="sans-serif" ' + paints[v[3]] + '>' +
          esc(v.slice(4).join(',')) + '</text>';
      case 'u':
        var x = +v[1], y = +v[2], turn = +(v[3] || 0);
        return '<use href="#y' + v[0] + '" x="' + x + '" y="' + y + '"' + (turn ?
          ' transform="rotate(' + 90 * turn + ' ' + (x + U / 2) + ' ' + (y + U / 2) + ')"' : '') + '/>';
    }
    return '';
  }

  function ids(s, width) {
    var out = [];
    for (var i = 0; i + width <= s.length; i += width) {
      var n = 0;
      for (var j = 0; j < width; j++) n = n * 64 + DIGIT[s.charAt(i + j)];
      out.push(n);
    }
    return out;
  }

  function prepare(r) {
    if (r.atlas) return;
    r.atlas = r.a ? r.a.split(';') : [];
    r.els = new Array(r.atlas.length);
    r.firstIds = ids(r.z || '', r.k || 1);
  }

  function elementOf(r, i) {
    var e = r.els[i];
    if (e === undefined) e = r.els[i] = element(r.atlas[i]);
    return e;
  }

  function svgOf(r, present, cls) {
    var parts = ['<svg class="' + cls + '" viewBox="0 0 ' + r.w * U + ' ' + r.h * U +
      '" preserveAspectRatio="xMidYMid meet" role="img"><title>' + esc(r.t) + '</title>'];
    for (var i = 0; i < present.length; i++) parts.push(elementOf(r, present[i]));
    parts.push('</svg>');
    return parts.join('');
  }

  /* --------------------------------------------------------- fields */

  function value(r, name) {
    var low = name.toLowerCase();
    if (low === 'title') return r.t;
    if (low === 'game') return r.fmap.game !== undefined ? r.fmap.game : r.g;
    if (r.fmap[low] !== undefined) return r.fmap[low];
    if (low === 'record') return String(r.n);
    return undefined;
  }

  var NUMBER = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
  function number(s) {
    if (s === undefined) return NaN;
    s = String(s).trim();
    return NUMBER.test(s) ? parseFloat(s) : NaN;
  }

  /* ------------------------------------------- filter expressions */

  /* filter's language (docs/filter.md): comparisons, has(), !, &&, ||,
   * parentheses; numeric when both sides are numbers, else text.  A
   * record that lacks a compared field does not match (filter reports it
   * as an error; here it is counted). */
  function parseExpr(src) {
    var toks = [], re = /\s*(\(|\)|&&|\|\||==|!=|<=|>=|<|>|!|"(?:[^"\\]|\\.)*"|-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?(?![A-Za-z0-9_.-])|[A-Za-z][A-Za-z0-9_.-]*)/y;
    var pos = 0;
    src = src.replace(/\s+$/, '');
    while (pos < src.length) {
      re.lastIndex = pos;
      var m = re.exec(src);
      if (!m) throw new Error('cannot read "' + src.slice(pos, pos + 12) + '"');
      toks.push(m[1]);
      pos = re.lastIndex;
    }
    var i = 0;
    function peek() { return toks[i]; }
    function take(t) { if (toks[i] !== t) throw new Error('expected ' + t); i++; }
    function operand() {
      var t = toks[i++];
      if (t === undefined) throw new Error('unexpected end');
      if (t.charAt(0) === '"') return { s: t.slice(1, -1).replace(/\\(.)/g, '$1') };
      if (/^[-.\d]/.test(t)) return { n: parseFloat(t), s: t };
      if (/^[A-Za-z]/.test(t)) return { f: t };
      throw new Error('unexpected ' + t);
    }
    function primary() {
      var t = peek();
      if (t === '(') { i++; var e = or(); take(')'); return e; }
      if (t === '!') { i++; var inner = primary(); return function (r) { return !inner(r); }; }
      if (t === 'has' && toks[i + 1] === '(') {
        i += 2;
        var f = toks[i++];
        take(')');
        return function (r) { return value(r, f) !== undefined; };
      }
      var a = operand(), op = toks[i++];
      if (!/^(==|!=|<=|>=|<|>)$/.test(op || '')) throw new Error('expected a comparison');
      var b = operand();
      return function (r) { return compare(r, a, op, b); };
    }
    function and() {
      var kids = [primary()];
      while (peek() === '&&') { i++; kids.push(primary()); }
      return kids.length === 1 ? kids[0] : function (r) {
        for (var k = 0; k < kids.length; k++) if (!kids[k](r)) return false;
        return true;
      };
    }
    function or() {
      var kids = [and()];
      while (peek() === '||') { i++; kids.push(and()); }
      return kids.length === 1 ? kids[0] : function (r) {
        for (var k = 0; k < kids.length; k++) if (kids[k](r)) return true;
        return false;
      };
    }
    var e = or();
    if (i !== toks.length) throw new Error('unexpected ' + toks[i]);
    return e;
  }

  function Missing() {}
  function side(r, o) {
    if (o.f === undefined) return o;
    var v = value(r, o.f);
    if (v === undefined) throw new Missing();
    v = String(v).trim();
    return { s: v, n: number(v) };
  }
  function compare(r, a, op, b) {
    a = side(r, a);
    b = side(r, b);
    var c;
    if (a.n !== undefined && b.n !== undefined && !isNaN(a.n) && !isNaN(b.n))
      c = a.n < b.n ? -1 : a.n > b.n ? 1 : 0;
    else
      c = a.s === b.s ? 0 : op === '==' || op === '!=' ? 1 : a.s < b.s ? -1 : 1;
    return op === '==' ? c === 0 : op === '!=' ? c !== 0 : op === '<' ? c < 0 :
      op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0;
  }

  /* ------------------------------------------------ filter and sort */

  function refilter() {
    var test = null;
    filterError = '';
    filterMissing = 0;
    var text = state.filter.trim();
    if (text) {
      try { test = parseExpr(text); } catch (e) {
        /* not an expression: words to find in titles */
        filterError = e.message;
        var words = text.toLowerCase();
        test = function (r) { return String(r.t).toLowerCase().indexOf(words) >= 0; };
      }
    }
    view = [];
    for (var i = 0; i < recs.length; i++) {
      var keep = true;
      if (test) {
        try { keep = test(recs[i]); } catch (e) {
          if (!(e instanceof Missing)) throw e;
          keep = false;
          filterMissing++;
        }
      }
      if (keep) view.push(i);
    }
    resort();
  }

  function resort() {
    var key = state.sort, dir = state.desc ? -1 : 1;
    if (key) {
      var nums = true, vals = {};
      for (var i = 0; i < view.length; i++) {
        var v = value(recs[view[i]], key);
        vals[view[i]] = v;
        if (v !== undefined && isNaN(number(v))) nums = false;
      }
      view.sort(function (a, b) {
        var x = vals[a], y = vals[b];
        if (x === undefined || y === undefined)   /* records without it go last */
          return x === y ? a - b : x === undefined ? 1 : -1;
        if (nums) { x = number(x); y = number(y); }
        return x < y ? -dir : x > y ? dir : a - b;
      });
    }
    layout();
    charts();
    summary();
  }

  /* ------------------------------------------------------ the sheet */

  var columns = 1;
  function layout() {
    var sheet = $('lk-sheet');
    columns = Math.max(1, Math.floor(sheet.clientWidth / CARD_W));
    sheet.style.height = Math.ceil(view.length / columns) * CARD_H + 'px';
    lastRange = '';
    drawVisible();
  }

  function status(r) {
    var solvable = r.fmap.solvable;
    if (r.sol === 'solved') return ['solved', 'solution plays to a win'];
    if (r.sol === 'unsolved') return ['bad', 'solution does not win'];
    if (r.sol === 'bad') return ['bad', 'solution does not play'];
    if (solvable === 'no') return ['no', 'unsolvable'];
    if (solvable === 'unknown') return ['unknown', 'unknown' + (r.fmap.limit ? ' (' + r.fmap.limit + ')' : '')];
    if (solvable === 'yes') return ['solvable', 'solvable, no solution to play'];
    return ['none', 'not solved yet'];
  }

  /* A card shows a record's answers, not what every card repeats: the
   * answers first, then the field the sheet is sorted by, then other
   * fields whose value is not the same on every card (optimal: pushes); where a level comes
   * from (its script, settings, seed) and its solution are in the level's
   * own view.  At most CARD_ROWS rows, which the card has room for. */
  var ANSWERS = ['moves', 'pushes', 'grade', 'difficulty', 'difficulty-min', 'solutions', 'unique',
    'stars', 'combo-moves', 'dead-ends', 'rank', 'verified', 'verify-error', 'requires', 'shortcut',
    'exists', 'example', 'error', 'limit', 'optimum', 'no-solution-within', 'states'];
  var NOT_ON_CARDS = ['solution', 'title', 'settings', 'game', 'script', 'script-hash', 'level', 'message',
    'from', 'generator', 'seed', 'index', 'solvable'];
  var CARD_ROWS = 5;
  var sameEverywhere = {};          /* field -> true when every record has one value */
  function findSame() {
    var first = {};
    sameEverywhere = {};
    if (recs.length < 2) return;
    fieldNames.forEach(function (f) { sameEverywhere[f.toLowerCase()] = true; });
    recs.forEach(function (r) {
      Object.keys(sameEverywhere).forEach(function (low) {
        var v = r.fmap[low];
        if (!(low in first)) first[low] = v;
        else if (first[low] !== v) delete sameEverywhere[low];
      });
    });
  }

  function cardFields(r) {
    var order = ANSWERS.filter(function (k) { return r.fmap[k] !== undefined; });
    if (state.sort && order.indexOf(state.sort.toLowerCase()) < 0 && value(r, state.sort) !== undefined)
      order.unshift(state.sort.toLowerCase());
    for (var k = 0; k < r.f.length; k++) {
      var low = r.f[k][0].toLowerCase();
      if (order.indexOf(low) < 0 && NOT_ON_CARDS.indexOf(low) < 0 && !sameEverywhere[low])
        order.push(low);
    }
    return order.slice(0, CARD_ROWS);
  }

  /* A title that fits its card: shortened in the middle, since the end of a
   * pack's titles tells its levels apart ("Boxoban medium/valid/000.txt #17");
   * the whole title is the tooltip. */
  var probe = null, fitted = {};
  function titleWidth(text) {
    if (!probe) {
      /* measured as the card shows it: same class, so same font */
      probe = document.createElement('div');
      probe.className = 'lk-title';
      probe.style.cssText = 'position:absolute;visibility:hidden;left:-9999px;top:0;width:auto;overflow:visible';
      document.body.appendChild(probe);
    }
    probe.textContent = text;
    return probe.getBoundingClientRect().width;
  }
  function fitTitle(t) {
    t = String(t);
    if (fitted[t] !== undefined) return fitted[t];
    var room = CARD_W - 8 - 12 - 2 - 2, chars = Array.from(t), out = t;
    if (titleWidth(t) > room) {
      /* the most characters that fit, found by halving */
      var cut = function (keep) {
        var head = Math.floor(keep * 2 / 5);
        return chars.slice(0, head).join('') + '\u2026' + chars.slice(chars.length - (keep - head)).join('');
      };
      var lo = 1, hi = chars.length - 1;
      while (lo < hi) {
        var mid = Math.ceil((lo + hi) / 2);
        if (titleWidth(cut(mid)) <= room) lo = mid; else hi = mid - 1;
      }
      out = cut(lo);
    }
    return (fitted[t] = out);
  }

  function card(i) {
    var r = recs[i];
    prepare(r);
    var st = status(r);
    var pic = r.drawn ? svgOf(r, r.firstIds, 'lk-thumb') :
      '<pre class="lk-nopic">' + esc(r.grid) + '</pre>';
    var rows = [], order = cardFields(r);
    for (var j = 0; j < order.length; j++) {
      var v = value(r, order[j]);
      rows.push('<tr data-k="' + esc(order[j]) + '"><th>' + esc(order[j]) + '</th><td title="' + esc(v) + '">' +
        esc(v) + '</td></tr>');
    }
    return '<div class="lk-card" data-i="' + i + '" tabindex="0"><div class="lk-pic">' + pic +
      '</div><div class="lk-title" title="' + esc(r.t) + '">' + esc(fitTitle(r.t)) + '</div>' +
      '<div class="lk-badge lk-' + st[0] + '">' + esc(st[1]) + '</div>' +
      '<table class="lk-fields">' + rows.join('') + '</table></div>';
  }

  var lastRange = '';
  function drawVisible() {
    var sheet = $('lk-sheet');
    var top = sheet.getBoundingClientRect().top + window.scrollY;
    var y0 = window.scrollY - top, y1 = y0 + window.innerHeight;
    var row0 = Math.max(0, Math.floor(y0 / CARD_H) - 1);
    var row1 = Math.max(row0, Math.ceil(y1 / CARD_H) + 1);
    var range = row0 + ':' + row1 + ':' + columns + ':' + view.length;
    if (range === lastRange) return;
    lastRange = range;
    var parts = [];
    for (var row = row0; row <= row1; row++) {
      for (var col = 0; col < columns; col++) {
        var n = row * columns + col;
        if (n >= view.length) break;
        parts.push('<div class="lk-slot" style="left:' + col * CARD_W + 'px;top:' + row * CARD_H +
          'px">' + card(view[n]) + '</div>');
      }
    }
    sheet.innerHTML = parts.join('');
  }

  /* --------------------------------------------------------- charts */

  /* A bar chart; `atLeast` (optional) counts, per bar, levels known only
   * to be at least there (a grade ">= medium"): stacked on the bar, pale. */
  function bars(title, labels, counts, note, atLeast) {
    var tot = counts.map(function (c, i) { return c + (atLeast ? atLeast[i] : 0); });
    var max = Math.max.apply(null, tot.concat([1])), w = 300, h = 150, T = 14,
      bw = w / Math.max(1, labels.length);
    var out = ['<figure class="lk-chart"><figcaption>' + esc(title) + '</figcaption>' +
      '<svg viewBox="0 -' + T + ' ' + w + ' ' + (h + 34 + T) + '" width="' + w + '" height="' + (h + 34 + T) + '">'];
    for (var i = 0; i < labels.length; i++) {
      var bh = counts[i] / max * h, more = atLeast ? atLeast[i] : 0, mh = more / max * h;
      out.push('<rect class="lk-bar" data-n="' + counts[i] + '" x="' + (i * bw + 2) + '" y="' + (h - bh) +
        '" width="' + (bw - 4) + '" height="' + bh + '" fill="#0072b2"><title>' + esc(labels[i]) + ': ' +
        counts[i] + '</title></rect>');
      if (more)
        out.push('<rect class="lk-bar-atleast" data-n="' + more + '" x="' + (i * bw + 2) + '" y="' +
          (h - bh - mh) + '" width="' + (bw - 4) + '" height="' + mh + '" fill="#0072b2" fill-opacity="0.35">' +
          '<title>at least ' + esc(labels[i]) + ': ' + more + '</title></rect>');
      out.push('<text x="' + (i * bw + bw / 2) + '" y="' + (h + 12) + '" font-size="10" text-anchor="middle">' +
        esc(labels[i]) + '</text><text x="' + (i * bw + bw / 2) + '" y="' + (h - bh - mh - 3) +
        '" font-size="10" text-anchor="middle">' + (tot[i] ? (more ? counts[i] + '+' + more : tot[i]) : '') +
        '</text>');
    }
    out.push('</svg>' + (note ? '<small>' + esc(note) + '</small>' : '') + '</figure>');
    return out.join('');
  }

  function charts() {
    var box = $('lk-charts'), out = [];
    var grades = (C.grades || []).slice(), gcount = {}, gbound = {}, any = false, bounds = 0;
    var diff = [], scatter = [], notDrawn = 0;
    for (var i = 0; i < view.length; i++) {
      var r = recs[view[i]];
      var g = r.fmap.grade;
      if (g !== undefined) {
        /* a lower bound (">= medium") is drawn at its band, pale: the
         * runs that failed could only raise it */
        var lb = /^>=\s*(.*)$/.exec(g), band = lb ? lb[1] : g;
        any = true;
        if (grades.indexOf(band) < 0) grades.push(band);
        if (lb) { gbound[band] = (gbound[band] || 0) + 1; bounds++; }
        else gcount[band] = (gcount[band] || 0) + 1;
      }
      var d = number(r.fmap.difficulty);
      if (!isNaN(d)) {
        diff.push(d);
        var len = number(r.fmap.moves);
        if (!isNaN(len)) scatter.push([len, d]);
      } else if (r.fmap.difficulty !== undefined) {
        notDrawn++;   /* a bound (">= 250.0") or unknown: no value to place */
      }
    }
    var left = notDrawn ? notDrawn + ' level' + (notDrawn === 1 ? '' : 's') +
      ' whose difficulty is a bound or unknown not drawn' : '';
    if (any)
      out.push(bars('grade', grades, grades.map(function (x) { return gcount[x] || 0; }),
        bounds ? 'pale: ' + bounds + ' grade' + (bounds === 1 ? '' : 's') + ' known only as a lower bound ' +
          '(>= band), drawn at that band' : '',
        grades.map(function (x) { return gbound[x] || 0; })));
    if (diff.length) {
      /* half-decade bins of log10 difficulty */
      var lo = Infinity, hi = -Infinity, logs = diff.map(function (x) { return Math.log10(Math.max(x, 1)); });
      logs.forEach(function (x) { lo = Math.min(lo, x); hi = Math.max(hi, x); });
      var b0 = Math.floor(lo * 2), b1 = Math.floor(hi * 2), labels = [], counts = [];
      for (var b = b0; b <= b1; b++) {
        labels.push(Math.round(Math.pow(10, b / 2)) + '');
        counts.push(0);
      }
      logs.forEach(function (x) { counts[Math.floor(x * 2) - b0]++; });
      out.push(bars('difficulty (states, log scale: a bar counts the levels from its number to the next bar\'s)',
        labels, counts, left));
    }
    if (scatter.length) out.push(scatterChart(scatter, left));
    box.innerHTML = out.join('');
  }

  function scatterChart(pts, left) {
    var w = 320, h = 160, L = 36, B = 24, maxX = 1, lo = Infinity, hi = -Infinity;
    var shown = pts, note = left || '';
    if (pts.length > 3000) {
      shown = [];
      for (var s = 0; s < 3000; s++) shown.push(pts[Math.floor(s * pts.length / 3000)]);
      note = '3000 of ' + pts.length + ' levels shown' + (note ? '; ' + note : '');
    }
    pts.forEach(function (p) {
      maxX = Math.max(maxX, p[0]);
      var y = Math.log10(Math.max(p[1], 1));
      lo = Math.min(lo, y); hi = Math.max(hi, y);
    });
    if (hi - lo < 1) hi = lo + 1;
    var out = ['<figure class="lk-chart"><figcaption>difficulty against solution length (moves)</figcaption>' +
      '<svg viewBox="0 0 ' + (w + L) + ' ' + (h + B) + '" width="' + (w + L) + '" height="' + (h + B) + '">' +
      '<line x1="' + L + '" y1="' + h + '" x2="' + (w + L) + '" y2="' + h + '" stroke="#888"/>' +
      '<line x1="' + L + '" y1="0" x2="' + L + '" y2="' + h + '" stroke="#888"/>' +
      '<text x="' + L + '" y="' + (h + 14) + '" font-size="10">0</text>' +
      '<text x="' + (w + L) + '" y="' + (h + 14) + '" font-size="10" text-anchor="end">' + maxX + '</text>' +
      '<text x="' + (L - 3) + '" y="10" font-size="10" text-anchor="end">' + Math.round(Math.pow(10, hi)) + '</text>' +
      '<text x="' + (L - 3) + '" y="' + h + '" font-size="10" text-anchor="end">' + Math.round(Math.pow(10, lo)) + '</text>'];
    shown.forEach(function (p) {
      var x = L + p[0] / maxX * (w - 4) + 2, y = h - (Math.log10(Math.max(p[1], 1)) - lo) / (hi - lo) * (h - 4) - 2;
      out.push('<circle cx="' + x.toFixed(1) + '" cy="' + y.toFixed(1) + '" r="2" fill="#d55e00" fill-opacity="0.6"/>');
    });
    out.push('</svg>' + (note ? '<small>' + esc(note) + '</small>' : '') + '</figure>');
    return out.join('');
  }

  function summary() {
    var counts = { solved: 0, solvable: 0, no: 0, unknown: 0, none: 0, bad: 0 }, games = {};
    for (var i = 0; i < view.length; i++) {
      var r = recs[view[i]];
      counts[status(r)[0]]++;
      games[r.g] = (games[r.g] || 0) + 1;
    }
    var g = Object.keys(games).map(function (k) { return k + ' ' + games[k]; }).join(', ');
    var text = view.length + (view.length === recs.length ? '' : ' of ' + recs.length) + ' levels' +
      (g ? ' (' + g + ')' : '') + ': ' + counts.solved + ' with a winning solution, ' +
      (counts.solvable ? counts.solvable + ' solvable without a solution to play, ' : '') + counts.no +
      ' unsolvable, ' + counts.unknown + ' unknown, ' + counts.none + ' not solved yet' +
      (counts.bad ? ', ' + counts.bad + ' whose solution does not win' : '');
    if (filterMissing) text += '; ' + filterMissing + ' lack a field the filter compares';
    if (filterError) text += '; not an expression (' + filterError + '): matching titles';
    $('lk-count').textContent = text;
    legend();
  }

  function legendItems(list) {
    return list.map(function (s) {
      return '<span class="lk-key"><svg viewBox="0 0 24 24" width="24" height="24"><use href="#y' + s +
        '"/></svg>' + esc(symbols[s].label) + '</span>';
    }).join('');
  }

  function legend() {
    var byGame = {}, order = [];
    for (var i = 0; i < view.length; i++) {
      var r = recs[view[i]];
      if (!r.lg) continue;
      if (!byGame[r.g]) { byGame[r.g] = {}; order.push(r.g); }
      r.lg.forEach(function (s) { byGame[r.g][s] = true; });
    }
    $('lk-legend').innerHTML = order.map(function (g) {
      return '<div><b>' + esc(g) + '</b> ' + legendItems(Object.keys(byGame[g]).map(Number)
        .sort(function (a, b) { return a - b; })) + '</div>';
    }).join('');
  }

  /* --------------------------------------------------- the player */

  var player = { r: null, frame: 0, present: null, steps: null, timer: 0 };

  function openLevel(i) {
    var r = recs[i];
    prepare(r);
    state.open = i;
    player.r = r;
    player.frame = 0;
    player.steps = (r.d || '').split('.').map(function (s) { return ids(s, r.k || 1); });
    if (!r.d) player.steps = [];
    player.present = new Uint8Array(r.atlas.length);
    r.firstIds.forEach(function (id) { player.present[id] = 1; });
    var d = $('lk-detail');
    d.hidden = false;
    $('lk-d-title').textContent = r.t + (r.src ? '  (' + r.src + ', record ' + r.n + ')' : '');
    $('lk-scrub').max = Math.max(0, r.nf - 1);
    var rows = r.f.map(function (f) {
      return '<tr><th>' + esc(f[0]) + '</th><td>' + esc(f[1]) + '</td></tr>';
    });
    $('lk-d-fields').innerHTML = rows.join('');
    $('lk-d-notes').textContent = (r.c || []).join('\n');
    $('lk-d-grid').textContent = r.grid;
    $('lk-d-legend').innerHTML = r.lg ? legendItems(r.lg) : '';
    $('lk-d-note').textContent = r.note || '';
    show();
    saveState();
  }

  function closeLevel() {
    stop();
    $('lk-detail').hidden = true;
    state.open = -1;
    saveState();
  }

  function show() {
    var r = player.r, out = [];
    if (r.drawn) {
      for (var i = 0; i < player.present.length; i++) if (player.present[i]) out.push(i);
      $('lk-d-pic').innerHTML = svgOf(r, out, 'lk-big');
    } else {
      $('lk-d-pic').innerHTML = '<pre class="lk-nopic">' + esc(r.grid) + '</pre>';
    }
    var last = Math.max(0, r.nf - 1), st = status(r), text;
    $('lk-scrub').value = player.frame;
    $('lk-frame').textContent = r.nf > 1 ? 'frame ' + player.frame + ' of ' + last : 'no solution to play';
    if (r.nf > 1 && player.frame === last)
      text = r.sol === 'solved' ? 'solved' : r.sol === 'unsolved' ? 'not solved: the solution ends here' : st[1];
    else if (r.nf > 1)
      text = 'playing back: ' + st[1];
    else
      text = st[1];
    $('lk-status').textContent = text;
    $('lk-status').className = 'lk-badge lk-' + (r.nf > 1 && player.frame === last && r.sol === 'solved' ? 'solved' :
      r.nf > 1 && player.frame < last ? 'none' : st[0]);
  }

  function toggle(list) {
    for (var i = 0; i < list.length; i++) player.present[list[i]] ^= 1;
  }

  function step(delta) {
    var r = player.r, last = Math.max(0, r.nf - 1);
    if (delta > 0 && player.frame < last) toggle(player.steps[player.frame++]);
    else if (delta < 0 && player.frame > 0) toggle(player.steps[--player.frame]);
    else return false;
    return true;
  }

  function seek(frame) {
    frame = Math.max(0, Math.min(frame, Math.max(0, player.r.nf - 1)));
    while (player.frame < frame) step(1);
    while (player.frame > frame) step(-1);
    show();
  }

  function play() {
    if (player.timer) return stop();
    if (player.frame >= player.r.nf - 1) seek(0);
    $('lk-play').textContent = 'pause';
    var speed = +$('lk-speed').value || 8;
    player.timer = setInterval(function () {
      if (!step(1)) stop();
      show();
    }, 1000 / speed);
  }

  function stop() {
    if (player.timer) clearInterval(player.timer);
    player.timer = 0;
    $('lk-play').textContent = 'play';
  }

  function onKey(e) {
    if (state.open < 0) return;
    var k = e.key;
    if (k === 'ArrowRight') { stop(); step(1); show(); }
    else if (k === 'ArrowLeft') { stop(); step(-1); show(); }
    else if (k === 'Home') { stop(); seek(0); }
    else if (k === 'End') { stop(); seek(player.r.nf - 1); }
    else if (k === ' ') play();
    else if (k === 'Escape') closeLevel();
    else return;
    e.preventDefault();
  }

  /* ----------------------------------------------- state, refresh */

  var storeKey = 'levelkit:' + location.pathname;
  function saveState() {
    if (!C.refresh) return;
    try {
      sessionStorage.setItem(storeKey, JSON.stringify({ sort: state.sort, desc: state.desc,
        filter: state.filter, open: state.open, y: window.scrollY, frame: player.frame,
        paused: $('lk-pause').checked }));
    } catch (e) { /* storage may be off for files: the page still works */ }
  }
  function loadState() {
    if (!C.refresh) return null;
    try { return JSON.parse(sessionStorage.getItem(storeKey) || 'null'); } catch (e) { return null; }
  }

  /* -------------------------------------------------------- set up */

  function controls() {
    var sort = $('lk-sort');
    var opts = ['<option value="">input order</option>', '<option value="title">title</option>'];
    fieldNames.forEach(function (f) {
      if (f.toLowerCase() !== 'title') opts.push('<option value="' + esc(f) + '">' + esc(f) + '</option>');
    });
    sort.innerHTML = opts.join('');
    sort.value = state.sort;
    $('lk-desc').textContent = state.desc ? 'descending' : 'ascending';
    $('lk-filter').value = state.filter;
    sort.addEventListener('change', function () { state.sort = sort.value; resort(); saveState(); });
    $('lk-desc').addEventListener('click', function () {
      state.desc = !state.desc;
      $('lk-desc').textContent = state.desc ? 'descending' : 'ascending';
      resort();
      saveState();
    });
    $('lk-filter').addEventListener('input', function () {
      state.filter = $('lk-filter').value;
      refilter();
      saveState();
    });
    $('lk-sheet').addEventListener('click', function (e) {
      var c = e.target.closest('.lk-card');
      if (c) openLevel(+c.getAttribute('data-i'));
    });
    $('lk-sheet').addEventListener('keydown', function (e) {
      var c = e.target.closest && e.target.closest('.lk-card');
      if (c && e.key === 'Enter') openLevel(+c.getAttribute('data-i'));
    });
    $('lk-close').addEventListener('click', closeLevel);
    $('lk-play').addEventListener('click', play);
    $('lk-prev').addEventListener('click', function () { stop(); step(-1); show(); });
    $('lk-next').addEventListener('click', function () { stop(); step(1); show(); });
    $('lk-first').addEventListener('click', function () { stop(); seek(0); });
    $('lk-last').addEventListener('click', function () { stop(); seek(player.r.nf - 1); });
    $('lk-scrub').addEventListener('input', function () { stop(); seek(+$('lk-scrub').value); });
    document.addEventListener('keydown', onKey);
    window.addEventListener('scroll', function () { drawVisible(); saveState(); });
    window.addEventListener('resize', layout);
    $('lk-pause').addEventListener('change', saveState);
    var notes = headers.map(function (h) { return (h.c || []).concat(h.f.map(function (f) {
      return f[0] + ': ' + f[1]; })).join('\n'); }).filter(Boolean);
    if (notes.length) { $('lk-headers').textContent = notes.join('\n\n'); $('lk-headers').hidden = false; }
  }

  function start() {
    var t0 = performance.now();
    readData();
    findSame();
    var saved = loadState();
    if (saved) { state.sort = saved.sort || ''; state.desc = !!saved.desc; state.filter = saved.filter || ''; }
    controls();
    refilter();
    var html = document.documentElement;
    html.setAttribute('data-first-screen', (performance.now()).toFixed(1));
    html.setAttribute('data-script-ms', (performance.now() - t0).toFixed(1));
    requestAnimationFrame(function () {
      requestAnimationFrame(function () { html.setAttribute('data-painted', performance.now().toFixed(1)); });
    });
    if (saved) {
      $('lk-pause').checked = !!saved.paused;
      window.scrollTo(0, saved.y || 0);
      drawVisible();
      if (saved.open >= 0 && saved.open < recs.length) { openLevel(saved.open); seek(saved.frame || 0); }
    }
    if (C.refresh > 0) {
      /* how often this page has reloaded itself, for a reader and a test */
      var reloads = 0;
      try { reloads = +(sessionStorage.getItem(storeKey + ':reloads') || 0); } catch (e) { /* off */ }
      html.setAttribute('data-reloads', reloads);
      $('lk-refresh').hidden = false;
      setTimeout(function again() {
        if ($('lk-pause').checked) return setTimeout(again, C.refresh * 1000);
        saveState();
        try { sessionStorage.setItem(storeKey + ':reloads', reloads + 1); } catch (e) { /* off */ }
        location.reload();
      }, C.refresh * 1000);
    }
    /* #level=N: record N, numbered as filter's `record`, tsv's column and
     * the messages number it (from 1 in its input, headers counted) */
    var m = /^#level=(\d+)$/.exec(location.hash);
    for (var ri = 0; m && ri < recs.length; ri++)
      if (recs[ri].n === +m[1]) { openLevel(ri); break; }
    if (/^#selftest/.test(location.hash)) selftest();
  }

  /* ------------------------------------------------------ self-test */

  /* Everything through the page's own DOM: scroll the sheet and read the
   * cards drawn; open levels by clicking their cards and play them with
   * the arrow keys; sort and filter with the controls. */
  function params() {
    var out = {};
    location.hash.replace(/^#selftest&?/, '').split('&').forEach(function (kv) {
      var i = kv.indexOf('=');
      if (i > 0) out[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1));
    });
    return out;
  }

  /* Scroll through the sheet and call fn(card, position) once for every
   * card drawn, its position read from where it stands. */
  function everyCard(fn) {
    var sheet = $('lk-sheet'), top = sheet.getBoundingClientRect().top + window.scrollY;
    var rows = Math.ceil(view.length / columns), done = {};
    for (var row = 0; row < rows; row++) {
      window.scrollTo(0, top + row * CARD_H);
      drawVisible();
      var cards = sheet.querySelectorAll('.lk-slot');
      for (var c = 0; c < cards.length; c++) {
        var slot = cards[c];
        var pos = Math.round(parseFloat(slot.style.top) / CARD_H) * columns +
          Math.round(parseFloat(slot.style.left) / CARD_W);
        if (done[pos]) continue;
        done[pos] = true;
        fn(slot.querySelector('.lk-card'), pos);
      }
    }
    window.scrollTo(0, 0);
    drawVisible();
  }

  function key(name) {
    return new KeyboardEvent('keydown', { key: name, bubbles: true, cancelable: true });
  }

  function findCard(i) {
    var pos = view.indexOf(i), sheet = $('lk-sheet');
    var top = sheet.getBoundingClientRect().top + window.scrollY;
    window.scrollTo(0, top + Math.floor(pos / columns) * CARD_H);
    drawVisible();
    return sheet.querySelector('.lk-card[data-i="' + i + '"]');
  }

  function symbolNames(svg) {
    var names = {};
    svg.querySelectorAll('use').forEach(function (u) {
      var s = symbols[+u.getAttribute('href').slice(2)];
      var n = s ? s.name : '?';
      names[n] = (names[n] || 0) + 1;
    });
    return names;
  }

  /* Where each symbol stands: name -> ["x,y", ...] in cells, sorted. */
  function symbolPlaces(svg) {
    var places = {};
    svg.querySelectorAll('use').forEach(function (u) {
      var s = symbols[+u.getAttribute('href').slice(2)];
      var n = s ? s.name : '?';
      (places[n] = places[n] || []).push(+u.getAttribute('x') / U + ',' + +u.getAttribute('y') / U);
    });
    Object.keys(places).forEach(function (n) { places[n].sort(); });
    return places;
  }

  function selftest() {
    var p = params(), out = { levels: recs.length, drawn: 0, cards: {}, plays: [], sort: null, filter: null };
    /* 1. every level drawn on the sheet */
    everyCard(function (c) {
      var i = c.getAttribute('data-i'), svg = c.querySelector('svg.lk-thumb');
      var t = c.querySelector('.lk-title'), rows = c.querySelectorAll('.lk-fields tr');
      var box = c.getBoundingClientRect(), pad = parseFloat(getComputedStyle(c).paddingBottom) || 0;
      out.cards[i] = { elements: svg ? svg.querySelectorAll('*').length - 1 : 0,
        expected: recs[+i].drawn ? recs[+i].firstIds.length : 0, title: recs[+i].t,
        shown: t.textContent, tip: t.getAttribute('title'), titleFits: t.scrollWidth <= t.clientWidth,
        rows: rows.length, rowsFit: !rows.length ||
          rows[rows.length - 1].getBoundingClientRect().bottom <= box.bottom - pad + 0.5,
        fields: Array.prototype.map.call(rows, function (tr) { return tr.getAttribute('data-k'); }) };
    });
    Object.keys(out.cards).forEach(function (i) {
      var c = out.cards[i];
      if (c.elements > 0 && c.elements === c.expected) out.drawn++;
    });
    /* 2. every solution played to its end */
    recs.forEach(function (r) {
      var c = findCard(r.idx);
      if (!c) { out.plays.push({ i: r.idx, error: 'no card' }); return; }
      c.click();
      var steps = 0;
      for (var s = 0; s + 1 < r.nf; s++) { document.dispatchEvent(key('ArrowRight')); steps++; }
      var svg = $('lk-d-pic').querySelector('svg');
      var stepped = svg ? svg.innerHTML : '';
      var play = { i: r.idx, n: r.n, title: r.t, game: r.g, frames: r.nf, steps: steps,
        frame: $('lk-frame').textContent, status: $('lk-status').textContent,
        names: svg ? symbolNames(svg) : {}, places: svg ? symbolPlaces(svg) : {},
        elements: svg ? svg.querySelectorAll('*').length - 1 : 0 };
      document.dispatchEvent(key('Home'));
      document.dispatchEvent(key('End'));
      var jumped = $('lk-d-pic').querySelector('svg');
      play.consistent = (jumped ? jumped.innerHTML : '') === stepped;
      document.dispatchEvent(key('Home'));
      var back = $('lk-d-pic').querySelector('svg');
      play.backToStart = back ? back.querySelectorAll('*').length - 1 === (r.drawn ? r.firstIds.length : 0) : !r.drawn;
      document.dispatchEvent(key('Escape'));
      play.closed = $('lk-detail').hidden;
      out.plays.push(play);
    });
    /* 3. sorting through the controls */
    var field = p.sort || 'moves';
    var sel = $('lk-sort');
    sel.value = field;
    sel.dispatchEvent(new Event('change'));
    var seen = function () {
      var vals = [];
      everyCard(function (c, pos) {
        var td = c.querySelector('tr[data-k="' + field.toLowerCase() + '"] td');
        vals[pos] = td ? td.textContent : null;
      });
      return vals;
    };
    out.sort = { field: field, selected: sel.value, ascending: seen() };
    $('lk-desc').click();
    out.sort.descending = seen();
    $('lk-desc').click();
    sel.value = '';
    sel.dispatchEvent(new Event('change'));
    /* 4. filtering through the box */
    var expr = p.filter || 'has(moves)';
    var box = $('lk-filter');
    box.value = expr;
    box.dispatchEvent(new Event('input'));
    var shown = 0;
    everyCard(function () { shown++; });
    out.filter = { expression: expr, cards: shown, summary: $('lk-count').textContent };
    box.value = '';
    box.dispatchEvent(new Event('input'));
    out.charts = $('lk-charts').querySelectorAll('figure').length;
    /* what each chart says: its caption, note, labels and bars */
    out.chartText = [].map.call($('lk-charts').querySelectorAll('figure'), function (f) {
      var q = function (sel) { return [].map.call(f.querySelectorAll(sel), function (e) { return e; }); };
      var note = f.querySelector('small');
      return {
        caption: f.querySelector('figcaption').textContent,
        note: note ? note.textContent : '',
        labels: q('text[text-anchor="middle"]').filter(function (t, k) { return k % 2 === 0; })
          .map(function (t) { return t.textContent; }),
        bars: q('rect.lk-bar').map(function (b) { return +b.getAttribute('data-n'); }),
        atLeast: q('rect.lk-bar-atleast').map(function (b) { return +b.getAttribute('data-n'); })
      };
    });
    var pre = document.createElement('pre');
    pre.id = 'lk-selftest';
    pre.textContent = JSON.stringify(out);
    document.body.appendChild(pre);
    document.title += ' [selftest done]';
  }

  document.addEventListener('DOMContentLoaded', start);
})();
