"use strict";
// The home page of xianniu serve: the tables, the library of hands, the latest report.
(() => {
  const S = { info: null, lang: "zh", hands: null, split: null, progress: null };
  const $ = (id) => document.getElementById(id);

  function t(key) {
    const words = (S.info && S.info.strings[S.lang]) || {};
    return Object.prototype.hasOwnProperty.call(words, key) ? words[key] : key;
  }

  const el = XN.el;  // the tables' element builder (static/app.js)

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

  // The puzzles: the player's rating, and per game what is kept, tried, solved and due,
  // with a link that opens the next one at the game's table.
  function renderPuzzles() {
    const p = S.puzzles;
    if (!p) return;
    const titles = Object.fromEntries(S.info.tables.map((g) => [g.name, g.title]));
    $("puzzles").replaceChildren(el("h2", {}, t("puzzles")),
      el("div", { id: "pz-player" }, `${t("pz_rating")}: `, el("b", {}, p.rating), ` (±${2 * p.rd})`),
      el("table", { class: "data", id: "pz-games" },
        el("tr", {}, [t("game"), t("pz_kept"), t("pz_tried"), t("pz_solved"), t("pz_due"), ""].map((h) => el("th", {}, h))),
        p.games.map((g) => {
          const n = g.kept || g.shipped || 0;
          return el("tr", { "data-game": g.name }, el("td", {}, titles[g.name] || g.name), el("td", {}, n),
            el("td", {}, g.tried), el("td", {}, `${g.solved} / ${g.attempts}`), el("td", {}, g.due),
            el("td", {}, n ? el("a", { href: `${g.name}/#puzzle=next`, id: `pz-open-${g.name}` }, t("pz_open"))
              : el("span", { class: "muted" }, t("pz_none"))));
        })));
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
    // each hand's own split, once the luck-and-skill job has made it
    const splits = {};
    for (const g of Object.values((S.split && S.split.games) || {})) {
      for (const h of g.hands) splits[h.id] = h;
    }
    const part = (h, p) => {
      const s = splits[h.id];
      if (!s) return el("td", {});
      return el("td", { class: "split-cell", title: est(s[p]) }, signed(s[p].value));
    };
    const head = el("tr", {}, ["#", "played", "game", "rules", "seat", "result",
      "part_deal", "part_decisions", "part_lie", "tags", ""]
      .map((k) => el("th", {}, k === "#" ? k : t(k))));
    const rows = data.hands.slice().reverse().map((h) => el("tr", { "data-hand": h.id },
      el("td", {}, h.id), el("td", {}, h.played.replace("T", " ").replace("Z", "")),
      el("td", {}, titles[h.game] || h.game), el("td", {}, h.preset),
      el("td", {}, h.seat === null ? "-" : h.seat),
      el("td", {}, h.result === null ? "-" : signed(h.result, 0)),
      part(h, "deal"), part(h, "decisions"), part(h, "lie"),
      el("td", {}, h.tags.join(", ")),
      el("td", {}, el("a", { href: `${h.game}/#hand=${h.id}`, class: "review-link" },
        t("open_review")), " ",
        el("a", { href: `api/library/hands/${h.id}/record`, download: `hand-${h.id}.json` },
          t("download")))));
    $("hands").replaceChildren(el("table", { id: "hands-table", class: "data" }, el("thead", {}, head),
      el("tbody", {}, rows)));
  }

  // -- luck and skill ---------------------------------------------------------------------

  const PARTS = ["deal", "decisions", "lie"];
  const COLOURS = { deal: "#1f5f8a", decisions: "#b3261e", lie: "#7a7a7a" };
  const est = (e, d = 2) => (e.low === null || e.high === null
    ? `${signed(e.value, d)} [—, —] (n=${e.n})`
    : `${signed(e.value, d)} [${signed(e.low, d)}, ${signed(e.high, d)}] (n=${e.n})`);

  async function runSplit() {
    const box = $("luck-result");
    const track = el("div", { class: "track" }, el("div", { class: "fill" }));
    box.replaceChildren(el("div", { class: "progress", id: "split-progress" }, track));
    try {
      const res = await fetch(`api/library/split?${query()}`, { method: "POST" });
      const { job, error } = await res.json();
      if (!res.ok) throw new Error(error || res.statusText);
      for (;;) {
        const r = await fetch(`api/jobs/${job}`);
        const data = await r.json();
        if (!r.ok) throw new Error(data.error || r.statusText);
        if (data.total) track.firstChild.style.width = `${(100 * data.done) / data.total}%`;
        if (data.finished) {
          if (data.error) throw new Error(data.error);
          S.split = data.result;
          renderHands();
          break;
        }
        await new Promise((ok) => setTimeout(ok, 300));
      }
      renderSplit();
    } catch (e) { box.replaceChildren(); showError(e.message); }
  }

  // The trend by week: each part's mean a hand, its CI as a bar, one line a part (SVG
  // markup of numbers and week names only, parsed by the page's own HTML parser).
  function trendSvg(weeks) {
    const W = 520, H = 180, L = 44, B = 22;
    const ys = weeks.flatMap((w) => PARTS.flatMap((p) => [w[p].low, w[p].high, w[p].value]))
      .filter((v) => v !== null);
    const lo = Math.min(0, ...ys), hi = Math.max(0, ...ys);
    const y = (v) => (8 + (H - B - 8) * (hi === lo ? 0.5 : (hi - v) / (hi - lo))).toFixed(1);
    const x = (i) => L + 14 + (weeks.length === 1 ? (W - L - 60) / 2
      : (i * (W - L - 60)) / (weeks.length - 1));
    const week = (w) => String(w.week).replace(/[^0-9W-]/g, "");
    const parts = [
      `<line x1="${L}" x2="${W}" y1="${y(0)}" y2="${y(0)}" stroke="#999"/>`,
      `<text x="2" y="${Number(y(hi)) + 4}" font-size="11">${signed(hi, 1)}</text>`,
      `<text x="2" y="${y(lo)}" font-size="11">${signed(lo, 1)}</text>`,
      ...weeks.map((w, i) => `<text x="${x(i) - 24}" y="${H - 4}" font-size="11">${week(w)}</text>`)];
    PARTS.forEach((p, k) => {
      const dx = (k - 1) * 4;
      parts.push(`<polyline fill="none" stroke="${COLOURS[p]}" stroke-width="2" points="${
        weeks.map((w, i) => `${x(i) + dx},${y(w[p].value)}`).join(" ")}"/>`);
      weeks.forEach((w, i) => {
        if (w[p].low !== null) {
          parts.push(`<line x1="${x(i) + dx}" x2="${x(i) + dx}" y1="${y(w[p].low)}" ` +
            `y2="${y(w[p].high)}" stroke="${COLOURS[p]}"/>`);
        }
        parts.push(`<circle cx="${x(i) + dx}" cy="${y(w[p].value)}" r="3" fill="${COLOURS[p]}"/>`);
      });
    });
    const box = el("div", { class: "trend-box" });
    box.innerHTML = `<svg width="${W}" height="${H}" class="trend" role="img">${parts.join("")}</svg>`;
    return box;
  }

  function renderSplit() {
    $("luck").replaceChildren(el("h2", {}, t("luck_skill")),
      el("p", { class: "muted" }, t("split_help")),
      el("button", { type: "button", class: "primary", id: "split-btn", onclick: runSplit },
        t("compute_split")),
      el("div", { id: "luck-result" }));
    const data = S.split;
    if (!data) return;
    const titles = Object.fromEntries(S.info.tables.map((g) => [g.name, g.title]));
    const blocks = Object.entries(data.games).map(([game, g]) => {
      const unit = t(`unit_${(S.info.tables.find((x) => x.name === game) || {}).unit}`);
      const parts = el("table", { class: "data split-table", "data-game": game },
        el("tr", {}, el("th", {}, `${titles[game] || game} (${unit})`),
          el("th", {}, t("mean_per_hand"))),
        ["result", ...PARTS].map((p) => el("tr", { "data-part": p },
          el("td", {}, p === "result" ? t("part_result") : el("span",
            { style: `color:${COLOURS[p]}` }, t(`part_${p}`))),
          el("td", {}, est(g.mean[p])))));
      const kinds = el("table", { class: "data" },
        el("tr", {}, el("th", {}, t("kind")), el("th", {}, t("loss"))),
        Object.entries(g.by_kind).map(([kind, e]) => el("tr", {}, el("td", {}, kind),
          el("td", {}, est(e, 3)))));
      return el("div", { class: "split-game" }, parts,
        el("h3", {}, t("by_kind")), kinds,
        el("h3", {}, t("by_week")), trendSvg(g.weekly));
    });
    $("luck-result").replaceChildren(...blocks);
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
    renderPuzzles();
    renderForm();
    renderHands();
    renderSplit();
  }

  async function load() {
    try {
      S.puzzles = await api("api/puzzles");
      renderPuzzles();
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
