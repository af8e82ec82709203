/* hipvis HTML report: draws the page from the JSON in #hv-data (written by
 * src/analyze/report/html.c; the "report" member is the --json document,
 * schema in docs/analysis.md). No library, no network: plain DOM + canvas.
 * Hooks for tests and users: window.hipvis.{select(i), selectOccurrence(i, k),
 * view(), all, bugs, ready}, and
 * #timeline's data-v0/data-v1 (visible range, ns from t0). */
(function () {
  'use strict';
  var T0 = performance.now();
  var D = JSON.parse(document.getElementById('hv-data').textContent);
  var R = D.report;
  var KINDS = ['copy', 'memset', 'launch', 'replay', 'sync', 'event record', 'event wait', 'guard', 'mark', 'other'];
  var COLORS = ['#1e88e5', '#00897b', '#7e57c2', '#ef6c00', '#546e7a', '#8d6e63', '#c0ca33', '#d81b60', '#6d4c41', '#9e9e9e'];
  var SEV = { error: '#c62828', warning: '#d9730d', info: '#2f6fb0', none: '#667085' };

  function el(tag, attrs, kids) {
    var e = document.createElement(tag);
    if (attrs) for (var k in attrs) {
      if (k === 'text') e.textContent = attrs[k];
      else if (k === 'cls') e.className = attrs[k];
      else e.setAttribute(k, attrs[k]);
    }
    (kids || []).forEach(function (c) { if (c != null) e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c); });
    return e;
  }
  function fmtNs(ns) {
    var a = Math.abs(ns);
    if (a >= 1e9) return (ns / 1e9).toFixed(a >= 1e10 ? 2 : 3) + ' s';
    if (a >= 1e6) return (ns / 1e6).toFixed(a >= 1e7 ? 2 : 3) + ' ms';
    if (a >= 1e3) return (ns / 1e3).toFixed(a >= 1e4 ? 1 : 2) + ' us';
    return Math.round(ns) + ' ns';
  }
  function fmtBytes(n) {
    if (n >= 1073741824 && n % 1073741824 === 0) return n / 1073741824 + ' GiB';
    if (n >= 1048576 && n % 1048576 === 0) return n / 1048576 + ' MiB';
    if (n >= 1024 && n % 1024 === 0) return n / 1024 + ' KiB';
    return n + ' B';
  }
  /* Axis labels: enough decimals that neighbouring ticks differ. */
  function fmtTick(ns, step) {
    var u = Math.abs(ns) >= 1e9 || step >= 1e8 ? [1e9, ' s'] : Math.abs(ns) >= 1e6 || step >= 1e5 ? [1e6, ' ms'] : Math.abs(ns) >= 1e3 || step >= 100 ? [1e3, ' us'] : [1, ' ns'];
    var dec = Math.max(0, Math.min(6, Math.ceil(-Math.log10(step / u[0]) + 1e-9)));
    return (ns / u[0]).toFixed(dec) + u[1];
  }
  function num(n) { return Number(n).toLocaleString('en-US'); }

  /* ---------------------------------------------------------------- data */
  var ev = D.ev, N = ev.t.length;
  var ET = new Float64Array(N), ES = new Float64Array(N);
  var EK = Uint8Array.from(ev.k), ER = Uint32Array.from(ev.r), EN = Uint32Array.from(ev.n), EX = Float64Array.from(ev.x);
  for (var i = 0, t = 0, s = 0; i < N; i++) { t += ev.t[i]; s += ev.s[i]; ET[i] = t; ES[i] = s; }
  D.ev = null;
  var procs = D.procs, tracks = D.tracks;
  var procByPid = {};
  procs.forEach(function (p, i) { if (!(p.pid in procByPid)) procByPid[p.pid] = i; });
  var trackByName = {};
  tracks.forEach(function (t, i) { trackByName[t.p + '|' + t.name] = i; });

  /* Rows: a process header row, then its tracks. */
  var ROW = 18, HEAD = 16, AXIS = 22, LABEL = 190;
  var rows = [], trackY = new Float64Array(tracks.length), headY = [];
  var y = AXIS;
  procs.forEach(function (p, pi) {
    headY[pi] = y;
    rows.push({ head: true, y: y, text: 'pid ' + p.pid + '  ' + (p.exe || '').split('/').pop() });
    y += HEAD;
    tracks.forEach(function (t, ti) {
      if (t.p !== pi) return;
      rows.push({ track: ti, y: y, text: t.name });
      trackY[ti] = y;
      y += ROW;
    });
  });
  var HEIGHT = y + 4;

  /* Time extent ("all"): the ops, nothing else. t = 0 is the first trace's
   * start (its header: when the tracer came up), and a program may spend
   * most of its run loading the runtime before its first call; an extent
   * from 0 squeezed the ops into the last part of the axis. Density bins
   * count only when they hold ops the page does not draw one by one, and
   * then from their first non-empty bin. */
  var tmin = Infinity, tmax = -Infinity;
  for (i = 0; i < N; i++) { if (ET[i] < tmin) tmin = ET[i]; if (ET[i] > tmax) tmax = ET[i]; }
  var HW = D.hist.w, HB = D.hist.bins;
  if (D.ops_in_window > D.kept) HB.forEach(function (b) {
    for (var k = 0; k < b.length && !b[k]; k++);
    if (k < b.length) { tmin = Math.min(tmin, k * HW); tmax = Math.max(tmax, b.length * HW); }
  });
  function sideT(f, s) {
    if (!s || s.ts_ns == null) return null;
    var p = procByPid[f.pid];
    return p == null ? null : s.ts_ns + procs[p].shift;
  }
  function sideTrack(f, s) {
    var p = procByPid[f.pid];
    if (p == null || !s) return null;
    if (s.role === 'observe' || !s.stream) return trackByName[p + '|host: syncs, guards'];
    var t = trackByName[p + '|stream ' + s.stream];
    return t == null ? null : t;
  }
  var F = R.findings || [];
  F.forEach(function (f) {
    [f.earlier, f.later].forEach(function (s) {
      var t = sideT(f, s);
      if (t != null) { tmin = Math.min(tmin, t); tmax = Math.max(tmax, t); }
    });
  });
  if (!isFinite(tmin)) { tmin = 0; tmax = 1e6; }
  if (tmax - tmin < 1000) tmax = tmin + 1000;
  var pad = (tmax - tmin) * 0.02;
  var FULL0 = tmin - pad, FULL1 = tmax + pad;
  var v0 = FULL0, v1 = FULL1;
  var selected = -1, selPair = null;   /* selPair: one occurrence of the selected group (--all) */

  /* ---------------------------------------------------------------- bugs */
  /* One card per bug, as the text report counts them: R.bugs (findings.c's
   * hv_findings_bugs: the same writer call and reading kernel argument in
   * other graph execs or processes is one bug) with R.findings ordered so
   * that each bug's groups are adjacent, most severe bug first. A finding no
   * bug names (the clustering ran out of memory) is a bug of its own, as in
   * the text report. The cards are the bugs at or above --fail-on, the
   * verdict's count; the others sit folded under them. */
  var SEVN = { none: 0, info: 1, warning: 2, error: 3 };
  var BUGS = (R.bugs || []).map(function (b) { return { rule: b.rule, severity: b.severity, count: b.count, processes: b.processes, execs: b.execs, groups: b.groups.slice(), next: b.next }; });
  var bugOf = [];
  BUGS.forEach(function (b, k) { b.groups.forEach(function (g) { bugOf[g] = k; }); });
  F.forEach(function (f, i) {
    if (bugOf[i] != null) return;
    bugOf[i] = BUGS.length;
    BUGS.push({ rule: f.rule, severity: f.severity, count: f.count, processes: 1, execs: f.later && f.later.exec ? 1 : 0, groups: [i], next: null });
  });
  var failOn = SEVN[R.fail_on] || 0;
  function atFailOn(b) { return !failOn || SEVN[b.severity] >= failOn; }
  var nBugsAt = BUGS.filter(atFailOn).length;
  function plural(n, one, many) { return num(n) + ' ' + (n === 1 ? one : (many || one + 's')); }
  /* The report's own verdict line where it has one (it says what was not checked). */
  var RV = R.verdict || {};
  var verdict = failOn ? 'verdict: ' + (RV.text || plural(nBugsAt, 'bug') + ' (' + plural(R.groups_at_or_above_fail_on, 'finding group') + ') at or above ' + R.fail_on)
    : plural(BUGS.length, 'bug') + ' in ' + plural(F.length, 'finding group') + ' (--fail-on none: no verdict)';

  /* ------------------------------------------------------------ coverage */
  /* What the analysis could not check: the report's coverage object
   * (src/analyze/coverage.c) where it has a count, else its per-trace counts. Each gap: [what, count,
   * sentence, short form for the header]. "Everything recorded was
   * checked" only when every count is zero. */
  var COV = (function () {
    var C = R.coverage || {}, T = R.traces || [];
    function sum(k) { return T.reduce(function (a, t) { return a + (t[k] || 0); }, 0); }
    function has(k) { return typeof C[k] === 'number'; }
    var launches = sum('launches'), unsampled = has('launches_unsampled') ? C.launches_unsampled : R.launches_unsampled || 0;
    var dropped = sum('dropped'), gaps = sum('chunk_gaps'), late = sum('late_records');
    var lost = has('records_lost') ? C.records_lost : dropped + gaps + late;
    var replays = has('replays') ? C.replays : sum('replays');
    var noInv = sum('execs_no_inventory');
    var unchecked = has('replays_checked') ? replays - C.replays_checked : sum('replays_unknown_exec');
    var cut = T.filter(function (t) { return t.truncated; }).length;
    var nofoot = T.filter(function (t) { return !t.footer && !t.truncated; }).length;
    var errs = (R.errors || []).length;
    /* The host-access check (null where it did not run; counts null where no trace left them). */
    var HC = C.hostcheck || {}, hcOps = HC.unprotected_ops || 0, hcLost = HC.lost || 0;
    var all = [
      ['unusable', R.unusable ? 1 : 0, 'No copy, memset, launch or replay succeeded: nothing was there to check (did the program find the runtime and a device?).', 'nothing ran'],
      ['launches', unsampled, num(unsampled) + ' of ' + num(launches) + ' launches recorded without kernel and arguments (HIPVIS_LAUNCH_EVERY): a hazard whose only reader or writer is one of them is not seen; trace again with HIPVIS_LAUNCH_EVERY=1 to see every launch.',
        num(unsampled) + ' of ' + num(launches) + ' launches without kernel and arguments'],
      ['records', lost, num(lost) + ' records lost (' + num(dropped) + ' dropped by the tracer, ' + num(gaps) + ' chunk gaps, ' + num(late) + ' late): the ops they held were not checked; Input health gives the causes.',
        num(lost) + ' records lost'],
      ['replays', unchecked, num(unchecked) + ' of ' + num(replays) + ' replays not checked: their graph exec has no recorded node inventory (not instantiated in the trace, or instantiated without its nodes), or one of its kernel nodes ran with an unknown argument layout.',
        num(unchecked) + ' of ' + num(replays) + ' replays unchecked'],
      ['inventory', has('replays_checked') ? 0 : noInv, plural(noInv, 'graph exec') + ' instantiated without a recorded node inventory: their replays are not checked.',
        plural(noInv, 'exec') + ' without inventory'],
      ['layout', C.unknown_layout_nodes || 0, num(C.unknown_layout_nodes) + ' kernel nodes run with an unknown argument layout (summed over replays): their pointer arguments were not checked.',
        num(C.unknown_layout_nodes) + ' node runs with unknown argument layout'],
      ['inferred', C.inferred_args || 0, num(C.inferred_args) + ' kernel-node arguments known as pointers by inference only (summed over replays): a pointer the inference missed is not checked.',
        num(C.inferred_args) + ' inferred-only arguments'],
      ['cut', cut, plural(cut, 'trace') + ' cut short: what came after the cut was not checked.', plural(cut, 'trace') + ' cut short'],
      ['footer', nofoot, plural(nofoot, 'trace') + ' without a footer (the process did not exit cleanly): the tracer\'s drop counts are unknown.',
        plural(nofoot, 'trace') + ' without footer'],
      ['hostcheck', hcOps + hcLost, num(hcOps) + ' of ' + num(HC.operations || 0) + ' in-flight operations not protected by the host-access check (' +
        num(HC.skipped_managed || 0) + ' managed, ' + num(HC.skipped_full || 0) + ' table full, ' + num(HC.skipped_other || 0) + ' other), ' +
        num(hcLost) + ' accesses lost: a host access to them is not seen (docs/hostcheck.md says why and what to do).',
        num(hcOps) + ' of ' + num(HC.operations || 0) + ' in-flight ops not host-checked' + (hcLost ? ', ' + num(hcLost) + ' accesses lost' : '')],
      ['errors', errs, plural(errs, 'input') + ' could not be read at all.', plural(errs, 'input') + ' unreadable']
    ];
    return { gaps: all.filter(function (it) { return it[1]; }), replays: replays, launches: launches,
      perReplay: has('unknown_layout_nodes') };
  })();

  /* -------------------------------------------------------------- header */
  var app = el('div');
  var exes = procs.map(function (p) { return (p.exe || '').split('/').pop(); }).filter(Boolean);
  document.title = 'hipvis report' + (exes.length ? ' - ' + exes[0] : '');
  var agg = D.ops_in_window - D.kept;
  var notes = [];
  if (agg > 0)
    notes.push(num(D.kept) + ' of ' + num(D.ops_in_window) + ' ops are drawn one by one (the first ' + num(D.max_detail) +
      ' and those around each new finding); the other ' + num(agg) + ' are aggregated into the grey per-track density (' +
      fmtNs(HW) + ' bins). --window A:B or --html-max-ops N shows another stretch in detail.');
  if (D.total_ops !== D.ops_in_window) notes.push('Window: ' + num(D.ops_in_window) + ' of ' + num(D.total_ops) + ' ops (' + D.view + ').');
  if (D.graphs_dropped) notes.push(num(D.graphs_dropped) + ' graph execs not kept (limit).');
  if (D.marks_dropped) notes.push(num(D.marks_dropped) + ' regions/marks not drawn (limit).');
  if (D.epochs_dropped) notes.push(num(D.epochs_dropped) + ' epoch ticks not drawn (limit).');
  if (D.oom) notes.push('Out of memory while collecting: the timeline is incomplete.');
  var header = el('header', null, [
    el('h1', { text: 'hipvis report' + (exes.length ? ': ' + exes.join(', ') : '') }),
    el('div', { cls: 'sub', text: plural(BUGS.length, 'bug') + ' in ' + plural(F.length, 'finding group') + ', ' +
      plural(procs.length, 'trace') + ', ' + num(D.total_ops) + ' ops; ' + D.view + '; hipvis ' + R.version }),
    el('div', { cls: 'verdict sev-' + (!failOn ? 'off' : nBugsAt ? BUGS[0].severity : RV.unchecked_replays ? 'warning' : 'none'), id: 'verdict', text: verdict }),
    /* under the verdict, as in the text report: what it does not cover */
    el('div', { cls: 'covline' + (COV.gaps.length ? ' gaps' : ''), id: 'coverage-line', text: 'coverage: ' + (COV.gaps.length ?
      COV.gaps.map(function (it) { return it[3]; }).join('; ') + ' (Coverage, left)' : 'everything recorded was checked') })
  ].concat(notes.map(function (n) { return el('div', { cls: 'note', text: n }); })));
  app.appendChild(header);

  /* ------------------------------------------------------------ findings */
  var main = el('main');
  var aside = el('aside');
  aside.appendChild(el('h2', { text: 'Findings' }));
  var list = el('ul', { id: 'findings' });
  function sideWords(s) {
    if (!s) return '';
    if (s.role === 'write' && s.kind === 'kernel') return 'kernel ' + (s.kernel || '?') + (s.arg_index != null ? ' arg ' + s.arg_index : '');
    if (s.role === 'write') return s.api + (s.dir ? ' ' + s.dir : '') + (s.bytes != null ? ' ' + fmtBytes(s.bytes) : '') + (s.kernel ? ' ' + s.kernel : '');
    if (s.role === 'replay') return 'replay of exec ' + s.exec + (s.node_index != null ? ' node ' + s.node_index : '') + (s.kernel ? ' (' + s.kernel + (s.arg ? ', ' + s.arg : '') + ')' : '');
    return s.api + (s.kernel ? ' ' + s.kernel : '');
  }
  /* The reader without what tells a bug's members apart (exec, node). */
  function readerWords(s, several) {
    if (several && s && s.role === 'replay') return 'replay' + (s.kernel ? ' of ' + s.kernel + (s.arg ? ', ' + s.arg : '') : '');
    return sideWords(s);
  }
  function findingWhat(f, several) {
    var what = f.earlier && f.later ? sideWords(f.earlier) + '  \u2192  ' + readerWords(f.later, several) : (f.note || f.why || '');
    return (f.buffer && f.buffer.name ? f.buffer.name + ': ' : '') + what;
  }
  /* text.c's replays_of: the replays of the processes a bug was seen in. */
  function replaysOf(b) {
    var seen = {}, total = 0;
    b.groups.forEach(function (g) {
      var pid = F[g].pid, t = (R.traces || []).filter(function (x) { return x.pid === pid; })[0];
      if (!seen[pid] && t) total += t.replays;
      seen[pid] = 1;
    });
    return total;
  }
  /* The text report's block head: how often, where. */
  function bugScope(b) {
    var f = F[b.groups[0]], n = b.groups.length;
    if (n === 1) return 'pid ' + f.pid + (f.earlier || f.later ? ', seq ' + f.first_seq + ' .. ' + f.last_seq : '');
    var r = f.later && f.later.role === 'replay' && b.execs === n ? replaysOf(b) : 0;
    return 'x' + num(b.count) + (r ? ' of ' + num(r) + ' replays' : '') + ' in ' +
      (b.execs > 1 ? num(b.execs) + ' graph execs of ' : b.processes === 1 ? num(n) + ' places in ' : '') +
      plural(b.processes, 'process', 'processes') + (b.processes === 1 ? ' (pid ' + f.pid + ')' : '');
  }
  /* One member of a bug (the text report's "seen in" row), without what
   * every member of the bug shares (same: field -> 1). */
  function memberKeys(f) {
    var s = f.later || {};
    return { pid: 'pid ' + f.pid, exec: s.exec ? 'exec ' + s.exec : '', buffer: f.buffer && f.buffer.lo ? 'buffer ' + f.buffer.lo : '',
      arg: s.arg || '', node: s.node_index != null ? 'node ' + s.node_index : '' };
  }
  function memberWords(f, same) {
    var k = memberKeys(f), w = [];
    ['pid', 'exec', 'buffer', 'arg', 'node'].forEach(function (x) { if (k[x] && !same[x]) w.push(k[x]); });
    return (w.length ? w.join('  ') + '  ' : '') + 'x' + num(f.count) + (f.earlier || f.later ? '  seq ' + f.first_seq + ' .. ' + f.last_seq : '');
  }
  var MAX_ROWS = 200;   /* members per card, occurrences per member: the DOM stays small */
  function card(b, k) {
    var i0 = b.groups[0], f = F[i0], n = b.groups.length;
    var occ = el('ul', { cls: 'occs' }), k0 = memberKeys(f), same = {};
    for (var x in k0) same[x] = n > 1 && b.groups.every(function (g) { return memberKeys(F[g])[x] === k0[x]; });
    b.groups.slice(0, MAX_ROWS).forEach(function (g) {
      var fg = F[g], li = el('li', { cls: 'occ', 'data-i': g }, [el('div', { text: memberWords(fg, same) })]);
      li.addEventListener('click', function (e) { e.stopPropagation(); select(g); });
      var pairs = fg.occurrences || [];
      if (pairs.length) {
        var ol = el('ol', { cls: 'pairs' });
        pairs.slice(0, MAX_ROWS).forEach(function (pr, j) {
          var pli = el('li', { cls: 'pair', 'data-i': g, 'data-k': j, text: 'seq ' + pr[0] + ' \u2192 ' + pr[1] });
          pli.addEventListener('click', function (e) { e.stopPropagation(); selectPair(g, j); });
          ol.appendChild(pli);
        });
        if (pairs.length > MAX_ROWS) ol.appendChild(el('li', { cls: 'more', text: '\u2026 and ' + num(pairs.length - MAX_ROWS) + ' more' }));
        li.appendChild(ol);
      }
      occ.appendChild(li);
    });
    if (n > MAX_ROWS) occ.appendChild(el('li', { cls: 'more', text: '\u2026 and ' + plural(n - MAX_ROWS, 'more place') }));
    var each = b.groups.some(function (g) { return F[g].occurrences; });
    var det = el('details', { cls: 'occ-list' }, [
      el('summary', { text: (n === 1 ? plural(f.count, 'occurrence') : plural(n, 'place') + ', ' + plural(b.count, 'occurrence')) +
        (each || !(f.earlier || f.later) ? '' : ' (--all lists each one)') }), occ]);
    var li = el('li', { cls: 'bug sev-' + b.severity, 'data-bug': k, 'data-i': i0, 'data-rule': b.rule, 'data-groups': n }, [
      el('span', { cls: 'count', text: 'x' + num(b.count) }),
      el('div', { cls: 'rule', text: b.rule + ' (' + b.severity + ')' }),
      el('div', { cls: 'scope', text: bugScope(b) }),
      el('div', { cls: 'what', text: findingWhat(f, n > 1) }),
      det
    ]);
    li.addEventListener('click', function () { select(i0); });
    return li;
  }
  var belowList = el('ul', { id: 'findings-below' }), belowEl = null;
  BUGS.forEach(function (b, k) { (atFailOn(b) ? list : belowList).appendChild(card(b, k)); });
  if (!nBugsAt) list.appendChild(el('li', { cls: 'none', text: BUGS.length ? 'No bug at or above ' + R.fail_on + '.' : 'No findings.' }));
  aside.appendChild(list);
  if (belowList.childNodes.length) {
    belowEl = el('details', { id: 'below' }, [el('summary', { text: plural(belowList.childNodes.length, 'bug') + ' below --fail-on ' + R.fail_on }), belowList]);
    aside.appendChild(belowEl);
  }

  function coveragePanel() {
    var ul = el('ul', { id: 'coverage', 'data-gaps': COV.gaps.length });
    COV.gaps.forEach(function (it) { ul.appendChild(el('li', { cls: 'gap', 'data-what': it[0], 'data-n': it[1], text: it[2] })); });
    if (!COV.gaps.length) ul.appendChild(el('li', { cls: 'ok', 'data-what': 'all', text: 'Everything recorded was checked: ' + plural(COV.replays, 'replay') +
      ' against their graphs\' recorded nodes, ' + plural(COV.launches, 'launch', 'launches') + ' with their kernel and arguments, no record lost.' }));
    if (!COV.perReplay && COV.replays)
      ul.appendChild(el('li', { cls: 'aside', text: 'Kernel nodes with an unknown argument layout are not counted in this report.' }));
    return ul;
  }
  aside.appendChild(el('h2', { text: 'Coverage' }));
  aside.appendChild(coveragePanel());
  main.appendChild(aside);

  /* ------------------------------------------------------------ timeline */
  var content = el('div', { cls: 'content' });
  var tlsec = el('section');
  tlsec.appendChild(el('h2', { text: 'Timeline (host time each call returned; per process and stream)' }));
  var rangeEl = el('span', { cls: 'range' });
  function btn(label, fn, title) { var b = el('button', { text: label, title: title || label }); b.addEventListener('click', fn); return b; }
  tlsec.appendChild(el('div', { cls: 'toolbar' }, [
    btn('+', function () { zoom(0.5, 0.5); }, 'zoom in (W, wheel)'),
    btn('\u2212', function () { zoom(2, 0.5); }, 'zoom out (S, wheel)'),
    btn('\u2190', function () { pan(-0.25); }, 'pan left (A, drag)'),
    btn('\u2192', function () { pan(0.25); }, 'pan right (D, drag)'),
    btn('all', function () { setView(FULL0, FULL1); }, 'whole trace (0)'),
    rangeEl
  ]));
  tlsec.appendChild(el('div', { cls: 'legend' }, KINDS.slice(0, 9).map(function (k, i) {
    return el('span', null, [el('i', { style: 'background:' + COLORS[i] }), k]);
  }).concat([agg > 0 ? el('span', null, [el('i', { style: 'background:#cfd5de' }), 'density (aggregated)']) : null,
    el('span', null, [el('i', { style: 'background:' + SEV.warning }), 'finding: write \u2192 reader']),
    el('span', null, [el('i', { style: 'background:#5c6bc0' }), 'epoch boundary (host observed)'])])));
  var wrap = el('div', { id: 'tlwrap' });
  var cv = el('canvas', { id: 'timeline', tabindex: '0' });
  var tip = el('div', { id: 'tip' });
  wrap.appendChild(cv); wrap.appendChild(tip);
  tlsec.appendChild(wrap);
  content.appendChild(tlsec);

  var detailSec = el('section');
  detailSec.appendChild(el('h2', { text: 'Detail' }));
  var detail = el('div', { id: 'detail' }, [el('div', { cls: 'sub', text: F.length ? 'Click a finding (left) or an op on the timeline.' : 'Click an op on the timeline.' })]);
  detailSec.appendChild(detail);
  content.appendChild(detailSec);

  var gsec = el('section');
  gsec.appendChild(el('h2', { text: 'Graph execs' }));
  var gselect = el('select', { id: 'graphsel' });
  (D.graphs || []).forEach(function (g, i) {
    gselect.appendChild(el('option', { value: i, text: 'pid ' + g.pid + ' exec ' + g.exec + ' (' + g.nnodes + ' nodes, ' + g.api + ' seq ' + g.inst_seq + ')' }));
  });
  gselect.addEventListener('change', function () { drawGraph(+gselect.value, null); });
  gsec.appendChild(el('div', { cls: 'gsel' }, D.graphs && D.graphs.length ? [gselect] : [el('span', { cls: 'sub', text: 'No graph inventory in the trace(s).' })]));
  var gnote = el('div', { cls: 'gnote' });
  gsec.appendChild(gnote);
  var gbox = el('div', { id: 'graphbox' });
  gsec.appendChild(gbox);
  content.appendChild(gsec);

  var hsec = el('section');
  hsec.appendChild(el('h2', { text: 'Input health' }));
  hsec.appendChild(healthTable());
  content.appendChild(hsec);
  main.appendChild(content);
  app.appendChild(main);
  document.body.appendChild(app);

  var ctx = cv.getContext('2d');
  var W = 800, DPR = window.devicePixelRatio || 1;
  function resize() {
    W = Math.max(300, wrap.clientWidth);
    cv.width = Math.round(W * DPR); cv.height = Math.round(HEIGHT * DPR);
    cv.style.height = HEIGHT + 'px';
    ctx.setTransform(DPR, 0, 0, DPR, 0, 0);
    draw();
  }
  function xOf(t) { return LABEL + (t - v0) / (v1 - v0) * (W - LABEL); }
  function tOf(x) { return v0 + (x - LABEL) / (W - LABEL) * (v1 - v0); }
  function setView(a, b) {
    var span = Math.max(b - a, 50);
    var full = (FULL1 - FULL0) * 4;
    if (span > full) span = full;
    var mid = (a + b) / 2;
    v0 = mid - span / 2; v1 = mid + span / 2;
    cv.setAttribute('data-v0', Math.round(v0)); cv.setAttribute('data-v1', Math.round(v1));
    rangeEl.textContent = fmtNs(v0) + ' \u2013 ' + fmtNs(v1) + '  (span ' + fmtNs(v1 - v0) + ')';
    draw();
  }
  function zoom(f, at) { var c = v0 + (v1 - v0) * at; setView(c - (c - v0) * f, c + (v1 - c) * f); }
  function pan(f) { var d = (v1 - v0) * f; setView(v0 + d, v1 + d); }

  var lastPx = new Float64Array(tracks.length);
  function draw() {
    ctx.clearRect(0, 0, W, HEIGHT);
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    /* rows */
    rows.forEach(function (r, i) {
      if (r.head) {
        ctx.fillStyle = '#eef1f6'; ctx.fillRect(0, r.y, W, HEAD);
        ctx.fillStyle = '#1d2330'; ctx.fillText(r.text.slice(0, 60), 4, r.y + HEAD / 2);
      } else {
        ctx.fillStyle = i % 2 ? '#ffffff' : '#fafbfd'; ctx.fillRect(0, r.y, W, ROW);
      }
    });
    /* density (every op, aggregated) */
    var span = v1 - v0, pw = W - LABEL;
    ctx.fillStyle = '#cfd5de';
    for (var ti = 0; agg > 0 && ti < tracks.length; ti++) {
      var b = HB[ti], ty = trackY[ti], max = 1;
      if (!b || !b.length) continue;
      for (var k = 0; k < b.length; k++) if (b[k] > max) max = b[k];
      for (k = 0; k < b.length; k++) {
        if (!b[k]) continue;
        var xa = xOf(k * HW), xb = xOf((k + 1) * HW);
        if (xb < LABEL || xa > W) continue;
        var h = Math.max(2, (ROW - 4) * Math.log(1 + b[k]) / Math.log(1 + max));
        ctx.fillRect(Math.max(xa, LABEL), ty + ROW - 2 - h, Math.max(1, Math.min(xb, W) - Math.max(xa, LABEL)), h);
      }
    }
    /* epoch boundaries */
    ctx.fillStyle = '#5c6bc0';
    (D.epochs || []).forEach(function (e) {
      var x = xOf(e[1]);
      if (x >= LABEL && x <= W) ctx.fillRect(x, trackY[e[0]], 1, 5);
    });
    /* regions (bars, nested by depth) and marks (ticks) */
    ctx.font = '10px system-ui, sans-serif';
    (D.marks || []).forEach(function (m) {
      var yy = trackY[m[0]], x0 = xOf(m[1]);
      if (m[2] === -1) {
        if (x0 < LABEL || x0 > W) return;
        ctx.fillStyle = COLORS[8];
        ctx.beginPath(); ctx.moveTo(x0, yy + 2); ctx.lineTo(x0 + 4, yy + ROW / 2); ctx.lineTo(x0, yy + ROW - 2); ctx.lineTo(x0 - 4, yy + ROW / 2); ctx.closePath(); ctx.fill();
        return;
      }
      var x1 = xOf(m[2] == null ? FULL1 : m[2]);
      if (x1 < LABEL || x0 > W) return;
      var a = Math.max(x0, LABEL), b = Math.min(Math.max(x1, x0 + 1), W), d = Math.min(m[5], 4);
      ctx.fillStyle = 'rgba(109,76,65,' + (0.18 + 0.12 * d) + ')';
      ctx.fillRect(a, yy + 2 + d, b - a, ROW - 4 - 2 * d);
      if (b - a > 40) { ctx.fillStyle = '#3e2723'; ctx.fillText(D.names[m[3]].slice(0, Math.floor((b - a) / 6)), a + 3, yy + ROW / 2); }
    });
    ctx.font = '11px system-ui, sans-serif';
    /* ops one by one, at most one per pixel column per track */
    lastPx.fill(-1);
    var wpx = Math.max(1, Math.min(6, 1000 / span * pw));
    for (var i = 0; i < N; i++) {
      var t = ET[i];
      if (t < v0 - span * 0.01 || t > v1) continue;
      var x = LABEL + (t - v0) / span * pw, r = ER[i], px = x | 0;
      if (lastPx[r] === px) continue;
      lastPx[r] = px;
      ctx.fillStyle = COLORS[EK[i]];
      ctx.fillRect(x, trackY[r] + 3, wpx, ROW - 8);
    }
    /* findings: arrow from the earlier op to the exposed one */
    F.forEach(function (f, fi) { drawFinding(f, fi, fi === selected); });
    /* labels over everything at the left, axis on top */
    ctx.fillStyle = '#ffffff'; ctx.fillRect(0, AXIS, LABEL, HEIGHT - AXIS);
    ctx.strokeStyle = '#d8dce3'; ctx.beginPath(); ctx.moveTo(LABEL + 0.5, 0); ctx.lineTo(LABEL + 0.5, HEIGHT); ctx.stroke();
    rows.forEach(function (r) {
      if (r.head) { ctx.fillStyle = '#eef1f6'; ctx.fillRect(0, r.y, LABEL, HEAD); ctx.fillStyle = '#1d2330'; ctx.fillText(r.text.slice(0, 30), 4, r.y + HEAD / 2); }
      else { ctx.fillStyle = '#3b4252'; ctx.fillText(r.text.slice(0, 30), 10, r.y + ROW / 2); }
    });
    drawAxis();
  }
  function drawAxis() {
    ctx.fillStyle = '#ffffff'; ctx.fillRect(0, 0, W, AXIS);
    ctx.strokeStyle = '#d8dce3'; ctx.beginPath(); ctx.moveTo(0, AXIS - 0.5); ctx.lineTo(W, AXIS - 0.5); ctx.stroke();
    var span = v1 - v0, step = Math.pow(10, Math.floor(Math.log10(span / 6)));
    if (span / step > 12) step *= 5; else if (span / step > 6) step *= 2;
    ctx.fillStyle = '#667085'; ctx.strokeStyle = '#eceff3';
    for (var t = Math.ceil(v0 / step) * step; t <= v1; t += step) {
      var x = xOf(t);
      if (x < LABEL) continue;
      ctx.fillRect(x, AXIS - 5, 1, 5);
      ctx.fillText(fmtTick(t, step), x + 3, AXIS / 2);
    }
    ctx.fillStyle = '#1d2330'; ctx.fillText('t = 0: trace start', 4, AXIS / 2);
  }
  function drawFinding(f, fi, sel) {
    var ta = sideT(f, f.earlier), tb = sideT(f, f.later);
    var ra = sideTrack(f, f.earlier), rb = sideTrack(f, f.later);
    if (sel && selPair) {   /* one occurrence of the group: its own ops */
      ta = selPair.ia >= 0 ? ET[selPair.ia] : null; ra = selPair.ia >= 0 ? ER[selPair.ia] : null;
      tb = selPair.ib >= 0 ? ET[selPair.ib] : null; rb = selPair.ib >= 0 ? ER[selPair.ib] : null;
    }
    var color = SEV[f.severity] || SEV.info;
    if (tb == null || rb == null) { tb = ta; rb = ra; }
    if (tb == null || rb == null) return;
    var xb = xOf(tb), yb = trackY[rb] + ROW / 2;
    ctx.strokeStyle = color; ctx.fillStyle = color; ctx.lineWidth = sel ? 2.5 : 1.2;
    if (ta != null && ra != null && (ta !== tb || ra !== rb)) {
      var xa = xOf(ta), ya = trackY[ra] + ROW / 2;
      /* the arc peaks at 3/4 of the bend: keep it under its process's header row */
      var top = headY[tracks[ra].p] + HEAD + 2;
      var bend = Math.max(14, Math.min(60, Math.abs(xb - xa) / 3, (Math.min(ya, yb) - top) / 0.75));
      ctx.beginPath(); ctx.moveTo(xa, ya);
      ctx.bezierCurveTo(xa + (xb - xa) / 3, ya - bend, xb - (xb - xa) / 3, yb - bend, xb, yb);
      ctx.stroke();
      ctx.beginPath(); ctx.arc(xa, ya, sel ? 4 : 3, 0, 6.3); ctx.fill();
      var ang = Math.atan2(yb - (yb - bend), xb - (xb - (xb - xa) / 3));
      ctx.beginPath(); ctx.moveTo(xb, yb);
      ctx.lineTo(xb - 8 * Math.cos(ang - 0.4), yb - 8 * Math.sin(ang - 0.4));
      ctx.lineTo(xb - 8 * Math.cos(ang + 0.4), yb - 8 * Math.sin(ang + 0.4));
      ctx.closePath(); ctx.fill();
    } else {
      ctx.beginPath(); ctx.moveTo(xb, yb - 6); ctx.lineTo(xb + 5, yb); ctx.lineTo(xb, yb + 6); ctx.lineTo(xb - 5, yb); ctx.closePath(); ctx.fill();
    }
    var bd = firstPair(f, sel ? selPair : null) && D.boundaries && D.boundaries[fi];
    if (sel && bd && ra != null && xOf(bd.t) < LABEL) {
      var msg = '\u25c0 host last observed this stream ' + fmtNs((ta != null ? ta : tb) - bd.t) + ' before the write: ' + (bd.api || 'sync') + ' seq ' + bd.seq;
      var hy = headY[tracks[ra].p];
      ctx.fillStyle = '#eef1f6';
      ctx.fillRect(LABEL + 2, hy, ctx.measureText(msg).width + 6, HEAD);
      ctx.fillStyle = '#3949ab';
      ctx.fillText(msg, LABEL + 4, hy + HEAD / 2);
      ctx.fillRect(LABEL + 1, trackY[ra] + 2, 2, ROW - 4);
    } else if (sel && bd && ra != null) {
      var xe = xOf(bd.t);
      ctx.setLineDash([4, 3]); ctx.strokeStyle = '#5c6bc0'; ctx.lineWidth = 1.5;
      ctx.beginPath(); ctx.moveTo(xe, trackY[ra] - 4); ctx.lineTo(xe, trackY[ra] + ROW + 4); ctx.stroke();
      ctx.setLineDash([]);
      ctx.fillStyle = '#3949ab';
      ctx.fillText('host last observed: ' + (bd.api || 'sync') + ' seq ' + bd.seq, xe + 4, trackY[ra] - 6 < AXIS + 4 ? trackY[ra] + ROW + 8 : trackY[ra] - 6);
    }
    ctx.lineWidth = 1;
  }

  /* --------------------------------------------------- interaction */
  var drag = null;
  cv.addEventListener('mousedown', function (e) { drag = { x: e.clientX, a: v0, b: v1, moved: false }; cv.classList.add('dragging'); });
  window.addEventListener('mouseup', function (e) {
    if (drag && !drag.moved) pick(e);
    drag = null; cv.classList.remove('dragging');
  });
  window.addEventListener('mousemove', function (e) {
    if (drag) {
      var dx = e.clientX - drag.x;
      if (Math.abs(dx) > 2) drag.moved = true;
      var dt = dx / (W - LABEL) * (drag.b - drag.a);
      setView(drag.a - dt, drag.b - dt);
      return;
    }
    if (e.target === cv) hover(e); else tip.style.display = 'none';
  });
  cv.addEventListener('wheel', function (e) {
    e.preventDefault();
    var rect = cv.getBoundingClientRect(), x = e.clientX - rect.left;
    if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) { pan((e.deltaX || e.deltaY) / 800); return; }
    var at = Math.max(0, Math.min(1, (x - LABEL) / (W - LABEL)));
    zoom(Math.pow(1.0015, e.deltaY), at);
  }, { passive: false });
  cv.addEventListener('keydown', function (e) {
    var k = e.key.toLowerCase();
    if (k === 'w' || k === '+') zoom(0.7, 0.5); else if (k === 's' || k === '-') zoom(1.4, 0.5);
    else if (k === 'a') pan(-0.15); else if (k === 'd') pan(0.15); else if (k === '0') setView(FULL0, FULL1);
  });
  function nearest(e) {
    var rect = cv.getBoundingClientRect(), x = e.clientX - rect.left, yy = e.clientY - rect.top;
    var r = -1;
    for (var ti = 0; ti < tracks.length; ti++) if (yy >= trackY[ti] && yy < trackY[ti] + ROW) r = ti;
    if (r < 0 || x < LABEL) return null;
    var best = -1, bd = 5 * (v1 - v0) / (W - LABEL), tx = tOf(x);
    for (var i = 0; i < N; i++) {
      if (ER[i] !== r) continue;
      var d = Math.abs(ET[i] - tx);
      if (d < bd) { bd = d; best = i; }
    }
    return { track: r, i: best, x: x, y: yy, t: tx };
  }
  function opText(i) {
    var k = EK[i], s = KINDS[k] + ': ' + D.names[EN[i]] + '\nseq ' + ES[i] + '   t ' + fmtNs(ET[i]);
    if (k === 0 || k === 1) s += '\n' + fmtBytes(EX[i]);
    if (k === 3 || (k === 7 && EX[i])) s += '\nexec ' + D.execs[EX[i]];
    return s + '\n' + tracks[ER[i]].name + ' (pid ' + procs[tracks[ER[i]].p].pid + ')';
  }
  function hover(e) {
    var h = nearest(e);
    if (!h) { tip.style.display = 'none'; return; }
    var text, mk = null;
    (D.marks || []).forEach(function (m) {
      if (m[0] !== h.track) return;
      var t1 = m[2] === -1 ? m[1] : m[2] == null ? FULL1 : m[2], slack = 4 * (v1 - v0) / (W - LABEL);
      if (h.t >= m[1] - slack && h.t <= t1 + slack && (!mk || m[5] >= mk[5])) mk = m;
    });
    if (mk) text = (mk[2] === -1 ? 'mark: ' : 'region: ') + D.names[mk[3]] + '\n' + fmtNs(mk[1]) + (mk[2] === -1 ? '' : ' \u2013 ' + (mk[2] == null ? 'end (still open)' : fmtNs(mk[2]) + '  (' + fmtNs(mk[2] - mk[1]) + ')'));
    else if (h.i >= 0) text = opText(h.i);
    else {
      var b = HB[h.track], k = Math.floor(h.t / HW);
      if (!b || k < 0 || k >= b.length || !b[k]) { tip.style.display = 'none'; return; }
      text = num(b[k]) + ' ops in ' + fmtNs(k * HW) + ' \u2013 ' + fmtNs((k + 1) * HW) + ' (aggregated)\n' + tracks[h.track].name;
    }
    tip.textContent = text;
    tip.style.display = 'block';
    tip.style.left = Math.min(h.x + 12, W - 260) + 'px';
    tip.style.top = (h.y + 14) + 'px';
  }
  function pick(e) {
    if (e.target !== cv) return;
    var h = nearest(e);
    if (!h || h.i < 0) return;
    detail.textContent = '';
    detail.appendChild(el('h3', { text: 'Op seq ' + ES[h.i] }));
    detail.appendChild(el('pre', { cls: 'mono', text: opText(h.i) }));
    if (EK[h.i] === 3) {
      var gi = graphIndex(procs[tracks[ER[h.i]].p].pid, D.execs[EX[h.i]]);
      if (gi >= 0) drawGraph(gi, null);
    }
  }

  /* ------------------------------------------------------ finding detail */
  function row(k, v) { return v == null || v === '' ? null : el('tr', null, [el('td', { text: k }), el('td', { text: String(v) })]); }
  function pyFrame(f) { return typeof f === 'string' ? f : f.file + ':' + f.line + (f.function ? ' in ' + f.function : ''); }
  function stackRows(s) {
    var out = [];
    if (s && s.python) out.push(row('python', (Array.isArray(s.python) ? s.python : [s.python]).map(pyFrame).join('\n') +
      /* HIPVIS_PYFRAMES=first: the target's first call's lines, not this op's own */
      (s.python_from === 'first_call' ? '\n(the lines of the first call on this target: HIPVIS_PYFRAMES=first; =1 records every site)' : '')));
    else if (s && s.python_status) out.push(row('python', '(' + s.python_status + ')'));
    if (s && s.region) out.push(row('region', s.region));
    if (s && s.mark) out.push(row('after mark', s.mark.name + ' #' + s.mark.count));
    if (s && s.stack) out.push(row('native', s.stack.slice(0, 8).map(function (f) {
      return (f.function ? f.function + '+' + f.function_offset + ' ' : '') + '(' + ((f.module || '?').split('/').pop()) + '+' + f.offset + ')' + (f.file ? ' ' + f.file + ':' + f.line : '');
    }).join('\n')));
    if (s && s.frames) out.push(row('frames', JSON.stringify(s.frames)));
    return out;
  }
  function diagnosisOf(f) {
    var ds = R.diagnoses || [];
    for (var i = 0; i < ds.length; i++) {
      var g = ds[i].group;
      if (g && g.first_seq === f.first_seq && g.buffer && f.buffer && g.buffer.lo === f.buffer.lo && ds[i].pid === f.pid) return ds[i];
    }
    for (i = 0; i < ds.length; i++) {
      g = ds[i].group;
      if (g && g.first_seq === f.first_seq && g.buffer && f.buffer && g.buffer.lo === f.buffer.lo) return ds[i];
    }
    return null;
  }
  /* The text report's "next:" lines, from the bug's structured next steps. */
  function nextLines(n) {
    if (!n) return [];
    if (typeof n === 'string') return [n];
    var out = [];
    if (n.diagnose) out.push(n.diagnose + '   # ranks the causes of this group');
    if (n.experiment) out.push(n.experiment + '   # A/B runs: which change removes the symptom, at what cost');
    if (n.guard) out.push('HIPVIS_GUARD=' + n.guard + ' <the same command>   # ' + (n.guard_why || ''));
    if (n.rerun_with) out.push(n.rerun_with + ' <the same command>   # ' + (n.rerun_why || ''));
    if (n.fix) out.push('fix: ' + n.fix);
    if (n.docs) out.push(n.docs);
    return out;
  }
  /* The pair's ops are the group's first occurrence: what the finding's
   * sides (and its epoch boundary) describe. */
  function firstPair(f, p) {
    return !p || ((!f.earlier || f.earlier.seq === p.a) && (!f.later || f.later.seq === p.b));
  }
  function showFinding(i) {
    var f = F[i], a = f.earlier, b = f.later, p = selPair, first = firstPair(f, p);
    var bd = first && D.boundaries && D.boundaries[i], bug = BUGS[bugOf[i]];
    detail.textContent = '';
    detail.appendChild(el('h3', { text: f.rule + ' (' + f.severity + '), x' + num(f.count) + ', pid ' + f.pid +
      (bug && bug.groups.length > 1 ? '  \u2014  place ' + (bug.groups.indexOf(i) + 1) + ' of ' + bug.groups.length + ' of one bug (x' + num(bug.count) + ')' : '') }));
    var tb = el('table');
    var rowsF = [
      row('occurrence', p ? (p.k + 1) + ' of ' + num(f.count) + ': earlier seq ' + p.a + ' \u2192 later seq ' + p.b +
        (p.ia < 0 || p.ib < 0 ? ' (not drawn one by one on the timeline)' : '') + (first ? '' : '; the rows below describe the first occurrence') : null),
      row('buffer', f.buffer ? f.buffer.lo + ' \u2013 ' + f.buffer.hi + ' (' + fmtBytes(f.buffer.bytes) + ')' +
        (f.buffer.alloc_base ? ', in allocation ' + f.buffer.alloc_base + ' (' + fmtBytes(f.buffer.alloc_bytes) + ' ' + f.buffer.alloc_mem + ', seq ' + f.buffer.alloc_seq + ')' : '') : null),
      row('name', f.buffer && f.buffer.name ? f.buffer.name + (f.buffer.name_offset ? ' +' + f.buffer.name_offset : '') +
        (f.buffer.named_at ? ' (named at ' + pyFrame(f.buffer.named_at) + ')' : '') : null),
      row('allocated at', f.buffer && f.buffer.allocated_at ? pyFrame(f.buffer.allocated_at) : null),
      row('first written at', f.buffer && f.buffer.first_written_at ? pyFrame(f.buffer.first_written_at) : null),
      row(a && a.role === 'write' ? 'writer' : 'earlier', a ? sideWords(a) + ', seq ' + a.seq + (a.stream ? ', stream ' + a.stream : '') + (a.epoch != null ? ', epoch ' + a.epoch : '') : null),
      row('source', a && a.src ? a.src + ' (' + a.src_mem + ')' + (a.engine ? ', engine: ' + a.engine : '') : null)
    ].concat(stackRows(a)).concat([
      row(b && b.role === 'replay' ? 'reader' : 'later', b ? sideWords(b) + ', seq ' + b.seq + (b.stream ? ', stream ' + b.stream : '') + (b.epoch != null ? ', epoch ' + b.epoch : '') : null),
      row('argument', b && b.arg ? b.arg + ' = ' + b.pointer + ' (' + b.access + ', ' + b.origin + ')' : null)
    ]).concat(stackRows(b)).concat([
      row('epoch boundary', bd ? 'the host last observed the writer\'s stream at seq ' + bd.seq + ' (' + (bd.api || 'sync') + '), ' + fmtNs(bd.t) + '; nothing after it covers the write' : null),
      row('seqs', 'first ' + f.first_seq + ', last ' + f.last_seq),
      row('note', f.note), row('detail', f.detail)
    ]);
    rowsF.forEach(function (r) { if (r) tb.appendChild(r); });
    detail.appendChild(tb);
    detail.appendChild(el('div', { cls: 'why', text: f.why }));
    var d = diagnosisOf(f);
    if (d) {
      var top = d.ranking && d.ranking[0];
      detail.appendChild(el('div', { cls: 'why', text: 'Diagnosis: ' + (d.verdict ? d.verdict + ' (' + d.basis + ')' : 'no verdict') +
        (top ? '; ranked first: ' + (top.id || '') + ' ' + (top.title || top.name || '') : '') }));
    }
    var next = nextLines(bug && bug.next);
    if (!next.length && f.rule === 'same-epoch-write') next = ['order the read after the write: synchronize the stream (or record an event after the copy and wait on it) before the replay, or re-run with HIPVIS_GUARD to confirm it is the cause; then `hipvis-analyze --diagnose` ranks the hypotheses.'];
    if (next.length) detail.appendChild(el('div', { cls: 'next' }, [el('b', { text: 'next:' }), el('pre', { cls: 'mono', text: next.join('\n') })]));
  }
  /* Marks the selected bug card, place and occurrence; opens the card's list. */
  function markSelected(i) {
    var b = bugOf[i], k = selPair ? selPair.k : -1;
    [].forEach.call(aside.querySelectorAll('li.bug, li.occ, li.pair'), function (e) {
      var c = e.classList, on = c.contains('bug') ? +e.getAttribute('data-bug') === b
        : +e.getAttribute('data-i') === i && (c.contains('occ') || +e.getAttribute('data-k') === k);
      c.toggle('selected', on);
      if (on && c.contains('bug') && +e.getAttribute('data-groups') > 1) e.querySelector('details').open = true;
    });
    if (belowEl && !atFailOn(BUGS[b])) belowEl.open = true;
  }
  /* The write and the read that raced, with a quarter of their distance
   * either side (20 us at least): not the whole trace. */
  function zoomTo(ta, tb) {
    var pts = [ta, tb].filter(function (t) { return t != null; });
    if (!pts.length) { draw(); return; }
    var lo = Math.min.apply(null, pts), hi = Math.max.apply(null, pts), span = Math.max((hi - lo) * 1.5, 20000);
    setView((lo + hi) / 2 - span / 2, (lo + hi) / 2 + span / 2);
  }
  function showGraphOf(f) {
    if (!f.later || !f.later.exec) return;
    var gi = graphIndex(f.pid, f.later.exec);
    if (gi >= 0) drawGraph(gi, f.later.node || null);
    else { gbox.textContent = ''; gnote.textContent = 'exec ' + f.later.exec + ': no inventory kept for it.'; }
  }
  function select(i) {
    selected = i;
    selPair = null;
    markSelected(i);
    var f = F[i];
    zoomTo(sideT(f, f.earlier), sideT(f, f.later));
    cv.setAttribute('data-selected', i);
    cv.removeAttribute('data-occurrence');
    showFinding(i);
    showGraphOf(f);
  }
  /* The kept op of process pid with this seq (-1: aggregated or outside the window). */
  function opAt(pid, seq) {
    var p = procByPid[pid];
    if (p == null) return -1;
    for (var j = 0; j < N; j++) if (ES[j] === seq && tracks[ER[j]].p === p) return j;
    return -1;
  }
  /* Occurrence k of group i (--all: the report's (earlier seq, later seq) pairs). */
  function selectPair(i, k) {
    var f = F[i], pr = (f.occurrences || [])[k];
    if (!pr) { select(i); return; }
    selected = i;
    selPair = { k: k, a: pr[0], b: pr[1], ia: opAt(f.pid, pr[0]), ib: opAt(f.pid, pr[1]) };
    markSelected(i);
    zoomTo(selPair.ia >= 0 ? ET[selPair.ia] : null, selPair.ib >= 0 ? ET[selPair.ib] : null);
    cv.setAttribute('data-selected', i);
    cv.setAttribute('data-occurrence', k);
    showFinding(i);
    showGraphOf(f);
  }

  /* --------------------------------------------------------------- graphs */
  function graphIndex(pid, exec) {
    var gs = D.graphs || [];
    for (var i = 0; i < gs.length; i++) if (gs[i].pid === pid && gs[i].exec === exec) return i;
    return -1;
  }
  var PLACE = { 1: 'parallel queue', 2: 'root, no wait', 4: 'wait dropped', 8: 'inherited', 16: 'collective' };
  function drawGraph(gi, hiNode) {
    var g = D.graphs[gi];
    gselect.value = gi;
    gbox.textContent = '';
    var nodes = g.nodes, idx = {};
    var top = nodes.filter(function (n) { return !n.child; });
    var topGraph = top.length ? top[0].g : g.graph;
    top.forEach(function (n, k) { idx[n.i] = k; });
    var indeg = new Array(top.length).fill(0), out = top.map(function () { return []; });
    var edges = [];
    g.edges.forEach(function (e) {
      if (e[0] !== topGraph) return;
      var a = idx[e[1]], b = idx[e[2]];
      if (a == null || b == null) return;
      edges.push([a, b]); out[a].push(b); indeg[b]++;
    });
    var roots = 0, depth = new Array(top.length).fill(0), q = [];
    indeg.forEach(function (d, k) { if (!d) { q.push(k); roots++; } });
    var deg = indeg.slice();
    for (var h = 0; h < q.length; h++) out[q[h]].forEach(function (b) { depth[b] = Math.max(depth[b], depth[q[h]] + 1); if (--deg[b] === 0) q.push(b); });
    var cols = [], colsN = 0;
    top.forEach(function (n, k) { var d = depth[k]; (cols[d] = cols[d] || []).push(k); colsN = Math.max(colsN, cols[d].length); });
    var NW = 220, NH = 46, GX = 40, GY = 10;
    var pos = [];
    cols.forEach(function (c, d) { c.forEach(function (k, r) { pos[k] = [10 + d * (NW + GX), 10 + r * (NH + GY)]; }); });
    var width = 20 + cols.length * (NW + GX), height = 20 + colsN * (NH + GY);
    var coll = top.filter(function (n) { return n.place & 16; }).length;
    var early = top.filter(function (n) { return n.place & 14; }).length;
    gnote.textContent = 'exec ' + g.exec + ' (pid ' + g.pid + ', ' + g.api + ' seq ' + g.inst_seq + '): ' + g.nnodes + ' nodes' +
      (nodes.length < g.nnodes ? ' (first ' + nodes.length + ' drawn)' : '') + ', ' + edges.length + ' edges, ' + roots + ' roots, ' + coll + ' collective' +
      (g.cuda ? '; CUDA: no parallel-queue prediction' : g.parallel ? '; the HIP runtime spreads it over ' + g.queues + ' parallel queues; ' + early + ' node(s) may start before the launch stream\'s earlier work' : '; runs on the launch queue') +
      (hiNode ? '; highlighted: the node that read the buffer' : '') + (nodes.length > top.length ? '; ' + (nodes.length - top.length) + ' child-graph nodes not drawn' : '');
    var NS = 'http://www.w3.org/2000/svg';
    function s(tag, attrs) { var e = document.createElementNS(NS, tag); for (var k in attrs) e.setAttribute(k, attrs[k]); return e; }
    var svg = s('svg', { width: width, height: height, id: 'graphsvg' });
    var defs = s('defs', {}), mk = s('marker', { id: 'arr', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 6, markerHeight: 6, orient: 'auto' });
    mk.appendChild(s('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#98a2b3' })); defs.appendChild(mk); svg.appendChild(defs);
    edges.forEach(function (e) {
      var a = pos[e[0]], b = pos[e[1]];
      svg.appendChild(s('path', { d: 'M' + (a[0] + NW) + ',' + (a[1] + NH / 2) + ' C' + (a[0] + NW + GX / 2) + ',' + (a[1] + NH / 2) + ' ' + (b[0] - GX / 2) + ',' + (b[1] + NH / 2) + ' ' + b[0] + ',' + (b[1] + NH / 2),
        fill: 'none', stroke: '#98a2b3', 'marker-end': 'url(#arr)' }));
    });
    top.forEach(function (n, k) {
      var p = pos[k], hit = hiNode && n.h === hiNode;
      var fill = hit ? '#ffe0b2' : n.place & 16 ? '#e8eaf6' : n.place & 14 ? '#fff3e0' : '#f7f9fc';
      var stroke = hit ? '#d9730d' : n.place & 14 ? '#f0a35e' : '#c5ccd6';
      var gEl = s('g', { 'data-node': n.h, 'class': hit ? 'hit' : '' });
      gEl.appendChild(s('rect', { x: p[0], y: p[1], width: NW, height: NH, rx: 4, fill: fill, stroke: stroke, 'stroke-width': hit ? 3 : 1 }));
      var t1 = s('text', { x: p[0] + 5, y: p[1] + 13 }); t1.textContent = '#' + n.i + ' ' + n.type + (depth[k] === 0 ? ' (root)' : '');
      var tags = []; for (var bit in PLACE) if (n.place & bit) tags.push(PLACE[bit]);
      var t2 = s('text', { x: p[0] + 5, y: p[1] + 27, fill: '#555' }); t2.textContent = (n.name || '').length > 34 ? n.name.slice(0, 33) + '\u2026' : (n.name || '');
      var t3 = s('text', { x: p[0] + 5, y: p[1] + 40, fill: n.place & 14 ? '#b45309' : '#3949ab' }); t3.textContent = tags.join(', ');
      var title = s('title', {}); title.textContent = '#' + n.i + ' ' + n.type + ' ' + (n.name || '') + '\nnode ' + n.h + (tags.length ? '\nplacement: ' + tags.join(', ') : '') + (n.why ? '\n' + n.why : '') +
        (n.args.length ? '\nargs: ' + n.args.map(function (a) { return a[0] + '=' + a[1] + ' ' + a[2]; }).join(', ') : '');
      gEl.appendChild(title); gEl.appendChild(t1); gEl.appendChild(t2); gEl.appendChild(t3);
      svg.appendChild(gEl);
    });
    gbox.appendChild(svg);
    var hitEl = svg.querySelector('g.hit rect');
    if (hitEl) { var hx = +hitEl.getAttribute('x'), hy = +hitEl.getAttribute('y'); gbox.scrollLeft = Math.max(0, hx - 100); gbox.scrollTop = Math.max(0, hy - 100); }
  }

  /* --------------------------------------------------------- input health */
  function healthTable() {
    var causes = D.drop_causes || [];
    var tb = el('table', { cls: 'health', id: 'health' });
    var head = ['trace', 'pid', 'records', 'calls', 'failed calls', 'dropped', 'drops by cause', 'chunk gaps', 'late records', 'launches not drawn', 'footer', 'truncated', 'complete'];
    tb.appendChild(el('tr', null, head.map(function (h, i) { return el('th', { cls: i ? '' : 'l', text: h }); })));
    var wrap = el('div');
    wrap.appendChild(tb);
    (R.errors || []).forEach(function (e) {
      wrap.appendChild(el('div', { cls: 'note', text: 'unreadable: ' + e.path + ': ' + e.status + (e.offset ? ' at byte ' + e.offset : '') + ': ' + e.what }));
    });
    (R.traces || []).forEach(function (t, i) {
      var p = procs[i] || { drops: [] };
      var cells = [[t.path, 'l'], [t.pid], [num(t.records)], [num(t.calls)], [num(t.failed_calls), t.failed_calls ? 'bad' : ''], [num(t.dropped), t.dropped ? 'bad' : 'ok']]
        .concat([[causes.map(function (c, k) { return p.drops[k] ? c + ' ' + num(p.drops[k]) : null; }).filter(Boolean).join(', ') ||
          (p.footer ? 'none' : 'no footer: unknown'), p.footer ? '' : 'bad'],[num(t.chunk_gaps), t.chunk_gaps ? 'bad' : ''], [num(t.late_records)],
          [num(t.launches_unsampled || 0) + ' of ' + num(t.launches || 0)], [t.footer ? 'yes' : 'no', t.footer ? 'ok' : 'bad'],
          [t.truncated ? t.truncated.status + ' at byte ' + t.truncated.offset + ' (' + num(t.truncated.records_salvaged) + ' records salvaged)' : 'no', t.truncated ? 'bad' : 'ok'],
          [t.complete ? 'yes' : 'no', t.complete ? 'ok' : 'bad']]);
      tb.appendChild(el('tr', null, cells.map(function (c) { return el('td', { cls: c[1] || '', text: String(c[0]) }); })));
    });
    return wrap;
  }

  window.addEventListener('resize', resize);
  resize();
  setView(FULL0, FULL1);
  if (D.graphs && D.graphs.length) drawGraph(0, null);
  /* report.html#finding=N opens with finding N selected (links, screenshots). */
  /* Otherwise the first finding (the most severe bug's first place) is
   * selected: the page opens on the write and the read that raced. */
  var m = /finding=(\d+)/.exec(location.hash);
  if (m && +m[1] < F.length) select(+m[1]);
  else if (F.length) select(BUGS.filter(atFailOn).concat(BUGS)[0].groups[0]);
  window.hipvis = { select: select, selectOccurrence: selectPair, view: function () { return [v0, v1]; }, all: [FULL0, FULL1],
    findings: F.length, bugs: nBugsAt, ops: N };
  window.hipvis.ready = true;
  document.body.setAttribute('data-ready-ms', (performance.now() - T0).toFixed(1));
  document.body.setAttribute('data-ready', '1');
})();
