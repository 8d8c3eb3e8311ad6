// guardian console: live decisions, the day's counts and the circuit breakers of one
// `guardian serve`. Plain script, no dependencies. Everything shown comes from the server's
// API and is untrusted text (commands, tool arguments): it is only ever set with textContent,
// never parsed as HTML.
'use strict';

(function () {
  // ---- API -----------------------------------------------------------------------------

  // csrf is the value of the guardian_csrf cookie, echoed in X-Guardian-CSRF on every
  // state-changing call (without a token the server sets none; any value then shows the
  // call comes from this page).
  function csrf() {
    const m = document.cookie.match(/(?:^|;\s*)guardian_csrf=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : 'console';
  }

  // api calls the server and returns the decoded JSON reply; an error reply becomes an Error
  // with the server's message. A 401 means the session ended: back to the login form.
  async function api(method, path, body) {
    const init = { method, credentials: 'same-origin', headers: { 'Accept': 'application/json' } };
    if (method !== 'GET') {
      init.headers['X-Guardian-CSRF'] = csrf();
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body || {});
    }
    const r = await fetch(path, init);
    if (r.status === 401) {
      location.assign('/console');
      throw new Error('not logged in');
    }
    const data = await r.json().catch(() => ({}));
    if (!r.ok) {
      throw new Error((data.error && data.error.message) || r.status + ' ' + r.statusText);
    }
    return data;
  }

  // ---- DOM helpers ---------------------------------------------------------------------

  // el builds an element; attrs set attributes (text: textContent), children are appended.
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'text') e.textContent = v;
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? '' : v);
    }
    for (const c of children) if (c) e.append(c);
    return e;
  }

  function panel(id, title) {
    const body = el('div', { class: 'panel-body' });
    const section = el('section', { id, class: 'panel', 'aria-labelledby': id + '-title' },
      el('h2', { id: id + '-title', text: title }), body);
    return { section, body };
  }

  function showError(where, err) {
    where.replaceChildren(el('p', { class: 'error', role: 'alert', text: String(err.message || err) }));
  }

  // ---- What a record says --------------------------------------------------------------

  // what is a one-line description of a record's request: the command, or server/tool.
  function what(rec) {
    const q = rec.request || {};
    if (rec.kind === 'mcp') return (q.server || '?') + '/' + (q.tool || '?');
    if (Array.isArray(q.command)) return q.command.join(' ');
    return rec.digest || '';
  }

  // rules lists the rule ids behind a record: its decider and its findings.
  function rules(rec) {
    const ids = [];
    if (rec.decided_by) ids.push(rec.decided_by);
    const f = (rec.assessment && rec.assessment.findings) || [];
    for (const x of f) if (x.rule_id) ids.push(x.rule_id);
    return ids;
  }

  // ---- Panels --------------------------------------------------------------------------
  //
  // Each panel is { mount(container), reload(), on: { eventKind(data) } }. The page mounts
  // them in order, reloads them at start and after a reconnect, and hands them the live
  // events by kind. Pending approvals and grants are two more entries in `panels` below.

  // The day's counts.
  const statsPanel = {
    mount(container) {
      const p = panel('stats', 'Today');
      this.body = p.body;
      container.append(p.section);
    },
    async reload() {
      try {
        this.render(await api('GET', '/v1/stats'));
      } catch (err) {
        showError(this.body, err);
      }
    },
    render(s) {
      const tile = (id, label, value, cls) => el('div', { class: 'tile ' + (cls || ''), id },
        el('span', { class: 'num', text: String(value) }), el('span', { class: 'label', text: label }));
      const tiles = el('div', { class: 'tiles' },
        tile('count-reviews', 'reviews', s.reviews),
        tile('count-allow', 'allowed', s.allow, 'allow'),
        tile('count-ask', 'asked', s.ask, 'ask'),
        tile('count-deny', 'denied', s.deny, 'deny'));
      if (typeof s.override_rate === 'number') {
        tiles.append(tile('count-override', 'overridden', Math.round(s.override_rate * 100) + '%'));
      }
      const top = el('ol', { class: 'top', id: 'top-asking' });
      for (const c of s.top_asking || []) {
        top.append(el('li', {}, el('code', { text: c.decided_by }), el('span', { class: 'n', text: ' ×' + c.count })));
      }
      this.body.replaceChildren(tiles,
        el('h3', { text: 'Asking most' }),
        (s.top_asking || []).length ? top : el('p', { class: 'muted', text: 'Nothing asked today.' }));
    },
    pending: null,
    on: {
      // A decision changes the counts: reload them, at most once a second.
      decision() {
        if (statsPanel.pending) return;
        statsPanel.pending = setTimeout(() => { statsPanel.pending = null; statsPanel.reload(); }, 1000);
      },
    },
  };

  // The circuit breakers, with a reset.
  const breakerPanel = {
    mount(container) {
      const p = panel('breakers', 'Breakers');
      this.body = p.body;
      container.append(p.section);
    },
    async reload() {
      try {
        this.render(await api('GET', '/v1/breakers'));
      } catch (err) {
        showError(this.body, err);
      }
    },
    seq: -1,
    render(b) {
      // Replies and events can arrive out of order: never show an older state over a newer.
      if (b.seq < this.seq) return;
      this.seq = b.seq;
      const state = el('p', { id: 'breaker-state', class: 'state ' + (b.open ? 'open' : 'closed'),
        text: b.open ? 'OPEN — requests go to the human' : 'closed — guardian decides' });
      const list = el('ul', { class: 'scopes' });
      for (const s of b.breakers || []) {
        const d = s.denials, m = s.model;
        list.append(el('li', {},
          el('code', { text: s.scope }),
          el('span', { class: 'b ' + d.state, text: ' denials: ' + d.state + (d.reason ? ' (' + d.reason + ')' : '') }),
          el('span', { class: 'b ' + m.state, text: ' model: ' + m.state + (m.failures ? ' (' + m.failures + ' failures)' : '') })));
      }
      const msg = el('p', { class: 'muted', id: 'breaker-msg', role: 'status' });
      const button = el('button', { id: 'breaker-reset', type: 'button', disabled: !b.open, onclick: async () => {
        button.disabled = true;
        try {
          this.render(await api('POST', '/v1/breakers/reset', { breaker: 'all' }));
          const m = document.getElementById('breaker-msg');
          if (m) m.textContent = 'Reset.';
        } catch (err) {
          msg.textContent = 'Reset failed: ' + err.message;
          button.disabled = false;
        }
      } }, 'Reset breakers');
      this.body.replaceChildren(state, list, button, msg);
    },
    on: {
      breaker(data) { breakerPanel.render(data); },
    },
  };

  // Live decisions, with filters.
  const MAX_ROWS = 500;
  const decisionsPanel = {
    records: [],
    filters: { decision: '', host: '', session: '', rule: '' },
    mount(container) {
      const p = panel('decisions', 'Decisions');
      this.body = p.body;
      const f = this.filters;
      const input = (name, label) => el('label', {}, el('span', { text: label }),
        el('input', { id: 'filter-' + name, type: 'search', autocomplete: 'off', spellcheck: 'false',
          oninput: (e) => { f[name] = e.target.value.trim(); this.render(); } }));
      const select = el('select', { id: 'filter-decision', onchange: (e) => { f.decision = e.target.value; this.render(); } },
        el('option', { value: '', text: 'all' }), el('option', { value: 'deny', text: 'deny' }),
        el('option', { value: 'ask', text: 'ask' }), el('option', { value: 'allow', text: 'allow' }));
      this.count = el('p', { class: 'muted', id: 'shown', role: 'status' });
      this.list = el('ol', { id: 'decision-list', class: 'decisions', reversed: true });
      p.body.append(el('div', { class: 'filters' },
        el('label', {}, el('span', { text: 'decision' }), select),
        input('host', 'host'), input('session', 'session'), input('rule', 'rule')), this.count, this.list);
      container.append(p.section);
    },
    // Each reload collects the decisions that arrive while it runs: its reply may have been
    // read from the log before they were written, and they must not be lost.
    lives: new Set(),
    async reload() {
      const live = [];
      this.lives.add(live);
      try {
        const d = await api('GET', '/v1/decisions?limit=' + MAX_ROWS);
        const got = (d.decisions || []).slice().reverse(); // newest first
        const ids = new Set(got.map((r) => r.id));
        this.records = live.filter((r) => !ids.has(r.id)).concat(got).slice(0, MAX_ROWS);
        this.render();
      } catch (err) {
        showError(this.list, err);
      } finally {
        this.lives.delete(live);
      }
    },
    matches(rec) {
      const f = this.filters, c = rec.caller || {};
      const has = (v, q) => String(v || '').toLowerCase().includes(q.toLowerCase());
      return (!f.decision || rec.decision === f.decision) &&
        (!f.host || has(c.host, f.host)) &&
        (!f.session || has(c.session, f.session)) &&
        (!f.rule || rules(rec).some((r) => has(r, f.rule)));
    },
    row(rec) {
      const c = rec.caller || {};
      const t = rec.time ? new Date(rec.time) : null;
      const summary = rec.assessment && rec.assessment.summary;
      return el('li', { class: 'decision ' + rec.decision, 'data-id': rec.id || '' },
        el('span', { class: 'badge ' + rec.decision, text: rec.decision }),
        el('time', { datetime: rec.time || '', text: t ? t.toLocaleTimeString() : '' }),
        el('code', { class: 'what', text: what(rec) }),
        summary ? el('span', { class: 'summary', text: summary }) : null,
        el('span', { class: 'meta' },
          el('span', { class: 'by', text: rec.decided_by || '' }),
          el('span', { class: 'host', text: c.host || '' }),
          c.session ? el('span', { class: 'session', text: c.session }) : null));
    },
    render() {
      const shown = this.records.filter((r) => this.matches(r));
      this.list.replaceChildren(...shown.map((r) => this.row(r)));
      this.count.textContent = 'Showing ' + shown.length + ' of ' + this.records.length + '.';
    },
    on: {
      decision(rec) {
        const p = decisionsPanel;
        for (const live of p.lives) live.unshift(rec);
        p.records.unshift(rec);
        if (p.records.length > MAX_ROWS) p.records.length = MAX_ROWS;
        if (p.matches(rec)) {
          p.list.prepend(p.row(rec));
          while (p.list.children.length > MAX_ROWS) p.list.lastChild.remove();
        }
        p.count.textContent = 'Showing ' + p.list.children.length + ' of ' + p.records.length + '.';
      },
    },
  };

  // The panels, in page order. A panel for pending approvals (GET /v1/pending, POST
  // /v1/pending/{id}/approve|deny) or grants (GET /v1/grants, DELETE /v1/grants/{id}) is one
  // more object of the same shape here, listening to its own event kinds.
  const panels = [statsPanel, breakerPanel, decisionsPanel];

  // ---- Live events ---------------------------------------------------------------------

  const live = document.getElementById('live');
  function setLive(text, cls) {
    live.textContent = text;
    live.className = 'live ' + cls;
  }

  function reloadAll() {
    return Promise.all(panels.map((p) => p.reload()));
  }

  function connect() {
    const es = new EventSource('/v1/events');
    es.onopen = () => {
      setLive('live', 'on');
      // Whatever happened before the stream was open (at start, or while it reconnected) is
      // loaded now; what happens from here on comes as events.
      reloadAll();
    };
    es.onerror = () => setLive('reconnecting…', 'off');
    const kinds = new Set();
    for (const p of panels) for (const k of Object.keys(p.on || {})) kinds.add(k);
    for (const kind of kinds) {
      es.addEventListener(kind, (e) => {
        let data;
        try {
          data = JSON.parse(e.data);
        } catch (_) {
          return;
        }
        for (const p of panels) if (p.on && p.on[kind]) p.on[kind](data);
      });
    }
    // Dropped for falling behind: start over, then reload.
    es.addEventListener('lagged', () => {
      es.close();
      setLive('catching up…', 'off');
      connect();
    });
  }

  function start() {
    const container = document.getElementById('panels');
    for (const p of panels) p.mount(container);
    reloadAll(); // shown even if the stream cannot open
    connect();
  }

  start();
})();
