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
  async function api(method, path, body, headers) {
    const init = { method, credentials: 'same-origin', headers: Object.assign({ 'Accept': 'application/json' }, headers) };
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
      const err = new Error((data.error && data.error.message) || r.status + ' ' + r.statusText);
      err.status = r.status;
      err.code = data.error && data.error.code;
      throw err;
    }
    return data;
  }

  // approverToken is the approver token (guardian serve --approver-token-file), when the
  // server wants one to answer approvals and revoke grants. A person types it when the server
  // first asks for it; it lives in this variable only — never in localStorage or a cookie —
  // so it is gone when the tab is closed, and no other page or script can read it back.
  let approverToken = '';

  // answer makes a call that needs the approver token, sending it when there is one. When
  // the server refuses for want of it, the token form is shown, and the call is made again
  // once the person has typed it.
  async function answer(method, path, body) {
    const headers = approverToken ? { 'Guardian-Approver-Token': approverToken } : {};
    try {
      return await api(method, path, body, headers);
    } catch (err) {
      if (err.code === 'approver_required') {
        const again = approverToken !== '';
        approverToken = '';
        return askApproverToken(again).then(() => answer(method, path, body));
      }
      throw err;
    }
  }

  // askApproverToken shows the token form and resolves once a token was typed; it rejects
  // when the person cancels.
  let tokenWaiters = [];
  function askApproverToken(wrong) {
    const form = document.getElementById('approver');
    form.hidden = false;
    document.getElementById('approver-msg').textContent = wrong
      ? 'That approver token was refused. Type the one guardian serve was started with.'
      : 'This server needs the approver token to answer requests and revoke grants.';
    document.getElementById('approver-token').focus();
    return new Promise((resolve, reject) => tokenWaiters.push({ resolve, reject }));
  }

  function approverForm() {
    const input = el('input', { id: 'approver-token', type: 'password', autocomplete: 'off', spellcheck: 'false', required: true });
    const settle = (ok) => {
      const ws = tokenWaiters;
      tokenWaiters = [];
      form.hidden = true;
      for (const w of ws) ok ? w.resolve() : w.reject(new Error('no approver token given'));
    };
    const form = el('form', { id: 'approver', class: 'approver', hidden: true, onsubmit: (e) => {
      e.preventDefault();
      approverToken = input.value.trim();
      input.value = '';
      if (approverToken) settle(true);
    } },
      el('p', { id: 'approver-msg', role: 'alert' }),
      el('label', {}, el('span', { text: 'Approver token (kept in this tab only)' }), input),
      el('div', { class: 'actions' },
        el('button', { type: 'submit', id: 'approver-use', text: 'Use token' }),
        el('button', { type: 'button', class: 'quiet', text: 'Cancel', onclick: () => settle(false) })));
    return form;
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
      tiles.append(tile('count-override', 'asks approved', typeof s.override_rate === 'number'
        ? Math.round(s.override_rate * 100) + '%' : '–'));
      const top = el('ol', { class: 'top', id: 'top-asking' });
      for (const c of s.top_asking || []) {
        top.append(el('li', {}, el('code', { text: c.decided_by }),
          el('span', { class: 'n', text: ' asked ' + c.count + ', approved ' + (c.approved || 0) +
            (c.refused ? ', refused ' + c.refused : '') })));
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

  // ---- Approvals -----------------------------------------------------------------------

  // ago says how long ago (or, negative, how far ahead) t is, in the largest whole unit.
  function span(ms) {
    const s = Math.max(0, Math.round(ms / 1000));
    if (s < 60) return s + 's';
    if (s < 3600) return Math.floor(s / 60) + 'm ' + (s % 60) + 's';
    return Math.floor(s / 3600) + 'h ' + Math.floor((s % 3600) / 60) + 'm';
  }

  const BY_KEY = 'guardian-console-by'; // the name answers are given as: not a secret
  const MAX_PENDING_ROWS = 100;

  // Requests held for a person: approve (with a scope) or deny (with a reason).
  const pendingPanel = {
    items: new Map(), // id -> approval, open ones only
    rows: new Map(), // id -> its row, for those shown
    mount(container) {
      const p = panel('pending', 'Waiting for you');
      this.body = p.body;
      let saved = '';
      try { saved = localStorage.getItem(BY_KEY) || ''; } catch (_) { /* storage off */ }
      this.by = el('input', { id: 'answer-as', type: 'text', autocomplete: 'username', spellcheck: 'false', value: saved,
        maxlength: '64', oninput: (e) => { try { localStorage.setItem(BY_KEY, e.target.value.trim()); } catch (_) { /* storage off */ } } });
      this.count = el('p', { class: 'muted', id: 'pending-count', role: 'status' });
      this.list = el('ul', { id: 'pending-list', class: 'pending' });
      p.body.append(approverForm(),
        el('div', { class: 'filters' }, el('label', {}, el('span', { text: 'answering as' }), this.by)),
        this.count, this.list);
      container.append(p.section);
      // The waiting times move on by themselves.
      setInterval(() => this.tick(), 1000);
    },
    async reload() {
      try {
        const d = await api('GET', '/v1/pending');
        this.items = new Map((d.pending || []).filter((a) => a.state === 'open').map((a) => [a.id, a]));
        this.off = false;
        this.render();
      } catch (err) {
        if (err.status === 404) {
          this.off = true;
          this.count.textContent = 'Approvals are off on this server (guardian serve --approvals).';
          this.list.replaceChildren();
          this.rows.clear();
          return;
        }
        showError(this.list, err);
      }
    },
    render() {
      const all = [...this.items.values()].sort((a, b) => String(a.created).localeCompare(String(b.created)));
      const shown = all.slice(0, MAX_PENDING_ROWS);
      // Rows are kept, not rebuilt: a reason half typed, or the focus, survives a request
      // arriving or leaving.
      const keep = new Set(shown.map((a) => a.id));
      for (const [id, li] of this.rows) if (!keep.has(id)) { li.remove(); this.rows.delete(id); }
      shown.forEach((a, i) => {
        let li = this.rows.get(a.id);
        if (!li) this.rows.set(a.id, li = this.row(a));
        if (this.list.children[i] !== li) this.list.insertBefore(li, this.list.children[i] || null);
      });
      this.count.textContent = all.length === 0 ? 'Nothing is waiting.'
        : all.length + (all.length === 1 ? ' request is' : ' requests are') + ' waiting' +
          (all.length > shown.length ? ' (the oldest ' + shown.length + ' shown; guardian pending lists all).' : '.');
      document.title = (all.length ? '(' + all.length + ') ' : '') + 'guardian console';
      this.tick();
    },
    row(a) {
      const c = a.caller || {};
      const as = a.assessment || {};
      const risk = as.risk_level || 'unknown';
      const narrow = risk === 'high' || risk === 'critical';
      const scope = el('select', { class: 'scope', 'aria-label': 'scope of the approval' },
        el('option', { value: 'once', text: 'once' }),
        el('option', { value: 'session', text: 'this session', disabled: narrow || !c.session }),
        el('option', { value: 'project', text: 'this project', disabled: narrow || !a.project }),
        el('option', { value: 'always', text: 'always', disabled: narrow }));
      const reason = el('input', { class: 'reason', type: 'text', placeholder: 'reason (the agent sees it)', maxlength: '500',
        'aria-label': 'reason for the deny', spellcheck: 'false' });
      const msg = el('p', { class: 'msg', role: 'status' });
      const buttons = [];
      const act = (verb, body) => async () => {
        const by = this.by.value.trim();
        if (!by) {
          msg.textContent = 'Type your name in “answering as” first: the audit log records who answered.';
          this.by.focus();
          return;
        }
        body.by = by;
        for (const b of buttons) b.disabled = true;
        msg.textContent = '';
        try {
          const r = await answer('POST', '/v1/pending/' + encodeURIComponent(a.id) + '/' + verb, body);
          this.items.delete(a.id);
          this.render();
          if (r.grant) grantsPanel.add(r.grant);
        } catch (err) {
          msg.textContent = (verb === 'approve' ? 'Approve' : 'Deny') + ' failed: ' + err.message;
          for (const b of buttons) b.disabled = false;
          if (err.code === 'already_answered' || err.status === 404) this.reload();
        }
      };
      const approve = el('button', { type: 'button', class: 'approve', text: 'Approve' });
      approve.addEventListener('click', () => act('approve', { scope: scope.value })());
      const deny = el('button', { type: 'button', class: 'deny', text: 'Deny' });
      deny.addEventListener('click', () => act('deny', { reason: reason.value.trim() })());
      buttons.push(approve, deny);
      const waited = el('span', { class: 'waited' });
      return el('li', { class: 'approval', 'data-id': a.id, 'data-created': a.created || '', 'data-expires': a.expires || '' },
        el('div', { class: 'head' },
          el('span', { class: 'risk ' + risk, text: risk }),
          el('code', { class: 'what', text: a.shape || what(a) })),
        as.summary ? el('p', { class: 'summary', text: as.summary }) : null,
        el('p', { class: 'meta' },
          el('span', { class: 'by', text: a.asked_by || '' }),
          el('span', { class: 'host', text: c.host || '' }),
          c.session ? el('span', { class: 'session', text: 'session ' + c.session }) : null,
          a.project ? el('span', { class: 'project', text: a.project }) : null,
          waited),
        el('div', { class: 'actions' },
          el('span', { class: 'group' }, scope, approve),
          el('span', { class: 'group' }, reason, deny)),
        msg);
    },
    tick() {
      const now = Date.now();
      for (const li of this.list.children) {
        const w = li.querySelector('.waited');
        const created = Date.parse(li.dataset.created), expires = Date.parse(li.dataset.expires);
        if (!w || isNaN(created)) continue;
        w.textContent = 'waiting ' + span(now - created) + (isNaN(expires) ? '' : expires > now ? ', ' + span(expires - now) + ' left' : ', expiring');
      }
    },
    on: {
      approval(ch) {
        const p = pendingPanel, a = ch.approval;
        if (!a || p.off) return;
        if (a.state === 'open') p.items.set(a.id, a);
        else if (!p.items.delete(a.id)) return;
        p.render();
      },
    },
  };

  // Standing grants: what people allowed beyond once, with a revoke.
  const grantsPanel = {
    items: new Map(),
    mount(container) {
      const p = panel('grants', 'Grants');
      this.body = p.body;
      this.count = el('p', { class: 'muted', id: 'grant-count', role: 'status' });
      this.list = el('ul', { id: 'grant-list', class: 'grants' });
      p.body.append(this.count, this.list);
      container.append(p.section);
    },
    async reload() {
      try {
        const d = await api('GET', '/v1/grants');
        this.items = new Map((d.grants || []).map((g) => [g.id, g]));
        this.off = false;
        this.render();
      } catch (err) {
        if (err.status === 404) {
          this.off = true;
          this.count.textContent = 'Approvals are off on this server.';
          this.list.replaceChildren();
          return;
        }
        showError(this.list, err);
      }
    },
    add(g) {
      if (this.off) return;
      this.items.set(g.id, g);
      this.render();
    },
    render() {
      const all = [...this.items.values()].sort((a, b) => String(a.created).localeCompare(String(b.created)));
      this.list.replaceChildren(...all.map((g) => this.row(g)));
      this.count.textContent = all.length ? all.length + (all.length === 1 ? ' grant.' : ' grants.') : 'No grants.';
    },
    row(g) {
      const where = g.scope === 'session' ? (g.host || '?') + ' session ' + (g.session || '?')
        : g.scope === 'project' ? g.project || '?' : 'anywhere';
      const until = g.expires ? new Date(g.expires) : null;
      const msg = el('p', { class: 'msg', role: 'status' });
      const revoke = el('button', { type: 'button', class: 'quiet revoke', text: 'Revoke' });
      revoke.addEventListener('click', async () => {
        revoke.disabled = true;
        try {
          await answer('DELETE', '/v1/grants/' + encodeURIComponent(g.id));
          this.items.delete(g.id);
          this.render();
        } catch (err) {
          msg.textContent = 'Revoke failed: ' + err.message;
          revoke.disabled = false;
        }
      });
      return el('li', { class: 'grant', 'data-id': g.id },
        el('div', { class: 'head' }, el('span', { class: 'scope-badge', text: g.scope }), el('code', { class: 'what', text: g.shape })),
        el('p', { class: 'meta' },
          el('span', { class: 'where', text: where }),
          el('span', { text: 'by ' + (g.by || '?') }),
          until ? el('span', { text: 'until ' + until.toLocaleString() }) : null),
        revoke, msg);
    },
    on: {
      approval(ch) {
        const p = grantsPanel, g = ch.grant;
        if (!g || p.off) return;
        if (ch.kind === 'grant_added') p.items.set(g.id, g);
        else if (ch.kind === 'grant_revoked') p.items.delete(g.id);
        else return;
        p.render();
      },
    },
  };

  // The panels, in page order (the style sheet places them on a wide screen); each listens
  // to its own event kinds.
  const panels = [pendingPanel, statsPanel, breakerPanel, grantsPanel, decisionsPanel];

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
