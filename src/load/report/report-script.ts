/**
 * The page's only script: routes between the views by URL hash, filters the sessions list and
 * renders a session from its JSON block. Stored text only ever reaches the page as `textContent`.
 */
export const REPORT_SCRIPT = `(function () {
  'use strict';
  var VIEWS = ['overview', 'sessions', 'session'];
  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function show(name) {
    VIEWS.forEach(function (v) { $('view-' + v).hidden = v !== name; });
    var links = document.querySelectorAll('nav a');
    for (var i = 0; i < links.length; i++) {
      var current = links[i].getAttribute('data-view') === (name === 'session' ? 'sessions' : name);
      if (current) links[i].setAttribute('aria-current', 'page'); else links[i].removeAttribute('aria-current');
    }
  }
  function count(n) { return String(n).replace(/\\B(?=(\\d{3})+(?!\\d))/g, ','); }
  function pre(parent, label, value) {
    if (!value) return;
    parent.appendChild(el('div', 'meta', label));
    parent.appendChild(el('pre', null, value.text));
    if (value.omitted > 0)
      parent.appendChild(el('div', 'omitted', count(value.omitted) +
        ' more characters are stored in the warehouse (tool_calls) and not embedded here.'));
  }
  function renderTool(t) {
    var failed = t.status === 'error' || (t.error !== null && t.error !== undefined);
    var d = el('details', 'tool' + (failed ? ' failed' : ''));
    var summary = 'Tool: ' + t.name + ' · ' + t.status + (t.decision ? ' · ' + t.decision : '');
    d.appendChild(el('summary', null, summary));
    pre(d, 'Parameters', t.params);
    pre(d, 'Result', t.result);
    if (t.error) { d.appendChild(el('div', 'meta', 'Error')); d.appendChild(el('pre', null, t.error)); }
    return d;
  }
  function renderMessage(m) {
    var card = el('article', 'message ' + m.role);
    var head = el('div', 'message-head');
    head.appendChild(el('span', 'role', m.role));
    if (m.model) head.appendChild(el('span', 'badge', m.model));
    head.appendChild(el('span', null, m.timestamp ? m.timestamp : 'time unknown'));
    if (m.input_tokens !== null || m.output_tokens !== null)
      head.appendChild(el('span', null, 'tokens in ' + (m.input_tokens === null ? '?' : count(m.input_tokens)) +
        ' / out ' + (m.output_tokens === null ? '?' : count(m.output_tokens))));
    if (m.off_branch) head.appendChild(el('span', 'badge', 'off the active branch'));
    if (m.sidechain) head.appendChild(el('span', 'badge', 'sidechain'));
    if (m.corrupted) head.appendChild(el('span', 'badge', 'corrupted in the source'));
    card.appendChild(head);
    if (m.thinking) {
      var t = el('details', 'thinking');
      t.appendChild(el('summary', null, 'Thinking'));
      t.appendChild(el('pre', null, m.thinking));
      card.appendChild(t);
    }
    if (m.content) card.appendChild(el('div', 'content', m.content));
    m.tools.forEach(function (tool) { card.appendChild(renderTool(tool)); });
    return card;
  }
  function renderSession(index) {
    var target = $('session-view');
    target.textContent = '';
    var block = $('session-data-' + index);
    if (!block) { target.appendChild(el('p', 'note', 'This session is not in the report.')); return; }
    var data = JSON.parse(block.textContent);
    var s = data.session;
    target.appendChild(el('h2', null, s.title || '(untitled)'));
    target.appendChild(el('p', 'meta', [s.workspace, s.session_id, (s.created_at || 'start unknown') + ' → ' +
      (s.updated_at || 'end unknown'), count(s.message_count) + ' messages', count(s.tool_call_count) +
      ' tool calls', s.fidelity].join(' · ')));
    if (data.messages.length === 0) target.appendChild(el('p', 'note', 'This session has no stored messages.'));
    data.messages.forEach(function (m) { target.appendChild(renderMessage(m)); });
  }
  function route() {
    var match = /^#session\\/(\\d+)$/.exec(location.hash);
    if (match) { renderSession(match[1]); show('session'); window.scrollTo(0, 0); return; }
    show(location.hash === '#sessions' ? 'sessions' : 'overview');
  }
  var search = $('session-search');
  var workspace = $('workspace-filter');
  var rows = document.querySelectorAll('#session-table tbody tr');
  function applyFilter() {
    var words = search.value.toLowerCase().split(/\\s+/).filter(Boolean);
    var shown = 0;
    for (var i = 0; i < rows.length; i++) {
      var text = rows[i].getAttribute('data-search');
      var ok = (!workspace.value || rows[i].getAttribute('data-workspace') === workspace.value) &&
        words.every(function (w) { return text.indexOf(w) >= 0; });
      rows[i].hidden = !ok;
      if (ok) shown++;
    }
    $('session-count').textContent = count(shown) + ' of ' + count(rows.length) + ' listed sessions';
  }
  search.addEventListener('input', applyFilter);
  workspace.addEventListener('change', applyFilter);
  $('session-table').addEventListener('click', function (event) {
    var row = event.target.closest('tr[data-session]');
    if (row) location.hash = '#session/' + row.getAttribute('data-session');
  });
  window.addEventListener('hashchange', route);
  applyFilter();
  route();
})();
`;
