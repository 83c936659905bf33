// The billing webview: a form that mirrors the command-line client's flags, a stacked bar chart
// drawn as inline SVG, and the table under it. It draws what the extension sends and reports the
// form; it never calls the service. No inline handlers, no remote resources.
// @ts-check
(function () {
  // eslint-disable-next-line no-undef
  const vscode = acquireVsCodeApi();
  const SVG = 'http://www.w3.org/2000/svg';
  const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
  const input = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
  const select = (id) => /** @type {HTMLSelectElement} */ (document.getElementById(id));
  const form = /** @type {HTMLFormElement} */ ($('controls'));
  const kind = select('kind');
  const bucketSize = select('bucketSize');
  const grouping = select('grouping');
  const exportButton = /** @type {HTMLButtonElement} */ ($('export'));
  const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 2 });
  /** @type {{id: string, label: string, groupings: string[], filters: string[]}[]} */
  let kinds = [];
  let view = null;
  let focused = 0;
  /** Width the chart was last drawn at; a resize redraws only when it really changed. */
  let lastWidth = 0;
  let maxLastN = 1000;

  function options(target, values, labels) {
    target.replaceChildren(
      ...values.map((value, i) => {
        const option = document.createElement('option');
        option.value = value;
        option.textContent = labels ? labels[i] : value;
        return option;
      }),
    );
  }

  /** Shows the grouping and filters the chosen kind has, as the CLI accepts them per subcommand. */
  function applyKind(id, chosenGrouping) {
    const info = kinds.find((k) => k.id === id);
    if (!info) return;
    options(grouping, info.groupings);
    if (info.groupings.includes(chosenGrouping)) grouping.value = chosenGrouping;
    $('groupingLabel').hidden = info.groupings.length === 0;
    for (const label of document.querySelectorAll('[data-filter]')) {
      /** @type {HTMLElement} */ (label).hidden = !info.filters.includes(label.getAttribute('data-filter') || '');
    }
  }

  function applyRange() {
    const last = input('rangeLast').checked;
    input('lastN').disabled = !last;
    input('startTime').disabled = last;
    input('endTime').disabled = last;
  }

  function setForm(q) {
    kind.value = q.kind;
    applyKind(q.kind, q.grouping);
    bucketSize.value = q.bucketSize;
    input(q.range === 'last' ? 'rangeLast' : 'rangeBetween').checked = true;
    input('lastN').value = String(q.lastN);
    input('startTime').value = q.startTime;
    input('endTime').value = q.endTime;
    for (const f of ['podId', 'endpointId', 'gpuId']) input(f).value = q[f];
    applyRange();
  }

  function readForm() {
    const n = Math.round(Number(input('lastN').value));
    const info = kinds.find((k) => k.id === kind.value);
    const filter = (f) => (info && info.filters.includes(f) ? input(f).value.trim().slice(0, 200) : '');
    return {
      kind: kind.value,
      bucketSize: bucketSize.value,
      range: input('rangeLast').checked ? 'last' : 'between',
      lastN: Number.isFinite(n) ? Math.min(Math.max(n, 1), maxLastN) : 1,
      startTime: input('startTime').value.trim().slice(0, 200),
      endTime: input('endTime').value.trim().slice(0, 200),
      grouping: info && info.groupings.length > 0 ? grouping.value : '',
      podId: filter('podId'),
      endpointId: filter('endpointId'),
      gpuId: filter('gpuId'),
    };
  }

  const submit = () => vscode.postMessage({ type: 'query', query: readForm() });

  function svg(name, attributes, parent) {
    const node = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
    if (parent) parent.append(node);
    return node;
  }

  /** A tick step of 1, 2 or 5 × 10^k giving at most `ticks` steps up to `max`, so the axis reads in round amounts. */
  function niceStep(max, ticks) {
    if (!(max > 0)) return 0.25;
    const raw = max / ticks;
    const magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
    for (const f of [1, 2, 5, 10]) if (f * magnitude >= raw * (1 - 1e-9)) return f * magnitude;
    return 10 * magnitude;
  }

  function barLabel(i) {
    const row = view.table.rows[i];
    const parts = view.table.columns.map((c, s) => `${c} $${row.cells[s]}`).filter((_, s) => Number(view.series[s].values[i]) !== 0);
    return `${row.label}: total $${row.total}${parts.length ? `; ${parts.join(', ')}` : ''}`;
  }

  function showDetail(i) {
    $('detail').textContent = barLabel(i);
  }

  /** A dashed line at each release of the endpoints in view (a change in cost usually follows a deploy), its tooltip what changed. */
  function drawReleases(root, m, slot, plotH) {
    for (const marker of view.markers || []) {
      const x = m.left + slot * marker.position;
      const mark = svg('g', { class: 'release', role: 'img', 'aria-label': marker.label }, root);
      svg('line', { class: 'release-hit', x1: x, x2: x, y1: m.top, y2: m.top + plotH }, mark);
      svg('line', { class: 'release-line', x1: x, x2: x, y1: m.top, y2: m.top + plotH }, mark);
      svg('title', {}, mark).textContent = marker.label;
      mark.addEventListener('mouseenter', () => {
        $('detail').textContent = marker.label;
      });
    }
  }

  function drawChart() {
    const chart = $('chart');
    chart.replaceChildren();
    if (!view || view.empty) return;
    lastWidth = chart.clientWidth;
    const width = Math.max(320, Math.floor(chart.clientWidth || 640));
    const height = 260;
    const m = { top: 12, right: 12, bottom: 40, left: 72 };
    const plotW = width - m.left - m.right;
    const plotH = height - m.top - m.bottom;
    const n = view.buckets.length;
    const totals = view.buckets.map((_, i) => view.series.reduce((sum, s) => sum + Math.max(0, s.values[i] || 0), 0));
    const step = niceStep(Math.max(0, ...totals), 4);
    const ticks = Math.max(1, Math.ceil(Math.max(0, ...totals) / step - 1e-9));
    const max = step * ticks;
    // Small amounts (a few minutes of a worker) get the digits that tell their ticks apart.
    const axisUsd = step < 0.01 ? new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 4 }) : usd;
    const root = svg('svg', {
      width,
      height,
      viewBox: `0 0 ${width} ${height}`,
      role: 'group',
      'aria-label': `Spend per ${view.buckets.length === 1 ? 'bucket' : 'bucket, ' + n + ' buckets'}; arrow keys move between bars`,
    });
    for (let t = 0; t <= ticks; t++) {
      const y = m.top + plotH - (plotH * t) / ticks;
      svg('line', { class: 'grid', x1: m.left, x2: width - m.right, y1: y, y2: y }, root);
      const label = svg('text', { class: 'axis', x: m.left - 6, y: y + 4, 'text-anchor': 'end', 'aria-hidden': 'true' }, root);
      label.textContent = axisUsd.format(step * t);
    }
    const slot = plotW / n;
    const barW = Math.max(1, Math.min(56, slot * 0.7));
    focused = Math.min(focused, n - 1);
    for (let i = 0; i < n; i++) {
      const x = m.left + slot * i + (slot - barW) / 2;
      const bar = svg(
        'g',
        { class: 'bar', tabindex: i === focused ? 0 : -1, role: 'img', 'aria-label': barLabel(i), 'data-index': i },
        root,
      );
      svg('rect', { class: 'hit', x: m.left + slot * i, y: m.top, width: slot, height: plotH }, bar);
      let y = m.top + plotH;
      view.series.forEach((s, k) => {
        const h = (Math.max(0, s.values[i] || 0) / max) * plotH;
        if (h <= 0) return;
        svg('rect', { class: `seg s${k}`, x, y: y - h, width: barW, height: h }, bar);
        y -= h;
      });
      svg(
        'rect',
        {
          class: 'ring',
          x: x - 2,
          y: Math.min(y, m.top + plotH - 2) - 2,
          width: barW + 4,
          height: m.top + plotH - Math.min(y, m.top + plotH - 2) + 4,
        },
        bar,
      );
      bar.addEventListener('focus', () => {
        focused = i;
        showDetail(i);
      });
      bar.addEventListener('mouseenter', () => showDetail(i));
    }
    drawReleases(root, m, slot, plotH);
    // As many bucket labels as fit without overlapping, always the first.
    const every = Math.max(1, Math.ceil((n * 84) / plotW));
    for (let i = 0; i < n; i += every) {
      const label = svg(
        'text',
        { class: 'axis', x: m.left + slot * (i + 0.5), y: height - m.bottom + 18, 'text-anchor': 'middle', 'aria-hidden': 'true' },
        root,
      );
      label.textContent = view.buckets[i].label.replace(/^week of /, '');
    }
    root.addEventListener('keydown', (event) => {
      const bars = /** @type {SVGGElement[]} */ ([...root.querySelectorAll('.bar')]);
      const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
      let next = step !== undefined ? focused + step : event.key === 'Home' ? 0 : event.key === 'End' ? n - 1 : undefined;
      if (next === undefined) return;
      event.preventDefault();
      next = Math.max(0, Math.min(n - 1, next));
      bars[focused].setAttribute('tabindex', '-1');
      bars[next].setAttribute('tabindex', '0');
      bars[next].focus();
    });
    chart.append(root);
  }

  function cell(tag, text, className) {
    const node = document.createElement(tag);
    node.textContent = text;
    if (className) node.className = className;
    return node;
  }

  function drawTable() {
    const table = /** @type {HTMLTableElement} */ ($('table'));
    const head = document.createElement('tr');
    head.append(
      cell('th', 'Bucket (UTC)'),
      ...view.table.columns.map((c, k) => {
        const th = cell('th', '', 'num');
        const swatch = cell('span', '', `swatch s${k}`);
        swatch.setAttribute('aria-hidden', 'true');
        th.append(swatch, document.createTextNode(c));
        return th;
      }),
      cell('th', 'Total', 'num'),
    );
    for (const th of head.children) th.setAttribute('scope', 'col');
    table.tHead?.replaceChildren(head);
    table.tBodies[0].replaceChildren(
      ...view.table.rows.map((row) => {
        const tr = document.createElement('tr');
        const th = cell('th', row.label);
        th.setAttribute('scope', 'row');
        tr.append(th, ...row.cells.map((c) => cell('td', c, 'num')), cell('td', row.total, 'num total'));
        return tr;
      }),
    );
    const foot = document.createElement('tr');
    const label = cell('th', 'Total');
    label.setAttribute('scope', 'row');
    foot.append(label, ...view.table.totals.map((t) => cell('td', t, 'num')), cell('td', view.table.total, 'num total'));
    table.tFoot?.replaceChildren(foot);
  }

  function drawLegend() {
    $('legend').replaceChildren(
      ...view.series.map((s, k) => {
        const li = document.createElement('li');
        const swatch = cell('span', '', `swatch s${k}`);
        swatch.setAttribute('aria-hidden', 'true');
        li.append(swatch, document.createTextNode(`${s.label} $${view.table.totals[k]}`));
        return li;
      }),
    );
  }

  function render(next, canExport) {
    view = next;
    $('error').hidden = true;
    $('status').textContent = '';
    $('result').hidden = false;
    $('result').removeAttribute('aria-busy');
    $('title').textContent = view.title;
    $('subtitle').textContent = view.subtitle;
    $('empty').hidden = !view.empty;
    for (const id of ['chart', 'detail', 'legend', 'table']) $(id).hidden = view.empty;
    $('detail').textContent = '';
    $('components').textContent =
      view.components.length > 1 ? `By component: ${view.components.map((c) => `${c.label} ${c.amount}`).join(' · ')}` : '';
    exportButton.disabled = !canExport;
    if (!view.empty) {
      drawLegend();
      drawTable();
      drawChart();
    }
  }

  window.addEventListener('message', (event) => {
    const m = event.data;
    if (!m || typeof m !== 'object') return;
    switch (m.type) {
      case 'init':
        if (kinds.length === 0) {
          kinds = m.kinds;
          options(
            kind,
            kinds.map((k) => k.id),
            kinds.map((k) => k.label),
          );
          options(bucketSize, m.bucketSizes);
          maxLastN = m.maxLastN;
          input('lastN').max = String(maxLastN);
        }
        setForm(m.query);
        break;
      case 'loading':
        $('status').textContent = 'Reading billing…';
        $('result').setAttribute('aria-busy', 'true');
        $('error').hidden = true;
        break;
      case 'data':
        render(m.view, m.canExport);
        break;
      case 'error':
        $('status').textContent = '';
        $('result').hidden = true;
        $('errorText').textContent = m.message;
        $('retry').hidden = !m.retry;
        $('error').hidden = false;
        exportButton.disabled = true;
        break;
    }
  });

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submit();
  });
  kind.addEventListener('change', () => {
    applyKind(kind.value, '');
    submit();
  });
  bucketSize.addEventListener('change', submit);
  grouping.addEventListener('change', submit);
  for (const id of ['rangeLast', 'rangeBetween']) {
    input(id).addEventListener('change', () => {
      applyRange();
      submit();
    });
  }
  exportButton.addEventListener('click', () => vscode.postMessage({ type: 'exportCsv' }));
  $('retry').addEventListener('click', submit);
  // Redraw at the new width; bars are laid out in pixels so text stays legible.
  new ResizeObserver(() => {
    if (view && !view.empty && Math.abs($('chart').clientWidth - lastWidth) > 8) drawChart();
  }).observe($('chart'));
  vscode.postMessage({ type: 'ready' });
})();
