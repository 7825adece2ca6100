"use strict";
// The table's common machinery: words in two languages, JSON calls with clear errors,
// background jobs with a progress bar, downloads. The game's board.js calls XN.start.
const XN = (() => {
  const st = { info: null, lang: null, onLang: [], busy: 0, openRecord: null, draw: null,
               puzzle: null };

  // The table's API is beside its page: "/api/…" is read relative to the page, so that a
  // table serves the same at "/" and mounted under "/<game>/" in the app of xianniu serve.
  function here(url) { return url.startsWith("/") ? "." + url : url; }

  function t(key) {
    const words = (st.info && st.info.strings[st.lang]) || {};
    return Object.prototype.hasOwnProperty.call(words, key) ? words[key] : key;
  }

  // el("div", {class: "x", onclick: f}, child, "text", ...)
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else if (k === "text") node.textContent = v;
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }

  function busy(delta) {
    st.busy += delta;
    document.body.dataset.busy = String(st.busy);
  }

  function showError(message) {
    const box = document.getElementById("error");
    box.textContent = `${t("error")}: ${message}`;
    box.hidden = false;
  }

  function clearError() { document.getElementById("error").hidden = true; }

  async function api(method, url, body) {
    busy(1);
    try {
      const opts = { method, headers: {} };
      if (body !== undefined) {
        opts.headers["Content-Type"] = "application/json";
        opts.body = JSON.stringify(body);
      }
      const res = await fetch(here(url), opts);
      let data = null;
      try { data = await res.json(); } catch (e) { data = { error: res.statusText }; }
      if (!res.ok) {
        const err = new Error(data.error || res.statusText);
        err.status = res.status;
        throw err;
      }
      return data;
    } finally { busy(-1); }
  }

  function progressBar() {
    const fill = el("div", { class: "fill indeterminate" });
    const label = el("span", { class: "label muted" }, t("computing"), "…");
    const node = el("span", { class: "progress", role: "progressbar" },
      el("span", { class: "track" }, fill), label);
    return {
      node,
      set(done, total) {
        if (total > 0) {
          fill.classList.remove("indeterminate");
          fill.style.width = `${Math.min(100, (100 * done) / total)}%`;
          label.textContent = `${t("computing")} ${done} / ${total}`;
        } else if (done > 0) {
          label.textContent = `${t("computing")} ${done}`;
        }
      },
    };
  }

  // Start a job with POST url and poll it, showing progress, until its result.
  async function job(url, body, bar) {
    const { job: id } = await api("POST", url, body);
    busy(1);
    try {
      for (;;) {
        const res = await fetch(here(`/api/jobs/${id}`));
        const data = await res.json();
        if (!res.ok) throw new Error(data.error || res.statusText);
        if (bar) bar.set(data.done, data.total);
        if (data.finished) {
          if (data.error) throw new Error(data.error);
          return data.result;
        }
        await new Promise((r) => setTimeout(r, 250));
      }
    } finally { busy(-1); }
  }

  function download(name, obj) {
    const blob = new Blob([JSON.stringify(obj, null, 1) + "\n"], { type: "application/json" });
    const a = el("a", { href: URL.createObjectURL(blob), download: name });
    document.body.append(a);
    a.click();
    setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  }

  function setLang(lang) {
    st.lang = lang;
    try { localStorage.setItem("xn-lang", lang); } catch (e) { /* private mode */ }
    document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
    document.getElementById("lang-btn").textContent = t("lang_switch");
    document.getElementById("title").textContent = t("title");
    document.getElementById("subtitle").textContent = t("subtitle");
    document.title = t("title");
    document.getElementById("footer").textContent = t("offline");
    for (const f of st.onLang) f();
    renderPuzzle();
  }

  function fmt(x, digits = 2) {
    const s = Number(x).toFixed(digits);
    return x > 0 ? `+${s}` : s;
  }

  // "ev [low, high] (n=…)": every estimate shown with its CI and sample size
  function estimate(ev, ci, n) {
    return `${fmt(ev)} [${fmt(ci[0])}, ${fmt(ci[1])}] (${t("n")}=${n})`;
  }

  // Ask once per position for the advice on the human's decision in board state S.
  async function requestAdvice(S, renderAdvice) {
    const v = S.view;
    if (!S.adviceOn || v.over || v.to_act !== v.you || v.advice || S.adviceFor === v.version) return;
    S.adviceFor = v.version;
    const bar = progressBar();
    const panel = document.getElementById("advice");
    panel.hidden = false;
    panel.replaceChildren(el("h2", {}, t("advice")), bar.node);
    try {
      const res = await job(`/api/games/${S.sid}/advice`, { version: v.version }, bar);
      if (S.view.version === v.version) { S.view.advice = res; renderAdvice(); }
    } catch (e) { showError(e.message); panel.hidden = true; }
    finally { S.adviceFor = -1; }
  }

  // A record entry in words: its action, then its other fields but the seat, in order
  // ("end" written as "@end").
  function entryText(e) {
    const rest = Object.entries(e).filter(([k]) => k !== "seat" && k !== "action")
      .map(([k, v]) => (k === "end" ? `@${v}` : String(v)));
    return [e.action, ...rest].join(" ");
  }

  // The review of a loaded record (the game's "review_record" query), kept in S.rr: a seat
  // to choose, then its decisions beside the advised ones, worst first.
  function recordReview(S, nSeats, rerender, prefix = "") {
    const seatSel = el("select", { id: `${prefix}rr-seat` }, [...Array(nSeats).keys()].map(
      (s) => el("option", { value: s, selected: s === (S.rrSeat || 0) }, s)));
    const run = async () => {
      S.rrSeat = Number(seatSel.value);
      const out = document.getElementById(`${prefix}rr-result`);
      const bar = progressBar();
      out.replaceChildren(bar.node);
      try {
        S.rr = await job("/api/queries/review_record", { record: S.replayRecord, seat: S.rrSeat }, bar);
        rerender();
      } catch (e) { showError(e.message); out.replaceChildren(); }
    };
    return el("div", { id: `${prefix}record-review` }, el("h2", {}, t("review")),
      el("div", { class: "bar" }, el("label", {}, `${t("seat")} `, seatSel),
        el("button", { type: "button", id: `${prefix}rr-btn`, onclick: run }, t("review"))),
      el("div", { id: `${prefix}rr-result` }, S.rr ? reviewRows(S.rr, prefix) : ""));
  }

  function reviewRows(rv, prefix = "") {
    const est = (e) => estimate(e.value, [e.low, e.high], e.n);
    const rows = rv.rows.filter((r) => !r.forced).sort((a, b) => b.loss.value - a.loss.value);
    const s = rv.summary[String(rv.seats[0])];
    const th = rv.thresholds;
    return el("div", {},
      el("table", { class: "data", id: `${prefix}rr-table` },
        el("tr", {}, ["#", t("kind"), t("taken"), t("ev"), t("best"), t("ev"), t("lost"),
                      t("label")].map((h) => el("th", {}, h))),
        rows.map((r) => el("tr", { class: r.label ? `rr-${r.label}` : null },
          el("td", {}, r.index), el("td", {}, r.kind), el("td", {}, entryText(r.taken)),
          el("td", {}, est(r.taken_ev)), el("td", {}, r.rank === 1 ? "=" : entryText(r.best)),
          el("td", {}, est(r.best_ev)), el("td", {}, est(r.loss)),
          el("td", {}, r.label ? t(r.label) : "")))),
      el("div", { id: `${prefix}rr-total` }, `${t("total_lost")}: `, el("b", {}, est(s.total_loss)),
        ` · ${s.forced} ${t("forced")}`),
      el("div", { class: "muted" }, `${t("labels_rule")}: ${th.inaccuracy} / ${th.mistake} / ${th.blunder}`));
  }

  // Enter a hand played elsewhere: the text notation in a box (kept in S.ehText), read by
  // the game's "enter_hand" query (S.eh), whose legal actions append their token; the
  // entered record can be reviewed as a loaded one (S.eh.record) or saved.
  function enterHand(S, nSeats, rerender, template) {
    if (S.ehText === undefined) S.ehText = template;
    const box = el("textarea", { id: "eh-text", rows: 8, cols: 80, spellcheck: "false",
                                 oninput: (e) => { S.ehText = e.target.value; } });
    box.value = S.ehText;
    const check = async () => {
      try {
        S.eh = await job(`/api/queries/enter_hand`, { text: S.ehText });
        S.ehText = S.eh.text;
        S.ehRecord = { replayRecord: S.eh.record, rr: null, rrSeat: 0 };
        clearError();
        rerender();
      } catch (e) { S.eh = null; showError(e.message); rerender(); }
    };
    // where the engine does not list the choices (S.eh.listed false) the action is typed
    const legal = S.eh && !S.eh.over ? el("div", { id: "eh-legal" },
      S.eh.listed === false ? `${t("seat")} ${S.eh.to_act}` :
        `${t("seat")} ${S.eh.to_act} · ${t("legal_actions")}: `,
      S.eh.legal.map((a) => el("button", { type: "button", class: "act", onclick: () => {
        S.ehText = `${S.ehText.trimEnd()} ${a.token}\n`;
        check();
      } }, a.token))) : "";
    return el("div", { id: "enter-hand" }, el("h2", {}, t("enter_hand")),
      el("div", { class: "muted" }, t("enter_help")), box,
      el("div", { class: "bar" }, el("button", { type: "button", id: "eh-check", onclick: check }, t("check")),
        S.eh ? el("button", { type: "button", id: "eh-save",
                              onclick: () => download("hand.json", S.eh.record) }, t("save_record")) : ""),
      legal,
      S.eh ? recordReview(S.ehRecord, nSeats, rerender, "eh-") : "");
  }

  // A choice of the form by its name in the page's words (a preset: "rules_<id>"), else its id.
  function choiceName(option, choice) {
    const words = (st.info && st.info.strings[st.lang]) || {};
    const key = `${option}_${choice}`;
    return Object.prototype.hasOwnProperty.call(words, key) ? words[key] : choice;
  }

  // The new-hand form (rules, opponents, seed), kept across a language switch.
  function formOptions() {
    const get = (id) => document.getElementById(id);
    const seed = get("opt-seed").value.trim();
    return { rules: get("opt-rules").value, opponents: get("opt-opponents").value,
             seed: seed === "" ? null : seed };
  }

  function renderForm(info, newGame) {
    const form = document.getElementById("new-form");
    const prev = document.getElementById("opt-seed") ? formOptions() : null;
    const sel = (id, name) => el("label", {}, `${t(name)} `, el("select", { id },
      info.options[name].choices.map((c) => el("option", { value: c,
        selected: (prev ? prev[name] : info.options[name].default) === c }, choiceName(name, c)))));
    const seed = el("input", { id: "opt-seed", size: 10, inputmode: "numeric" });
    seed.value = prev ? (prev.seed ?? "") : (info.options.seed.default ?? "");
    form.replaceChildren(sel("opt-rules", "rules"), sel("opt-opponents", "opponents"),
      el("label", {}, `${t("seed")} `, seed),
      el("button", { type: "submit", class: "primary", id: "new-btn" }, t("new_game")));
    form.onsubmit = (e) => { e.preventDefault(); newGame(formOptions()); };
  }

  // A table's request: the answer, or null with the error shown (a session the server no
  // longer holds is forgotten from sessionStorage[key], so a reload starts a new one).
  async function tableCall(key, method, url, body) {
    try {
      const data = await api(method, url, body);
      clearError();
      const view = data && (data.view || data);
      if (view && typeof view === "object" && "version" in view) {  // a table's view
        st.puzzle = view.puzzle ? view : null;
        renderPuzzle();
      }
      return data;
    } catch (e) {
      showError(e.message);
      if (e.status === 404 && url.startsWith("/api/games/")) sessionStorage.removeItem(key);
      return null;
    }
  }

  // The end-of-hand review of a table's session (S.sid), kept in S.review and shown by
  // rerender; its progress bar stands in the "review" box meanwhile.
  async function runReview(S, rerender) {
    const box = document.getElementById("review");
    const bar = progressBar();
    box.replaceChildren(el("div", { class: "muted" }, t("review_needs_advice")), bar.node);
    try {
      S.review = await job(`/api/games/${S.sid}/review`, {}, bar);
      rerender();
    } catch (e) { showError(e.message); box.replaceChildren(); }
  }

  // A record (a file, or the record itself) loaded at a table (call: the table's request
  // helper), stepped through from its first frame (S.replay, S.frame), shown by rerender.
  async function loadRecord(S, file, call, rerender) {
    let record = file;
    if (file instanceof Blob) {
      try { record = JSON.parse(await file.text()); } catch (e) { showError(e.message); return; }
    }
    const data = await call("POST", "/api/records/review", { record });
    if (!data) return;
    Object.assign(S, { replay: data, replayRecord: record, rr: null, frame: 0 });
    rerender();
  }

  // -- puzzles: "#puzzle=ID" or "#puzzle=next" opens one as the table's session --------
  // The board draws the position as any hand; this panel says what is asked, then the
  // verdict: the answer, every action's value with its CI, ratings, and one sampled deal
  // where the tempting action loses, drawn with the board's own drawers (st.draw).
  async function openPuzzle() {
    const m = /^#puzzle=(\d+|next)$/.exec(location.hash);
    if (!m) return;
    history.replaceState(null, "", location.pathname);  // a reload keeps this puzzle
    try {
      const data = await api("POST", `/api/puzzles/${m[1]}`, {});
      sessionStorage.setItem(`xn-${st.info.game}-game`, data.id);
    } catch (e) { showError(e.message); }
  }

  function nextPuzzle() {
    location.hash = "#puzzle=next";
    location.reload();
  }

  function puzzleLine(line, d) {
    return el("div", { class: "pz-line" }, el("div", {}, el("b", {}, d.action(line.action)),
      ` → ${t("pz_result")}: `, el("b", {}, fmt(line.result, 0))),
    el("ol", { class: "pz-moves" }, line.moves.map((m) => el("li", {}, d.move(m)))));
  }

  function renderPuzzle() {
    const box = document.getElementById("puzzle");
    const view = st.puzzle, p = view && view.puzzle;
    // the board's drawers, given the view they draw in
    const d = st.draw && { action: (a) => st.draw.action(a, view), move: (m) => st.draw.move(m, view),
                           hand: (h) => st.draw.hand(h, view),
                           seat: (s) => st.draw.seat(s, view) };
    if (!box || !d) return;
    box.hidden = !p;
    document.body.classList.toggle("puzzle", !!p);  // a puzzle's hand has no end panel
    if (!p) return;
    const theme = t(`theme_${p.theme}`);
    const head = el("h2", {}, `${t("pz_title")} #${p.id} · ${theme === `theme_${p.theme}` ? p.theme : theme}`);
    const v = p.verdict;
    if (!v) {
      box.replaceChildren(head, el("div", { id: "pz-ask" },
        `${t("pz_ask")} (${p.actions} ${t("pz_actions")}) · ${t("pz_rating")}: `, el("b", {}, p.rating)));
      return;
    }
    const est = (e) => estimate(e.value, [e.low, e.high], e.n);
    const ex = v.explanation;
    box.replaceChildren(head,
      el("div", { id: "pz-verdict", class: v.solved ? "pz-right" : "pz-wrong", "data-solved": String(v.solved) },
        el("b", {}, t(v.solved ? "pz_right" : "pz_wrong")), " ", t("pz_answer"), ": ", d.action(v.answer),
        v.solved ? "" : [" · ", t("pz_taken"), ": ", d.action(v.taken)]),
      el("div", { id: "pz-rating" }, `${t("pz_rating")}: `, el("b", {}, v.rating),
        ` · ${t("pz_puzzle_rating")}: ${v.puzzle_rating}`,
        v.due ? ` · ${t("pz_due")} ${new Date(v.due).toLocaleString()}` : ""),
      el("table", { class: "data", id: "pz-values" },
        el("tr", {}, [t("pz_action"), `${t("ev")} [${t("ci95")}]`, t("pz_behind")].map((h) => el("th", {}, h))),
        v.actions.map((a, i) => el("tr", { class: i === 0 ? "best" : "" },
          el("td", {}, d.action(a.action)), el("td", {}, estimate(a.ev, a.ci95, a.n)),
          el("td", {}, i === 0 ? "" : est(a.diff))))),
      ex ? el("div", { id: "pz-explain" }, el("h2", {}, t("pz_deal")),
        ex.hands.map((h, s) => el("div", { "data-seat": s }, el("b", {}, d.seat(s), ": "), d.hand(h))),
        el("div", { class: "pz-lines" }, ex.lines.map((line) => puzzleLine(line, d))))
        : el("div", { class: "muted" }, t("pz_no_deal")),
      el("div", { class: "bar" }, el("button", { type: "button", class: "primary", id: "pz-next",
                                                 onclick: nextPuzzle }, t("pz_next"))));
  }

  async function start(init) {
    try {
      st.info = await api("GET", "/api/info");
    } catch (e) { showError(e.message); return; }
    await openPuzzle();
    let lang = null;
    try { lang = localStorage.getItem("xn-lang"); } catch (e) { /* private mode */ }
    st.lang = st.info.strings[lang] ? lang : st.info.lang;
    document.getElementById("lang-btn").addEventListener("click", () => {
      setLang(st.lang === "zh" ? "en" : "zh");
    });
    await init(st.info);
    setLang(st.lang);
    if (location.pathname.length > 1) {  // mounted in the app: a way back to its home page
      document.querySelector("header").prepend(el("a", { href: "../", id: "home-link" },
        "← xianniu"));
    }
    await openFromLibrary();
  }

  // "#hand=ID" in the address (the library's review link): that stored hand, loaded as a
  // record file would be, through the board's loader (onRecord).
  async function openFromLibrary() {
    const m = /^#hand=(\d+)$/.exec(location.hash);
    if (!m || !st.openRecord) return;
    try {
      await st.openRecord(await api("GET", `../api/library/hands/${m[1]}/record`));
    } catch (e) { showError(e.message); }
  }

  return {
    t, el, api, job, progressBar, download, showError, clearError, start, fmt, estimate,
    formOptions, renderForm, requestAdvice, choiceName, recordReview, reviewRows, enterHand,
    runReview, loadRecord, tableCall,
    onLang: (f) => st.onLang.push(f),
    onRecord: (f) => { st.openRecord = f; },
    // the board's drawers for a puzzle's verdict: {action(a, view), move(m, view),
    // hand(h, view), seat(s, view)} -> a node or words
    drawWith: (d) => { st.draw = d; },
    get lang() { return st.lang; },
    get info() { return st.info; },
  };
})();
