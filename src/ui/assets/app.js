// The dashboard: one page, a view per address (#/, #/batches/1, #/alerts, …), each refreshed every POLL_MS so the
// page follows a daemon working on the same ledger. Data only ever becomes text nodes (see dom.js).
import { amountRing, paidOverTime, statusBar } from './charts.js';
import { fill, h } from './dom.js';
import { lang, t } from './words.js';

const POLL_MS = 1500;
const PAGE = 100;
const csrf = document.querySelector('meta[name="csrf-token"]').content;
const main = document.getElementById('main');
const live = document.getElementById('live');
const nav = document.getElementById('nav');
const strip = document.getElementById('status');
let current = null;
let timer = null;

class SignedOut extends Error {}
/** The server's refusal of a request: its answer (`code`, English `message`, data) for the page to word. */
class Refused extends Error {
  constructor(body) {
    super(body.message);
    this.body = body;
  }
}

async function api(path, init = {}) {
  const res = await fetch(path, { credentials: 'same-origin', ...init });
  if (res.status === 401) throw new SignedOut();
  if (!res.ok) throw new Error(`${res.status} ${path}`);
  return res.json();
}

const post = (path) => api(path, { method: 'POST', headers: { 'x-csrf-token': csrf } });

/** A table in a box of its own that scrolls sideways on a narrow screen, so that the page itself never does. */
function table(head, rows, empty) {
  if (!rows.length) return h('p', { class: 'muted' }, empty);
  return h('div', { class: 'table-wrap' }, h('table', {}, h('thead', {}, h('tr', {}, head.map((x) => h('th', {}, x)))), h('tbody', {}, rows)));
}

const money = (text) => h('td', { class: 'num' }, text);
const status = (s, text) => h('span', { class: `pill s-${s}` }, text);

/** The PDF viewer of a view: the receipt opens inside the page, in a frame of the dashboard's own origin. */
function viewer() {
  const title = h('h3', {});
  const frame = h('iframe', { title: t.receipt, id: 'receipt-frame' });
  const box = h('section', { class: 'viewer', hidden: true }, h('div', { class: 'viewer-head' }, title, h('button', { onclick: () => { box.hidden = true; frame.removeAttribute('src'); } }, t.close)), frame);
  return {
    el: box,
    open(url, what) {
      fill(title, t.receiptOf(what));
      frame.src = url;
      box.hidden = false;
      box.scrollIntoView({ block: 'nearest' });
    },
  };
}

function batchesView() {
  const list = h('div', {});
  fill(main, h('h1', {}, t.batches), list);
  return async () => {
    const { batches, zone } = await api('/api/batches');
    const rows = batches.map((b) => h('tr', { class: 'link', 'data-batch': b.id, onclick: () => (location.hash = `#/batches/${b.id}`) },
      h('td', {}, `#${b.id}`), h('td', {}, h('a', { href: `#/batches/${b.id}` }, b.name)), h('td', {}, status(b.status, b.statusText)),
      h('td', { class: 'wide' }, statusBar(b.byStatus), h('span', { class: 'pct' }, b.settledPercent)),
      h('td', { class: 'num' }, b.itemCount), money(b.total), money(b.paid), h('td', {}, b.created)));
    fill(list, table(['#', t.name, t.status, t.progress, t.items, t.total, t.paid, t.created], rows, t.noBatches), h('p', { class: 'muted small' }, t.zone(zone)));
  };
}

function batchView(id) {
  const head = h('div', {});
  const pictures = h('div', { class: 'charts' });
  const filter = { status: '', q: '', offset: 0 };
  const select = h('select', { id: 'status-filter', onchange: () => { filter.status = select.value; filter.offset = 0; refresh(); } });
  let typing;
  const search = h('input', { type: 'search', id: 'item-search', placeholder: t.search, oninput: () => {
    clearTimeout(typing);
    typing = setTimeout(() => { filter.q = search.value; filter.offset = 0; refresh(); }, 250);
  } });
  const items = h('div', { id: 'items' });
  const calls = h('div', {});
  const view = viewer();
  fill(main, head, pictures, h('h2', {}, t.items), h('div', { class: 'filters' }, select, search), items, view.el,
    h('details', { class: 'calls' }, h('summary', {}, t.calls), calls));

  const refresh = async () => {
    const query = new URLSearchParams({ offset: String(filter.offset), limit: String(PAGE) });
    if (filter.status) query.set('status', filter.status);
    if (filter.q.trim()) query.set('q', filter.q.trim());
    const [{ batch: b, zone }, page, log] = await Promise.all([
      api(`/api/batches/${id}`), api(`/api/batches/${id}/items?${query}`), api(`/api/batches/${id}/calls`),
    ]);
    fill(head,
      h('h1', {}, `${t.batch} #${b.id} · ${b.name} `, status(b.status, b.statusText)),
      h('div', { class: 'cards' },
        card(t.total, b.total, `${b.itemCount} ${t.items.toLowerCase()}`), ...paidCards(b.paidWhere, b.paid),
        card(t.progress, h('span', { id: 'settled-percent' }, b.settledPercent), `${b.settledCount}/${b.itemCount} ${t.settledShare}`),
        card(t.created, b.created ?? '—', b.started ? `${t.started} ${b.started}` : null)),
      statusBar(b.byStatus), h('p', { class: 'muted small' }, t.zone(zone)));
    fill(pictures,
      h('figure', {}, h('figcaption', {}, t.amountByStatus), amountRing(b.byStatus, b.total)),
      h('figure', { class: 'grow' }, h('figcaption', {}, t.paidOverTime), paidOverTime(b.paidOverTime, b.totalCents, t)));
    if (select.options.length === 0 || select.dataset.counts !== JSON.stringify(b.byStatus.map((x) => x.count))) {
      select.dataset.counts = JSON.stringify(b.byStatus.map((x) => x.count));
      fill(select, h('option', { value: '' }, t.allStatuses), b.byStatus.map((x) => h('option', { value: x.status, selected: filter.status === x.status }, `${x.statusText} (${x.count})`)));
    }
    const columns = itemColumns(view);
    const rows = page.items.map((i) => h('tr', { 'data-item': i.id }, columns.map((c) => c.cell(i))));
    const to = Math.min(filter.offset + PAGE, page.total);
    fill(items, table(columns.map((c) => c.head), rows, t.noItems),
      page.total > PAGE ? h('div', { class: 'pager' },
        h('button', { disabled: filter.offset === 0, onclick: () => { filter.offset = Math.max(0, filter.offset - PAGE); refresh(); } }, t.previous),
        h('span', {}, t.ofTotal(filter.offset + 1, to, page.total)),
        h('button', { disabled: to >= page.total, onclick: () => { filter.offset += PAGE; refresh(); } }, t.next)) : null);
    fill(calls, table([t.time, t.operation, t.phase, t.outcome, t.detail], log.calls.map((c) => h('tr', {},
      h('td', {}, c.time), h('td', {}, c.operation), h('td', {}, c.phase), h('td', {}, c.outcome ? status(c.outcome, c.outcome) : ''),
      h('td', { class: 'small mono' }, c.facts.join(' · ')))), t.noCalls));
  };
  return refresh;
}

/** The columns of a batch's items, each a heading and how a row (an item of the API) fills its cell. */
function itemColumns(view) {
  return [
    { head: t.line, cell: (i) => h('td', { class: 'num' }, i.line ?? '') },
    { head: t.name, cell: (i) => h('td', {}, i.name ?? '') },
    { head: t.key, cell: (i) => h('td', { class: 'mono' }, i.key) },
    { head: t.document, cell: (i) => h('td', { class: 'mono doc' }, i.documentText ?? '') },
    { head: t.amount, cell: (i) => money(i.amount) },
    { head: t.status, cell: (i) => h('td', {}, status(i.status, i.statusText)) },
    { head: t.reason, cell: (i) => h('td', { class: 'small' }, i.reasonText ?? '') },
    { head: t.story, cell: (i) => h('td', { class: 'small story' }, i.lineage ? storySteps(i.lineage.steps) : '') },
    { head: t.receipt, cell: (i) => h('td', {}, i.hasReceipt ? h('button', { class: 'open-receipt', onclick: () => view.open(`/receipts/item/${i.id}`, `${i.name ?? i.key} · ${i.amount}`) }, t.open) : '') },
  ];
}

/** A row's payments in words, each of another batch a link to it: "falhou no lote #1; pago depois no lote #2". */
function storySteps(steps) {
  return steps.map((x, n) => [n ? '; ' : null, x.here ? x.text : h('a', { href: `#/batches/${x.batchId}` }, x.text)]);
}

/** What the batch paid; when other batches paid some of its rows, what it paid itself and what each of them paid. */
function paidCards(where, paid) {
  if (!where.paidElsewhere.length) return [card(t.paid, paid)];
  return [
    h('div', { class: 'card', id: 'paid-here' }, h('div', { class: 'label' }, t.paidHere), h('div', { class: 'value' }, where.paidHere.amount),
      h('div', { class: 'muted small' }, t.payments(where.paidHere.count))),
    h('div', { class: 'card', id: 'paid-elsewhere' }, h('div', { class: 'label' }, t.paidElsewhere),
      h('ul', { class: 'paid-elsewhere' }, where.paidElsewhere.map((e) => h('li', { 'data-paid-in': e.batchId },
        h('a', { href: `#/batches/${e.batchId}` }, e.text), ` · ${t.payments(e.count)} · ${e.amount}`)))),
  ];
}

function card(label, value, note) {
  return h('div', { class: 'card' }, h('div', { class: 'label' }, label), h('div', { class: 'value' }, value), note ? h('div', { class: 'muted small' }, note) : null);
}

function alertsView() {
  let all = false;
  const list = h('div', { id: 'alerts' });
  const toggle = h('input', { type: 'checkbox', onchange: () => { all = toggle.checked; refresh(); } });
  fill(main, h('h1', {}, t.alerts), h('label', { class: 'filters' }, toggle, ` ${t.showAcked}`), list);
  const refresh = async () => {
    const { alerts } = await api(`/api/alerts${all ? '?all=1' : ''}`);
    fill(list, alerts.length ? alerts.map((a) => h('article', { class: `alert${a.ackedAt ? ' acked' : ''}`, 'data-alert': a.id },
      h('header', {}, h('h3', {}, `#${a.id} ${a.title}`), h('span', { class: 'muted small' }, a.created),
        a.ackedAt ? h('span', { class: 'muted small' }, t.acknowledged(a.acked))
          : h('button', { class: 'ack', onclick: async (e) => { e.target.disabled = true; await post(`/api/alerts/${a.id}/ack`); refresh(); } }, t.acknowledge)),
      h('p', {}, a.summary),
      a.items.length ? h('ul', { class: 'small' }, a.items.map((i) => h('li', {}, `${i.batch}${i.line ? ` · ${t.line.toLowerCase()} ${i.line}` : ''} · ${i.recipient ?? i.key} · ${i.amount} · ${i.statusText}`)),
        a.itemCount > a.items.length ? h('li', { class: 'muted' }, t.more(a.itemCount - a.items.length)) : null) : null,
      a.nextStep ? h('p', { class: 'next' }, a.nextStep) : null)) : h('p', { class: 'muted' }, t.noAlerts));
  };
  return refresh;
}

function billsView() {
  const list = h('div', {});
  const view = viewer();
  fill(main, h('h1', {}, t.bills), list, view.el);
  return async () => {
    const { bills } = await api('/api/bills');
    fill(list, table(['#', t.beneficiary, t.due, t.amount, t.status, t.reason, t.settleDate, t.returnableUntil, t.document], bills.map((b) => h('tr', { 'data-bill': b.id },
      h('td', {}, `#${b.id}`), h('td', {}, b.beneficiary ?? b.description ?? ''), h('td', {}, b.due ?? ''), money(b.amount),
      h('td', {}, status(b.status, b.statusText)), h('td', { class: 'small' }, b.returnReasonText ?? ''), h('td', {}, b.settle ?? ''), h('td', {}, b.returnableUntilText ?? ''),
      h('td', {}, b.hasDocument ? h('button', { onclick: () => view.open(`/receipts/bill/${b.id}`, `#${b.id} · ${b.amount}`) }, t.open) : ''))), t.noBills));
  };
}

function receiptsView() {
  const list = h('div', {});
  const view = viewer();
  fill(main, h('h1', {}, t.receipts), list, view.el);
  return async () => {
    const { receipts } = await api('/api/receipts');
    fill(list, table([t.batch, t.line, t.name, t.amount, t.status, t.paid, t.receipt], receipts.map((r) => h('tr', {},
      h('td', {}, h('a', { href: `#/batches/${r.batchId}` }, `#${r.batchId} ${r.batchName}`)), h('td', { class: 'num' }, r.line ?? ''), h('td', {}, r.name ?? ''),
      money(r.amount), h('td', {}, status(r.status, r.statusText)), h('td', {}, r.paid),
      h('td', {}, h('button', { class: 'open-receipt', onclick: () => view.open(`/receipts/item/${r.itemId}`, `${r.name ?? ''} · ${r.amount}`) }, t.open)))), t.noReceipts));
  };
}

function approvalsView() {
  const list = h('div', {});
  fill(main, h('h1', {}, t.approvals), list);
  return async () => {
    const { available, pending } = await api('/api/approvals');
    if (!available) return fill(list, h('p', { class: 'muted empty-panel' }, t.approvalsUnavailable));
    fill(list, pending.length ? pending.map((p) => h('article', { class: `alert${p.missing ? '' : ' acked'}`, 'data-approval': `${p.kind}:${p.ref}` },
      h('h3', {}, p.kind === 'batch' ? `${t.batch} #${p.ref} · ${p.name}` : `${t.bill} ${p.ref}`),
      h('p', {}, p.kind === 'batch' ? t.approvalSummary(p.total, p.rows, p.largest) : p.total),
      h('p', { class: 'small' }, t.signatures(p.valid, p.required), p.signedBy.length ? ` (${p.signedBy.join(', ')})` : '',
        p.waitingFor.length ? ` · ${t.waitingFor} ${p.waitingFor.join(', ')}` : '', p.makers.length ? ` · ${t.madeBy} ${p.makers.join(', ')}` : ''),
      h('p', {}, `${p.missing ? t.sign : t.ready} `, h('code', {}, p.command)))) : h('p', { class: 'muted empty-panel' }, t.noApprovals));
  };
}

const FORMATS = ['pdf', 'xlsx', 'csv', 'ofx'];

/** The period statement of a month, or of some days, downloaded as a file; the server's refusal is said in the page. */
function statementView() {
  // This month in São Paulo, as <input type=month> writes it.
  const month = h('input', { type: 'month', id: 'statement-month', value: new Date().toLocaleDateString('sv-SE', { timeZone: 'America/Sao_Paulo' }).slice(0, 7) });
  const from = h('input', { type: 'date', id: 'statement-from' });
  const to = h('input', { type: 'date', id: 'statement-to' });
  const monthBox = h('label', { class: 'field' }, t.month, month);
  const daysBox = h('div', { class: 'filters', hidden: true }, h('label', { class: 'field' }, t.fromDay, from), h('label', { class: 'field' }, t.toDay, to));
  const byDays = h('input', { type: 'checkbox', id: 'statement-by-days', onchange: () => { monthBox.hidden = byDays.checked; daysBox.hidden = !byDays.checked; } });
  const format = h('select', { id: 'statement-format' }, FORMATS.map((f) => h('option', { value: f }, t.formatNames[f])));
  const message = h('p', { id: 'statement-message', class: 'small', role: 'status' });
  const button = h('button', { type: 'submit', id: 'statement-download' }, t.download);
  const form = h('form', { class: 'statement', onsubmit: async (e) => {
    e.preventDefault();
    const query = new URLSearchParams(byDays.checked ? { from: from.value, to: to.value } : { month: month.value });
    query.set('format', format.value);
    button.disabled = true;
    message.className = 'small muted';
    fill(message, t.preparing);
    try {
      const saved = await download(`/api/statement?${query}`);
      message.className = 'small';
      fill(message, t.downloaded(saved));
    } catch (problem) {
      message.className = 'small warn';
      fill(message, problem instanceof SignedOut ? t.signedOut : problem instanceof Refused ? t.statementProblem(problem.body) : t.offline);
    } finally {
      button.disabled = false;
    }
  } },
  h('div', { class: 'filters' }, monthBox, h('label', { class: 'field check' }, byDays, t.byDays)), daysBox,
  h('div', { class: 'filters' }, h('label', { class: 'field' }, t.format, format), button));
  fill(main, h('h1', {}, t.statement), h('p', { class: 'muted' }, t.statementAbout), form, message);
  return async () => {};
}

/** Fetches a file and hands it to the browser as a download under the name the server gave; returns that name. */
async function download(path) {
  const res = await fetch(path, { credentials: 'same-origin' });
  if (res.status === 401) throw new SignedOut();
  if (!res.ok) throw new Refused(await res.json().catch(() => ({ code: 'unknown', message: `${res.status}` })));
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'statement';
  const link = h('a', { href: URL.createObjectURL(await res.blob()), download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click is handled; the object's memory goes back a while later.
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
  return name;
}

const ROUTES = [
  [/^#?\/?$/, batchesView, 'batches'],
  [/^#\/batches\/(\d+)$/, (m) => batchView(m[1]), 'batches'],
  [/^#\/alerts$/, alertsView, 'alerts'],
  [/^#\/bills$/, billsView, 'bills'],
  [/^#\/receipts$/, receiptsView, 'receipts'],
  [/^#\/approvals$/, approvalsView, 'approvals'],
  [/^#\/statement$/, statementView, 'statement'],
];

/** The strip under the menu: whether a daemon follows the payments (and how to start one), and the open alerts. */
function drawStatus({ daemon: d, startDaemon, alerts }) {
  const pass = d.lastPass === null ? t.noPass : (d.lastPassOnce ? t.lastPassOnce : t.lastPass)(d.lastPass, d.lag);
  const titles = alerts.titles.slice(0, 3).map((a) => a.title);
  fill(strip,
    h('span', { id: 'daemon-state', class: `state ${d.running ? (d.late ? 'late' : 'on') : 'off'}` }, d.running ? t.daemonRunning(d.daemons.length) : t.daemonStopped),
    h('span', { id: 'last-pass', class: 'muted' }, pass),
    d.running && d.late ? h('span', { class: 'late-note' }, t.late) : null,
    h('span', { id: 'open-alerts' }, h('a', { href: '#/alerts' }, t.openAlerts(alerts.open)),
      titles.length ? h('span', { class: 'muted' }, `: ${titles.join(' · ')}${alerts.open > titles.length ? ` · ${t.more(alerts.open - titles.length)}` : ''}`) : null),
    !d.running && d.startedBatches > 0 ? h('p', { id: 'not-followed', class: 'warn' }, `${t.notFollowed(d.startedBatches)} `, h('code', {}, startDaemon)) : null);
}

let openAlerts = null;
function drawNav(active) {
  fill(nav, ['batches', 'alerts', 'bills', 'receipts', 'approvals', 'statement'].map((name) =>
    h('a', { href: name === 'batches' ? '#/' : `#/${name}`, class: name === active ? 'active' : null, id: `nav-${name}` }, t[name],
      name === 'alerts' && openAlerts ? h('span', { class: 'badge' }, openAlerts) : null)));
}

async function tick() {
  clearTimeout(timer);
  try {
    await current.refresh();
    const now = await api('/api/status');
    drawStatus(now);
    openAlerts = now.alerts.open;
    drawNav(current.name);
    live.className = 'live';
    live.textContent = t.updated(new Date().toLocaleTimeString(lang, { timeZone: 'America/Sao_Paulo' }));
  } catch (e) {
    live.className = 'live off';
    if (e instanceof SignedOut) {
      live.textContent = t.signedOut;
      return; // nothing more to poll without a session
    }
    live.textContent = t.offline;
  }
  timer = setTimeout(tick, POLL_MS);
}

function route() {
  const hash = location.hash || '#/';
  for (const [pattern, make, name] of ROUTES) {
    const m = pattern.exec(hash);
    if (m) {
      current = { refresh: make(m), name };
      drawNav(name);
      return tick();
    }
  }
  location.hash = '#/';
}

document.title = `paybatch · ${t.batches}`;
window.addEventListener('hashchange', route);
route();
