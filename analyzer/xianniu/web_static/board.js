"use strict";
// The board of xianniu (Lanzhou): my hand against two bots. Every word comes from XN.t (both languages);
// every action goes to the server, which checks it in the reference engine.
(() => {
  const { t, el } = XN;
  const KEY = "xn-xianniu-game";  // per tab: two tabs play two games
  const S = { sid: null, view: null, selected: new Set(), adviceOn: false, adviceFor: -1,
              review: null, replay: null, frame: 0, query: null };

  // -- cards and words ---------------------------------------------------------------
  function card(c, opts = {}) {
    const suit = c.slice(-1), rank = c.slice(0, -1);
    const red = suit === "♥" || suit === "♦";
    return el("span", { class: `card piece${red ? " red" : ""}${opts.small ? " small" : ""}`,
                        "data-card": c, title: c },
      el("span", { class: "rank" }, rank), el("span", { class: "suit" }, suit));
  }
  const cards = (list, opts) => el("span", { class: "cards" }, list.map((c) => card(c, opts)));
  const role = (v, s) => (s === v.you ? `${t("you")} · ` : "") + t(`role_${v.roles[s]}`);
  function kindName(p) {  // the combination some cards make
    if (!p.combo) return "";
    return p.combo === "set" ? t(`k_set${p.size}`) : t(`k_${p.combo}`);
  }
  function moveWords(m, v) {
    switch (m.kind) {
      case "play":
        return t(m.phase === "qiangci" ? "mv_qiangci" : m.phase === "lead" ? "mv_lead" : "mv_beat");
      case "pass": return t(m.phase === "qiangci" ? "mv_pass_qiangci" : "mv_pass");
      case "kou": return t(m.phase === "lead" ? "mv_kou_ask" : "mv_kou_agree");
      case "xian": return `${t("mv_xian")} → ${role(v, m.target)}`;
      case "tighten": return t("mv_tighten");
      default: return t("mv_discard");
    }
  }
  function actionNode(a) {  // an action of mine: words and cards
    const name = a.kind === "play" ? `${t("act_play")} ${kindName(a)}` : t(`act_${a.kind}`);
    return el("span", { class: "action" }, name, " ", a.cards.length ? cards(a.cards, { small: true }) : "");
  }

  // -- server calls ------------------------------------------------------------------
  function call(method, url, body) { return XN.tableCall(KEY, method, url, body); }

  async function newGame(options) {
    const data = await call("POST", "/api/games", { options });
    if (!data) return;
    S.sid = data.id;
    sessionStorage.setItem(KEY, S.sid);
    S.review = null;
    show(data.view);
  }

  async function act(action) {
    const view = await call("POST", `/api/games/${S.sid}/act`, { version: S.view.version, action });
    if (view) show(view);
  }

  function show(view) {
    S.view = view;
    S.selected.clear();
    render();
    if (S.adviceOn) requestAdvice();
  }

  // -- the board ---------------------------------------------------------------------
  function seatBox(v, s) {
    const active = v.to_act === s;
    const backs = el("span", { class: "backs" },
      Array.from({ length: v.counts[s] }, () => el("span", { class: "back" })));
    return el("div", { class: `seat${active ? " active" : ""}`, "data-seat": s },
      el("div", { class: "name" }, role(v, s), s !== v.you ? ` (${t("bot")})` : ""),
      el("div", { class: "line" }, `${t("cards_left")}: `, el("b", { class: "count" }, v.counts[s])),
      s !== v.you ? backs : "",
      el("div", { class: "line" }, `${t("captured")}: `,
        el("b", { class: "captured", "data-seat": s }, v.captured[s])),
      el("div", { class: "caps" }, v.captured_plays[s].map((p) => cards(p.cards, { small: true }))));
  }

  function tableBox(v) {
    const top = v.top
      ? el("div", { class: "top" }, el("div", { class: "muted" },
          `${t("top")} · ${kindName(v.top)} · ${t("owner")} ${role(v, v.top.owner)}`), cards(v.top.cards))
      : el("div", { class: "top muted" }, "—");
    return el("div", { class: "table" },
      el("div", { class: "line" }, `${t("table_cards")}: ${v.table} / ${v.table_cap}`,
        ` · ${t(`ph_${v.phase}`)} · `, el("span", { id: "preset" }, XN.choiceName("rules", v.rules))),
      top,
      el("div", { class: "turn", id: "turn" },
        v.over ? t("game_over") : v.to_act === v.you ? t("your_turn") : `${t("waiting")}…`));
  }

  function logBox(v) {
    return el("div", { class: "log" }, el("h2", {}, t("log")),
      el("ol", { id: "moves" }, v.moves.map((m) => el("li", { "data-seat": m.seat },
        el("b", {}, role(v, m.seat)), " ", moveWords(m, v), " ",
        m.kind === "play" ? kindName(m) : "", " ",
        m.cards.length ? cards(m.cards, { small: true }) : ""))));
  }

  function legalOf(kind) { return S.view.legal.filter((a) => a.kind === kind); }
  const key = (list) => [...list].sort().join(" ");

  function matching() {  // the legal play or discard equal to the selection
    const sel = key(S.selected);
    return S.view.legal.find((a) => a.cards.length && key(a.cards) === sel) || null;
  }

  function handBox(v) {
    const usable = new Set(v.legal.flatMap((a) => a.cards));
    const hand = el("div", { class: "hand", id: "hand" }, v.hand.map((c) => {
      const node = card(c);
      if (usable.has(c)) {
        node.classList.add("usable");
        node.tabIndex = 0;
        node.addEventListener("click", () => {
          if (S.selected.has(c)) S.selected.delete(c); else S.selected.add(c);
          render();
        });
      } else if (usable.size) node.classList.add("idle");
      if (S.selected.has(c)) node.classList.add("selected");
      return node;
    }));
    const chosen = matching();
    const buttons = [];
    for (const kind of ["kou", "xian", "pass", "tighten"]) {
      if (legalOf(kind).length) {
        buttons.push(el("button", { type: "button", class: "act", "data-kind": kind,
                                    onclick: () => act({ kind, cards: [] }) }, t(`act_${kind}`)));
      }
    }
    for (const kind of ["play", "discard"]) {
      if (legalOf(kind).length) {
        const ok = chosen && chosen.kind === kind;
        buttons.push(el("button", { type: "button", class: "act primary", id: `${kind}-btn`,
          "data-kind": kind, disabled: !ok,
          onclick: () => act({ kind, cards: [...S.selected] }) },
          t(`act_${kind}`), ok && kind === "play" ? ` ${kindName(chosen)}` : ""));
      }
    }
    const plays = legalOf("play").filter((a) => [...S.selected].every((c) => a.cards.includes(c)));
    const chips = plays.slice(0, 40).map((a) => el("button", {
      type: "button", class: "legal-play", "data-cards": a.cards.join(" "),
      onclick: () => { S.selected = new Set(a.cards); render(); } }, kindName(a), " ",
      cards(a.cards, { small: true })));
    return el("div", { class: "me" },
      el("div", { class: "name" }, role(v, v.you), ` · ${t("captured")}: `,
        el("b", { class: "captured", "data-seat": v.you }, v.captured[v.you])),
      hand,
      v.my_discards.length ? el("div", { class: "muted" }, `${t("my_discards")}: `, cards(v.my_discards, { small: true })) : "",
      el("div", { class: "actions", id: "actions" }, buttons,
        el("label", { class: "toggle" }, el("input", { type: "checkbox", id: "advice-toggle",
          checked: S.adviceOn, onchange: (e) => { S.adviceOn = e.target.checked; render(); if (S.adviceOn) requestAdvice(); } }),
          " ", t("advice_on"))),
      plays.length ? el("div", { class: "chips" }, el("span", { class: "muted" }, `${t("legal_plays")} (${plays.length}):`), chips) : "",
      v.legal.length ? el("div", { class: "muted" }, t("select_hint")) : "");
  }

  function render() {
    const v = S.view;
    const board = document.getElementById("board");
    if (!v) { board.replaceChildren(); return; }
    const others = [1, 2].map((d) => (v.you + d) % 3);
    board.dataset.turn = v.over ? "over" : v.to_act === v.you ? "me" : "bot";
    board.dataset.version = v.version;
    board.dataset.legal = v.legal.length;
    board.replaceChildren(
      el("div", { class: "felt" },
        el("div", { class: "opponents" }, others.map((s) => seatBox(v, s))),
        tableBox(v), handBox(v)),
      logBox(v));
    renderAdvice();
    renderEnd();
  }

  // -- advice ------------------------------------------------------------------------------
  const requestAdvice = () => XN.requestAdvice(S, renderAdvice);

  function adviceTable(adv, version) {
    return el("table", { class: "data advice-table", "data-version": version },
      el("tr", {}, el("th", {}, t("advice")), el("th", {}, `${t("ev")} [${t("ci95")}]`)),
      adv.actions.map((r, i) => el("tr", { class: i === 0 ? "best" : "", "data-row": i },
        el("td", {}, actionNode(r.action), i === 0 ? " ✓" : ""),
        el("td", {}, adv.forced ? t("forced") : XN.estimate(r.ev, r.ci95, r.n)))));
  }

  function renderAdvice() {
    const panel = document.getElementById("advice");
    const v = S.view;
    if (!S.adviceOn || !v || v.over) { if (S.adviceFor < 0) panel.hidden = true; return; }
    if (!v.advice) {  // being computed (the progress bar stays), or not yet asked
      if (S.adviceFor !== v.version) panel.replaceChildren();
      return;
    }
    panel.hidden = false;
    panel.replaceChildren(el("h2", {}, t("advice")), adviceTable(v.advice, v.version),
      el("div", { class: "muted" }, t(v.advice.separated ? "separated" : "not_separated")));
  }

  // -- the end: settlement, record, review ------------------------------------------------
  // The settlement in the page's words and seat names: each seat's tally, who pays whom, why.
  function settlementNode(sett, roles, v) {
    const name = (s) => (v ? role(v, s) : t(`role_${roles[s]}`));
    const pays = sett.payments.length
      ? sett.payments.map((p) => el("li", {}, `${name(p.payer)} ${t("pays")} ${name(p.payee)} `,
          el("b", {}, p.amount), ` ${t("points_unit")} · ${t("pay_for")} ${t(`r_${p.reason}`)}`))
      : [el("li", {}, t("nobody_pays"))];
    return el("div", { class: "settlement" },
      el("table", { class: "data", id: "points" },
        el("tr", {}, el("th", {}, t("seat")), el("th", {}, t("captured")),
          el("th", {}, t("col_niu")), el("th", {}, t("col_xi")), el("th", {}, t("col_liang")),
          el("th", {}, t("col_ci")), el("th", {}, t("points"))),
        sett.tallies.map((tl, s) => el("tr", {}, el("td", {}, name(s)),
          el("td", {}, `${tl.captured} (${t(tl.gou ? "gou" : "not_gou")}${tl.ci ? ` · ${t("ci_flag")}` : ""})`),
          [tl.niu, tl.xi, tl.liang, tl.ci_points].map((x) => el("td", {}, x)),
          el("td", { class: "pts" }, XN.fmt(sett.points[s], 0))))),
      el("ul", { id: "payments" }, pays));
  }

  function renderEnd() {
    const panel = document.getElementById("end");
    const v = S.view;
    if (!v || !v.over) { panel.hidden = true; return; }
    panel.hidden = false;
    const review = el("div", { id: "review" });
    if (S.review) review.append(reviewTable(S.review));
    panel.replaceChildren(
      el("h2", {}, `${t("game_over")} · ${t("hand_over_why")}: ${t(`end_${v.end}`)}`),
      settlementNode(v.settlement, v.roles, v),
      el("div", { class: "dealt" }, el("h2", {}, t("dealt")),
        v.dealt.map((h, s) => el("div", {}, el("b", {}, role(v, s)), " ", cards(h, { small: true })))),
      el("div", { class: "bar" },
        el("button", { type: "button", id: "save-btn", onclick: saveRecord }, t("save_record")),
        el("button", { type: "button", id: "review-btn", class: "primary", onclick: runReview,
                       disabled: !!S.review }, t("review")),
        el("button", { type: "button", onclick: () => newGame(formOptions()) }, t("new_game"))),
      review);
  }

  async function saveRecord() {
    const rec = await call("GET", `/api/games/${S.sid}/record`);
    if (rec) XN.download(`xianniu-${S.view.seed}.json`, rec);
  }

  function runReview() { return XN.runReview(S, renderEnd); }

  const lossText = (e) => XN.estimate(e.value, [e.low, e.high], e.n);

  function reviewTable(rv) {
    return el("div", {}, el("h2", {}, t("review")),
      el("table", { class: "data", id: "review-table" },
        el("tr", {}, el("th", {}, "#"), el("th", {}, t("your_action")),
          el("th", {}, `${t("ev")} [${t("ci95")}]`), el("th", {}, t("best")),
          el("th", {}, `${t("ev")} [${t("ci95")}]`), el("th", {}, t("lost"))),
        rv.rows.map((r) => el("tr", { class: r.lost && r.lost.low > 0 ? "lost" : "" },
          el("td", { class: "move-no" }, r.move), el("td", {}, actionNode(r.action)),
          el("td", {}, r.forced ? t("forced") : r.mine ? XN.estimate(r.mine.ev, r.mine.ci95, r.mine.n) : "—"),
          el("td", {}, r.forced ? "" : actionNode(r.best.action)),
          el("td", {}, r.forced ? "" : XN.estimate(r.best.ev, r.best.ci95, r.best.n)),
          el("td", { class: "lost-cell" }, r.forced || !r.lost ? "" : lossText(r.lost))))),
      el("div", {}, `${t("total_lost")}: `, el("b", { id: "total-lost" }, lossText(rv.total_lost)),
        ` (${rv.total_lost.n} ${t("decisions")})`));
  }

  // -- tools: a record move by move, and the should-xian / should-kou form --------------
  function loadRecord(file) { return XN.loadRecord(S, file, call, renderTools); }

  function replayNode() {
    const r = S.replay;
    const f = r.frames[S.frame];
    const name = (s) => t(`role_${r.roles[s]}`);
    const nav = (label, to, id) => el("button", { type: "button", id, disabled: to < 0 || to >= r.frames.length || to === S.frame,
      onclick: () => { S.frame = to; renderTools(); } }, label);
    const last = r.frames.length - 1;
    return el("div", { id: "replay" },
      el("div", { class: "bar" }, nav(t("first"), 0, "rp-first"), nav(t("prev"), S.frame - 1, "rp-prev"),
        el("span", { id: "rp-pos" }, `${t("step")} ${S.frame} / ${last}`),
        nav(t("next"), S.frame + 1, "rp-next"), nav(t("last"), last, "rp-last")),
      f.move ? el("div", { class: "rp-move" }, el("b", {}, name(f.move.seat)), " ",
        moveWords(f.move, { roles: r.roles, you: -1 }), " ", f.move.kind === "play" ? kindName(f.move) : "", " ",
        cards(f.move.cards, { small: true })) : el("div", { class: "muted" }, t("start")),
      f.hands.map((h, s) => el("div", { class: f.to_act === s ? "rp-hand active" : "rp-hand" },
        el("b", {}, name(s)), ` · ${t("captured")} ${f.captured[s]} `, cards(h, { small: true }))),
      S.frame === last && r.over ? settlementNode(r.settlement, r.roles, null) : "");
  }

  async function ask(e) {
    e.preventDefault();
    const kind = document.getElementById("q-kind").value;
    const body = { hand: document.getElementById("q-hand").value, rules: formOptions().rules,
                   seat: Number(document.getElementById("q-seat").value) };
    const out = document.getElementById("q-result");
    const bar = XN.progressBar();
    out.replaceChildren(bar.node);
    try {
      S.query = await XN.job(`/api/queries/${kind}`, body, bar);
      renderTools();
    } catch (err) { XN.showError(err.message); out.replaceChildren(); }
  }

  function queryResult(d) {
    const [a, b] = d.actions;
    const est = (e) => XN.estimate(e.value, [e.low, e.high], e.n);
    return el("table", { class: "data" },
      el("tr", {}, el("td", {}, t(`ev_${a}`)), el("td", {}, est(d[`ev_${a}`]))),
      el("tr", {}, el("td", {}, t(`ev_${b}`)), el("td", {}, est(d[`ev_${b}`]))),
      el("tr", {}, el("td", {}, t("diff")), el("td", {}, est(d.diff))),
      el("tr", { class: "best" }, el("td", {}, t("recommend")),
        el("td", { id: "q-rec" }, d.recommendation === "close" ? t("close") : t(`act_${d.recommendation === "lead" ? "play" : d.recommendation}`))));
  }

  function renderTools() {
    const panel = document.getElementById("tools");
    const seatSel = el("select", { id: "q-seat" }, [1, 2].map((s) => el("option", { value: s }, s)));
    const kindSel = el("select", { id: "q-kind" }, ["should_xian", "should_kou"].map(
      (k) => el("option", { value: k }, t(k))));
    const prevHand = document.getElementById("q-hand");
    const hand = el("input", { id: "q-hand", size: 52, placeholder: "As Ah 2s 3c 5d 6s 7h 8c 9d 10s Js Qh Kc Kd 9s 9h" });
    if (prevHand) hand.value = prevHand.value;
    panel.replaceChildren(
      el("div", {}, el("h2", {}, t("load_record")),
        el("input", { type: "file", id: "load-file", accept: ".json,application/json",
                      onchange: (e) => e.target.files[0] && loadRecord(e.target.files[0]) }),
        S.replay ? replayNode() : "",
        S.replay ? XN.recordReview(S, 3, renderTools) : "",
        XN.enterHand(S, 3, renderTools, "game xianniu\nrules lanzhou\nbanker 0\nhand 0 \nhand 1 \nhand 2 \nactions\n")),
      el("form", { id: "query-form", onsubmit: ask }, el("h2", {}, t("query")),
        el("div", { class: "bar" }, kindSel, el("label", {}, `${t("answer_seat")} `, seatSel),
          el("label", {}, `${t("hand_16")} `, hand),
          el("button", { type: "submit", id: "q-ask" }, t("ask"))),
        el("div", { id: "q-result" }, S.query ? queryResult(S.query) : "")));
  }

  const formOptions = XN.formOptions;
  const renderForm = (info) => XN.renderForm(info, newGame);

  XN.onRecord(loadRecord);
  XN.drawWith({
    action: actionNode,
    move: (m, v) => el("span", {}, el("b", {}, role(v, m.seat)), " ", moveWords(m, v), " ",
      m.kind === "play" ? kindName(m) : "", " ", m.cards.length ? cards(m.cards, { small: true }) : ""),
    hand: (h) => cards(h, { small: true }),
    seat: (s, v) => role(v, s),
  });
  XN.start(async (info) => {
    XN.onLang(() => { renderForm(info); render(); renderTools(); });
    renderForm(info);
    const sid = sessionStorage.getItem(KEY);
    if (sid) {
      const view = await call("GET", `/api/games/${sid}`);
      if (view) { S.sid = sid; show(view); return; }
    }
    await newGame(formOptions());
  });
})();
