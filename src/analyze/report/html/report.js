/* hipvis HTML report: draws the page from the JSON in #hv-data (written by
 * src/analyze/report/html.c; the "report" member is the --json document,
 * schema in docs/analysis.md). No library, no network: plain DOM + canvas.
 * Hooks for tests and users: window.hipvis.{select(i), view(), ready}, and
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
  var selected = -1;

  /* -------------------------------------------------------------- header */
  var app = el('div');
  var exes = procs.map(function (p) { return (p.exe || '').split('/').pop(); }).filter(Boolean);
  document.title = 'hipvis report' + (exes.length ? ' - ' + exes[0] : '');
  var nAt = R.groups_at_or_above_fail_on;
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
    el('div', { cls: 'sub', text: F.length + ' finding group' + (F.length === 1 ? '' : 's') + ' (' + nAt + ' at or above ' + R.fail_on + '), ' +
      procs.length + ' trace' + (procs.length === 1 ? '' : 's') + ', ' + num(D.total_ops) + ' ops; ' + D.view + '; hipvis ' + R.version })
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
  F.forEach(function (f, i) {
    var what = f.earlier && f.later ? sideWords(f.earlier) + '  \u2192  ' + sideWords(f.later) : (f.note || f.why || '');
    var li = el('li', { cls: 'sev-' + f.severity, 'data-i': i, 'data-rule': f.rule }, [
      el('span', { cls: 'count', text: 'x' + num(f.count) }),
      el('div', { cls: 'rule', text: f.rule + ' (' + f.severity + ')' }),
      el('div', { cls: 'what', text: 'pid ' + f.pid + ': ' + (f.buffer && f.buffer.name ? f.buffer.name + ': ' : '') + what })
    ]);
    li.addEventListener('click', function () { select(i); });
    list.appendChild(li);
  });
  if (!F.length) list.appendChild(el('li', { cls: 'none', text: 'No findings.' }));
  /* Launches HIPVIS_LAUNCH_EVERY left without kernel and arguments: what no
   * finding above could have used (the text report's "coverage" line). */
  if (R.launches_unsampled) list.appendChild(el('li', { cls: 'none', id: 'coverage', text: num(R.launches_unsampled) +
    ' launches recorded without kernel and arguments (HIPVIS_LAUNCH_EVERY): a hazard whose only reader or writer is one of them is not seen; trace again with HIPVIS_LAUNCH_EVERY=1 to see every launch.' }));
  aside.appendChild(list);
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
    var color = SEV[f.severity] || SEV.info;
    if (tb == null || rb == null) { tb = ta; rb = ra; }
    if (tb == null || rb == null) return;
    var xb = xOf(tb), yb = trackY[rb] + ROW / 2;
    ctx.strokeStyle = color; ctx.fillStyle = color; ctx.lineWidth = sel ? 2.5 : 1.2;
    if (ta != null && ra != null && (ta !== tb || ra !== rb)) {
      var xa = xOf(ta), ya = trackY[ra] + ROW / 2;
      var bend = Math.max(14, Math.min(60, Math.abs(xb - xa) / 3));
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
    var bd = D.boundaries && D.boundaries[fi];
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
  function showFinding(i) {
    var f = F[i], a = f.earlier, b = f.later, bd = D.boundaries && D.boundaries[i];
    detail.textContent = '';
    detail.appendChild(el('h3', { text: f.rule + ' (' + f.severity + '), x' + num(f.count) + ', pid ' + f.pid }));
    var tb = el('table');
    var rowsF = [
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
    var next = f.next || (d && d.next) || null;
    if (!next && f.rule === 'same-epoch-write') next = 'order the read after the write: synchronize the stream (or record an event after the copy and wait on it) before the replay, or re-run with HIPVIS_GUARD to confirm it is the cause; then `hipvis-analyze --diagnose` ranks the hypotheses.';
    if (next) detail.appendChild(el('div', { cls: 'next', text: 'next: ' + (typeof next === 'string' ? next : JSON.stringify(next)) }));
  }
  function select(i) {
    selected = i;
    var lis = list.querySelectorAll('li');
    for (var k = 0; k < lis.length; k++) lis[k].classList.toggle('selected', +lis[k].getAttribute('data-i') === i);
    var f = F[i], ta = sideT(f, f.earlier), tb = sideT(f, f.later);
    var pts = [ta, tb].filter(function (t) { return t != null; });
    if (pts.length) {
      var lo = Math.min.apply(null, pts), hi = Math.max.apply(null, pts);
      var bd = D.boundaries && D.boundaries[i];
      if (bd && hi - bd.t < (hi - lo) * 4 + 5000) lo = Math.min(lo, bd.t);
      var span = Math.max((hi - lo) * 1.6, 20000);
      setView((lo + hi) / 2 - span / 2, (lo + hi) / 2 + span / 2);
    } else draw();
    cv.setAttribute('data-selected', i);
    showFinding(i);
    if (f.later && f.later.exec) {
      var gi = graphIndex(f.pid, f.later.exec);
      if (gi >= 0) drawGraph(gi, f.later.node || null);
      else { gbox.textContent = ''; gnote.textContent = 'exec ' + f.later.exec + ': no inventory kept for it.'; }
    }
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
  var m = /finding=(\d+)/.exec(location.hash);
  if (m && +m[1] < F.length) select(+m[1]);
  window.hipvis = { select: select, view: function () { return [v0, v1]; }, findings: F.length, ops: N };
  window.hipvis.ready = true;
  document.body.setAttribute('data-ready-ms', (performance.now() - T0).toFixed(1));
  document.body.setAttribute('data-ready', '1');
})();
