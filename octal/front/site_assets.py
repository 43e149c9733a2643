"""The site's style sheet and its scripts (the index's and the census page's filters, sharing one table sort; the
play board), inlined in each page."""

STYLE = """
body { font: 17px/1.45 system-ui, sans-serif; margin: 1.5em auto; max-width: 72em; padding: 0 1em; color: #222; }
h1 { font-size: 1.8em; margin-bottom: .2em; } h2 { margin-top: 1.4em; }
table { border-collapse: collapse; } th, td { padding: .2em .55em; border-bottom: 1px solid #ddd; text-align: right; }
.sortable th { cursor: pointer; background: #f3f3f3; position: sticky; top: 0; } .sortable td.text { text-align: left; }
.sortable th.asc::after { content: " ▲"; } .sortable th.desc::after { content: " ▼"; }
#census td:first-child, #census td:nth-child(2), #census td:nth-child(n+8) { text-align: left; }
#census td { font-variant-numeric: tabular-nums; } .controls input[type=number] { width: 6em; }
table.seq td { font-family: ui-monospace, monospace; min-width: 2.2em; } table.seq th { color: #777; }
td.exc, span.exc { background: #ffe08a; font-weight: bold; }
table.facts th { text-align: left; color: #555; } table.facts td { text-align: left; }
.controls label { margin-right: 1em; } .note { color: #666; font-size: .9em; }
p.proven { color: #176f2c; font-weight: bold; } p.apparent { color: #8a5a00; } p.open { color: #8a1c1c; }
#position { font-size: 1.3em; line-height: 1.2; } #position small { color: #888; font-size: .6em; }
#position .heap { display: block; color: #1f4e79; letter-spacing: .08em; white-space: nowrap; overflow: hidden; }
p#status { font-size: 1.2em; font-weight: bold; } button { font-size: 1em; padding: .3em .9em; }
"""

# Sorting by a clicked heading, shared by the index and the census page: a cell's data-sort, else its text (commas
# dropped when that leaves a number); numbers compare as numbers, text naturally, blanks last either way.
SORT_JS = """
function sortable(table, rows) {
  const heads = table.querySelectorAll('th'), body = table.querySelector('tbody');
  const key = c => { const t = c.dataset.sort ?? c.textContent, u = t.replace(/,/g, ''); \
return u !== '' && !isNaN(+u) ? u : t; };
  const num = s => s !== '' && !isNaN(+s);
  heads.forEach(th => th.addEventListener('click', () => {
    const col = +th.dataset.col, asc = !th.classList.contains('asc');
    heads.forEach(h => h.classList.remove('asc', 'desc'));
    th.classList.add(asc ? 'asc' : 'desc');
    const keyed = rows.map(r => [key(r.children[col]), r]);
    keyed.sort(([x], [y]) => {
      if (x === '' || y === '') return x === y ? 0 : x === '' ? 1 : -1;
      const c = num(x) && num(y) ? (+x) - (+y) : x.localeCompare(y, 'en', {numeric: true});
      return asc ? c : -c;
    });
    keyed.forEach(([, r], i) => { rows[i] = r; });
    body.append(...rows);
  }));
}
"""

INDEX_JS = SORT_JS + """
const rows = Array.from(document.querySelectorAll('#games tbody tr'));
const filter = document.getElementById('filter'), status = document.getElementById('status');
const count = document.getElementById('count');
function apply() {
  const q = filter.value.trim().toLowerCase(), st = status.value;
  let shown = 0;
  for (const r of rows) {
    const ok = (!q || r.textContent.toLowerCase().includes(q)) && (st === 'all' || r.dataset.status === st);
    r.hidden = !ok; if (ok) shown++;
  }
  count.textContent = shown.toLocaleString('en') + ' of ' + rows.length.toLocaleString('en') + ' games';
}
filter.addEventListener('input', apply); status.addEventListener('change', apply);
sortable(document.getElementById('games'), rows);
apply();
"""

# The census page's filters, read from each row's data attributes: data-code, data-status, data-budget (proven rows:
# the budget that proved it, 'none' when the file did not record it), data-period (proven rows), data-same (the
# class, only when it is another code).
CENSUS_JS = SORT_JS + """
const rows = Array.from(document.querySelectorAll('#census tbody tr'));
const $ = id => document.getElementById(id);
const inputs = ['filter', 'status', 'prefix', 'budget', 'distinct', 'pmin', 'pmax'].map($);
function apply() {
  const q = $('filter').value.trim().toLowerCase(), st = $('status').value, pre = $('prefix').value;
  const bud = $('budget').value, distinct = $('distinct').checked;
  const lo = $('pmin').value === '' ? null : +$('pmin').value, hi = $('pmax').value === '' ? null : +$('pmax').value;
  let shown = 0;
  for (const r of rows) {
    const d = r.dataset, p = d.period === undefined ? null : +d.period;
    const ok = (!q || d.code.toLowerCase().includes(q)) && (st === 'all' || d.status === st)
      && (pre === 'all' || d.code.startsWith(pre)) && (bud === 'all' || d.budget === bud)
      && !(distinct && d.same !== undefined)
      && (lo === null || (p !== null && p >= lo)) && (hi === null || (p !== null && p <= hi));
    r.hidden = !ok; if (ok) shown++;
  }
  $('count').textContent = shown.toLocaleString('en') + ' of ' + rows.length.toLocaleString('en') + ' codes';
}
const event = el => el.tagName === 'SELECT' || el.type === 'checkbox' ? 'change' : 'input';
inputs.forEach(el => el.addEventListener(event(el), apply));
sortable($('census'), rows);
apply();
"""

BOARD_JS = """
const B = JSON.parse(document.getElementById('board-data').textContent);
const $ = id => document.getElementById(id);
let heaps = [], over = true;
const G = h => h < B.values.length ? B.values[h] : B.values[B.n0 + (h - B.n0) % B.p];
const xorOf = hs => hs.reduce((x, h) => x ^ G(h), 0);
function movesOf(h) {
  const out = [];
  for (const [k, counts] of B.rules) {
    if (k > h) break;
    const r = h - k;
    for (const c of counts) {
      if (c === 0 && r === 0) out.push({k, leave: []});
      if (c === 1 && r >= 1) out.push({k, leave: [r]});
      if (c === 2 && r >= 2) for (let a = 1; 2 * a <= r; a++) out.push({k, leave: [a, r - a]});
    }
  }
  return out;
}
const hasMove = () => heaps.some(h => movesOf(h).length > 0);
const words = (h, m) => 'take ' + m.k + ' from ' + h + (m.leave.length ? ', leave ' + m.leave.join(' + ') : '');
function say(who, h, m) { const li = document.createElement('li'); li.textContent = who + ': ' + words(h, m); \
$('log').appendChild(li); }
function apply(i, m) { const h = heaps[i]; heaps.splice(i, 1, ...m.leave); return h; }
function setStatus(text, end) { $('status').textContent = text; $('status').dataset.over = end || ''; over = !!end; }
function fill(sel, items) { sel.innerHTML = ''; items.forEach(([v, t]) => sel.add(new Option(t, v))); }
function render() {
  $('position').dataset.heaps = heaps.join(' ');
  $('position').innerHTML = heaps.length ? heaps.map((h, i) => '<span class="heap"><small>' + (i + 1) + '</small> ' +
    (h <= 40 ? '\u25CF'.repeat(h) : '\u25CF'.repeat(12) + ' \u2026 ' + '\u25CF'.repeat(12)) +
    ' <small>' + h.toLocaleString('en') + ' \u00B7 G=' + G(h) + '</small></span>').join('') : '(no heaps)';
  $('nimsum').textContent = 'nim-sum of the heaps\\u2019 values: ' + xorOf(heaps) + \
(xorOf(heaps) ? ' (the player to move wins)' : ' (the player to move loses)');
  const playable = heaps.map((h, i) => [i, h]).filter(([i, h]) => movesOf(h).length);
  fill($('heap'), over ? [] : playable.map(([i, h]) => [i, 'heap ' + (i + 1) + ' (' + h + ')']));
  fillTake();
}
function fillTake() {
  const i = +$('heap').value, ms = over || $('heap').value === '' ? [] : movesOf(heaps[i]);
  fill($('take'), [...new Set(ms.map(m => m.k))].map(k => [k, String(k)]));
  fillLeave();
}
function fillLeave() {
  const i = +$('heap').value, k = +$('take').value;
  const ms = over || $('take').value === '' ? [] : movesOf(heaps[i]).filter(m => m.k === k);
  fill($('leave'), ms.map((m, j) => [j, m.leave.length ? m.leave.join(' + ') : 'nothing']));
  $('play').disabled = ms.length === 0;
}
function engine() {
  const x = xorOf(heaps);
  let best = null;
  for (let i = 0; i < heaps.length && !best; i++) {
    for (const m of movesOf(heaps[i])) {
      if ((x ^ G(heaps[i]) ^ xorOf(m.leave)) === 0) { best = [i, m]; break; }
      if (!best && x === 0) best = [i, m];
    }
  }
  if (!best) for (let i = 0; i < heaps.length && !best; i++) { \
const ms = movesOf(heaps[i]); if (ms.length) best = [i, ms[0]]; }
  const h = apply(best[0], best[1]);
  say('Engine', h, best[1]);
  if (!hasMove()) setStatus('The engine wins: you have no move.', 'engine'); else setStatus('Your move.');
  render();
}
$('start').addEventListener('click', () => {
  const hs = $('heaps').value.trim().split(/[\\s,]+/).filter(Boolean).map(Number);
  if (!hs.length || hs.length > 30 || hs.some(h => !Number.isInteger(h) || h < 1 || h > B.max_heap)) {
    setStatus('Heaps are 1 to 30 whole numbers between 1 and ' + B.max_heap.toLocaleString('en') + '.', ''); \
over = true; return;
  }
  heaps = hs; $('log').innerHTML = ''; setStatus('Your move.');
  if (!hasMove()) { setStatus('No move is possible from these heaps: the first player loses.', 'engine'); \
render(); return; }
  if ($('engine-first').checked) engine(); else render();
});
$('start').click();  // a game is on the board from the start: the default heaps, the player to move first
$('heap').addEventListener('change', fillTake);
$('take').addEventListener('change', fillLeave);
$('play').addEventListener('click', () => {
  if (over) return;
  const i = +$('heap').value, k = +$('take').value;
  const m = movesOf(heaps[i]).filter(m => m.k === k)[+$('leave').value];
  const h = apply(i, m);
  say('You', h, m);
  if (!hasMove()) { setStatus('You win: the engine has no move.', 'you'); render(); return; }
  engine();
});
"""
