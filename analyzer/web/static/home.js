"use strict";
// The home page of xianniu serve: the tables, the library of hands, the latest report.
(() => {
  const S = { info: null, lang: "zh", hands: null };
  const $ = (id) => document.getElementById(id);

  function t(key) {
    const words = (S.info && S.info.strings[S.lang]) || {};
    return Object.prototype.hasOwnProperty.call(words, key) ? words[key] : key;
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }

  async function api(url) {
    document.body.dataset.busy = "1";
    try {
      const res = await fetch(url);
      const data = await res.json();
      if (!res.ok) throw new Error(data.error || res.statusText);
      $("error").hidden = true;
      return data;
    } finally { document.body.dataset.busy = "0"; }
  }

  function showError(message) {
    $("error").textContent = `${t("error")}: ${message}`;
    $("error").hidden = false;
  }

  const signed = (x, d = 2) => (x > 0 ? "+" : "") + Number(x).toFixed(d);

  function query() {
    const p = new URLSearchParams();
    for (const k of ["game", "preset", "tag", "since", "until"]) {
      const v = $(`f-${k}`) ? $(`f-${k}`).value.trim() : "";
      if (v) p.set(k, v);
    }
    return p.toString();
  }

  function renderTables() {
    $("tables").replaceChildren(el("h2", {}, t("tables")),
      el("div", { class: "bar" }, S.info.tables.map((g) =>
        el("a", { class: "table-link", href: `${g.name}/`, id: `table-${g.name}` }, g.title))));
    $("report").replaceChildren(el("h2", {}, t("report")), S.info.report
      ? el("a", { href: "report/report.html", id: "report-link" }, t("open_report"))
      : el("span", { class: "muted" }, t("no_report")));
  }

  function renderForm() {
    const prev = $("f-game") ? Object.fromEntries(
      ["game", "preset", "tag", "since", "until"].map((k) => [k, $(`f-${k}`).value])) : {};
    const games = el("select", { id: "f-game" }, el("option", { value: "" }, t("all")),
      S.info.tables.map((g) => el("option", { value: g.name, selected: prev.game === g.name },
        g.title)));
    const field = (k, type) => {
      const input = el("input", { id: `f-${k}`, type, size: 10 });
      input.value = prev[k] || "";
      return el("label", {}, `${t(k)} `, input);
    };
    $("filter-form").replaceChildren(el("label", {}, `${t("game")} `, games),
      field("preset", "text"), field("tag", "text"), field("since", "date"),
      field("until", "date"),
      el("button", { type: "submit", class: "primary", id: "filter-btn" }, t("filter")),
      el("a", { id: "export-link", href: `api/library/export.jsonl?${query()}`,
                download: "hands.jsonl" }, t("export")));
    $("filter-form").onsubmit = (e) => { e.preventDefault(); load(); };
  }

  function renderHands() {
    const data = S.hands;
    if (!data) return;
    const titles = Object.fromEntries(S.info.tables.map((g) => [g.name, g.title]));
    $("summary").replaceChildren(...data.summary.map((s) => el("div", { class: "summary-row" },
      `${titles[s.game] || s.game}: ${t("mean_result")} ${signed(s.mean)} `,
      s.low === null ? "" : `[${signed(s.low)}, ${signed(s.high)}] `,
      `${t(`unit_${data.units[s.game]}`)} ${t("per_hand")} (n=${s.n})`)),
      data.summary.length ? el("div", { class: "muted" }, t("unknown_seat")) : "");
    if (!data.hands.length) {
      $("hands").replaceChildren(el("p", { class: "muted", id: "no-hands" }, t("no_hands")));
      return;
    }
    const head = el("tr", {}, ["#", "played", "game", "rules", "seat", "result", "tags", ""]
      .map((k) => el("th", {}, k === "#" ? k : t(k))));
    const rows = data.hands.slice().reverse().map((h) => el("tr", { "data-hand": h.id },
      el("td", {}, h.id), el("td", {}, h.played.replace("T", " ").replace("Z", "")),
      el("td", {}, titles[h.game] || h.game), el("td", {}, h.preset),
      el("td", {}, h.seat === null ? "-" : h.seat),
      el("td", {}, h.result === null ? "-" : signed(h.result, 0)),
      el("td", {}, h.tags.join(", ")),
      el("td", {}, el("a", { href: `${h.game}/#hand=${h.id}`, class: "review-link" },
        t("open_review")), " ",
        el("a", { href: `api/library/hands/${h.id}/record`, download: `hand-${h.id}.json` },
          t("download")))));
    $("hands").replaceChildren(el("table", { id: "hands-table", class: "data" }, el("thead", {}, head),
      el("tbody", {}, rows)));
  }

  function setLang(lang) {
    S.lang = lang;
    try { localStorage.setItem("xn-lang", lang); } catch (e) { /* private mode */ }
    document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
    $("lang-btn").textContent = t("lang_switch");
    $("title").textContent = t("home_title");
    document.title = t("home_title");
    $("library-title").textContent = t("library");
    $("footer").textContent = t("offline");
    renderTables();
    renderForm();
    renderHands();
  }

  async function load() {
    try {
      S.hands = await api(`api/library/hands?${query()}`);
      renderForm();
      renderHands();
    } catch (e) { showError(e.message); }
  }

  (async () => {
    try { S.info = await api("api/home"); } catch (e) { showError(e.message); return; }
    let lang = null;
    try { lang = localStorage.getItem("xn-lang"); } catch (e) { /* private mode */ }
    $("lang-btn").addEventListener("click", () => setLang(S.lang === "zh" ? "en" : "zh"));
    setLang(S.info.strings[lang] ? lang : S.info.lang);
    await load();
  })();
})();
