// The Logs webview: renders rows the extension sends and reports the user's choices back.
// No inline handlers, no remote resources; the DOM holds at most `maxLines` rows.
// @ts-check
(function () {
  // eslint-disable-next-line no-undef
  const vscode = acquireVsCodeApi();
  const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
  const lines = $('lines');
  const pause = /** @type {HTMLButtonElement} */ ($('pause'));
  const source = /** @type {HTMLSelectElement} */ ($('source'));
  const tail = /** @type {HTMLSelectElement} */ ($('tail'));
  const filter = /** @type {HTMLInputElement} */ ($('filter'));
  const regex = /** @type {HTMLInputElement} */ ($('regex'));
  const timestamps = /** @type {HTMLInputElement} */ ($('timestamps'));
  let maxLines = 5000;
  let merged = false;
  let paused = false;
  const saved = vscode.getState() || {};
  if (saved.hideTimestamps) {
    timestamps.checked = false;
    lines.classList.add('hide-ts');
  }

  function atBottom() {
    return lines.scrollHeight - lines.scrollTop - lines.clientHeight < 24;
  }

  function rowElement(row) {
    const div = document.createElement('div');
    div.className = 'row ' + (row.source === 'marker' ? 'marker' : row.source === 'system' ? 'system' : 'container');
    div.dataset.id = row.id;
    const ts = document.createElement('span');
    ts.className = 'ts';
    ts.textContent = row.ts;
    div.append(ts);
    if (row.source !== 'marker') {
      const tag = document.createElement('span');
      tag.className = 'tag';
      tag.textContent = '[' + (merged ? row.worker + '/' : '') + row.source + ']';
      div.append(tag);
    }
    const text = document.createElement('span');
    text.className = 'text';
    text.textContent = row.source === 'marker' ? '⟳ ' + row.text : row.text;
    div.append(text);
    return div;
  }

  function append(rows) {
    const follow = !paused && atBottom();
    const fragment = document.createDocumentFragment();
    for (const row of rows) fragment.append(rowElement(row));
    lines.append(fragment);
    while (lines.childElementCount > maxLines && lines.firstElementChild) lines.firstElementChild.remove();
    if (follow) lines.scrollTop = lines.scrollHeight;
  }

  window.addEventListener('message', (event) => {
    const m = event.data;
    if (!m || typeof m !== 'object') return;
    switch (m.type) {
      case 'reset': {
        maxLines = m.maxLines;
        merged = m.merged;
        $('target').textContent = m.target;
        source.value = m.state.source;
        if (tail.options.length === 0) {
          for (const n of m.state.tails) {
            const option = document.createElement('option');
            option.value = String(n);
            option.textContent = n === 0 ? 'live only' : 'last ' + n;
            tail.append(option);
          }
        }
        tail.value = String(m.state.tail);
        if (document.activeElement !== filter) filter.value = m.state.filter;
        regex.checked = m.state.regex;
        setPaused(m.state.paused);
        lines.replaceChildren();
        append(m.rows);
        lines.scrollTop = lines.scrollHeight;
        break;
      }
      case 'append':
        append(m.rows);
        break;
      case 'status':
        $('status').textContent = m.text;
        $('status').classList.toggle('live', m.live);
        break;
      case 'filterError':
        $('filterError').textContent = m.error ? 'Invalid regular expression: ' + m.error : '';
        filter.classList.toggle('invalid', Boolean(m.error));
        break;
    }
  });

  function setPaused(value) {
    paused = value;
    pause.setAttribute('aria-pressed', String(paused));
    pause.textContent = paused ? 'Resume' : 'Pause';
  }

  function togglePause() {
    setPaused(!paused);
    vscode.postMessage({ type: 'pause', paused });
  }

  let filterTimer;
  function sendFilter() {
    clearTimeout(filterTimer);
    filterTimer = setTimeout(() => vscode.postMessage({ type: 'filter', text: filter.value, regex: regex.checked }), 150);
  }

  pause.addEventListener('click', togglePause);
  source.addEventListener('change', () => vscode.postMessage({ type: 'source', source: source.value }));
  tail.addEventListener('change', () => vscode.postMessage({ type: 'tail', tail: Number(tail.value) }));
  filter.addEventListener('input', sendFilter);
  regex.addEventListener('change', sendFilter);
  timestamps.addEventListener('change', () => {
    lines.classList.toggle('hide-ts', !timestamps.checked);
    vscode.setState({ hideTimestamps: !timestamps.checked });
  });
  $('clear').addEventListener('click', () => vscode.postMessage({ type: 'clear' }));
  $('save').addEventListener('click', () => vscode.postMessage({ type: 'save' }));
  // In the log: Space pauses or resumes, End jumps to the newest line, Home to the oldest.
  lines.addEventListener('keydown', (event) => {
    if (event.key === ' ') {
      event.preventDefault();
      togglePause();
    } else if (event.key === 'End') {
      lines.scrollTop = lines.scrollHeight;
    } else if (event.key === 'Home') {
      lines.scrollTop = 0;
    }
  });
  vscode.postMessage({ type: 'ready' });
})();
