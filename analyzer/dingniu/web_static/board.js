"use strict";
// The board of dingniu (Chinese dominoes): my six tiles against three bots. Every word comes
// from XN.t; every action goes to the server, which checks it in the reference engine.
(() => {
  const { t, el } = XN;
  const KEY = "xn-dingniu-game";  // per tab: two tabs play two games
  const S = { sid: null, view: null, picked: null, adviceOn: false, adviceFor: -1,
              review: null, replay: null, frame: 0 };
  // pip positions on a 3 x 3 grid for 1-6
  const PIPS = { 1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8],
                 6: [0, 2, 3, 5, 6, 8] };

  function half(v) {
    const red = v === 1 || v === 4;
    return el("span", { class: `half${red ? " red" : ""}` },
      Array.from({ length: 9 }, (_, i) => el("i", { class: PIPS[v].includes(i) ? "pip" : "" })));
  }
  // A tile: its two halves of pips, and its name written under them.
  function tile(tl, opts = {}) {
    return el("span", { class: `tile piece${opts.small ? " small" : ""}`, "data-tile": tl.name,
                        title: t(`tile_${tl.name}`) }, half(tl.ends[0]), half(tl.ends[1]),
      el("span", { class: "tname" }, tl.name));
  }
  const tiles = (list, opts) => el("span", { class: "tiles" }, list.map((x) => tile(x, opts)));
  const role = (v, s) => (s === v.you ? `${t("you")} · ` : "") + t(`seat_${s}`);
  function moveNode(m, v) {
    const what = m.kind === "kou" ? t("mv_kou") : m.kind === "lead" ? t("mv_lead") : t("mv_play");
    return el("span", {}, el("b", {}, role(v, m.seat)), " ", what, " ",
      m.tile ? tiles(Array(m.n || 1).fill(m.tile), { small: true }) : "",
      m.kind === "play" ? ` ${t("on_end")} ${m.end}` : "");
  }
  function actionNode(a) {
    const what = a.kind === "kou" ? t("act_kou_btn") : a.kind === "lead" ? t("mv_lead") : `${t("on_end")} ${a.end}`;
    return el("span", { class: "action" }, tile(a.tile, { small: true }), " ", what);
  }

  function call(method, url, body) { return XN.tableCall(KEY, method, url, body); }
  async function newGame(options) {
    const data = await call("POST", "/api/games", { options });
    if (!data) return;
    S.sid = data.id;
    sessionStorage.setItem(KEY, S.sid);
    S.review = null;
    show(data.view);
  }
  async function act(a) {
    const view = await call("POST", `/api/games/${S.sid}/act`, { version: S.view.version, action: { id: a.id } });
    if (view) show(view);
  }
  function show(view) {
    S.view = view;
    S.picked = null;
    render();
    if (S.adviceOn) requestAdvice();
  }

  function seatBox(v, s) {
    return el("div", { class: `seat${v.to_act === s ? " active" : ""}`, "data-seat": s },
      el("div", { class: "name" }, role(v, s), ` (${t("bot")})`),
      el("div", {}, `${t("tiles_left")}: `, el("b", {}, v.left[s])),
      el("div", { class: "backs" }, Array.from({ length: v.left[s] }, () => el("span", { class: "tback" }))),
      el("div", {}, `${t("kou_count")}: `, el("b", { class: "kou", "data-seat": s }, v.n_kou[s])));
  }

  function meBox(v) {
    const usable = new Set(v.legal.map((a) => a.tile.name));
    const hand = el("div", { class: "hand", id: "hand" }, v.hand.map((tl, i) => {
      const node = tile(tl);
      node.dataset.index = i;
      if (usable.has(tl.name)) {
        node.classList.add("usable");
        node.addEventListener("click", () => { S.picked = tl.name; render(); });
      } else if (usable.size) node.classList.add("idle");
      if (S.picked === tl.name) node.classList.add("selected");
      return node;
    }));
    const options = v.legal.filter((a) => a.tile.name === S.picked);
    return el("div", { class: "me" },
      el("div", { class: "name" }, role(v, v.you), ` · ${t("kou_count")}: `,
        el("b", {}, v.n_kou[v.you]), ` (${v.my_kou_pips} ${t("pips")})`),
      hand,
      v.my_kou.length ? el("div", {}, `${t("my_kou")}: `, tiles(v.my_kou, { small: true })) : "",
      el("div", { class: "actions", id: "actions" },
        options.map((a) => el("button", { type: "button", class: "act primary", "data-id": a.id,
          onclick: () => act(a) }, actionNode(a))),
        el("label", { class: "toggle" }, el("input", { type: "checkbox", id: "advice-toggle",
          checked: S.adviceOn, onchange: (e) => { S.adviceOn = e.target.checked; render(); if (S.adviceOn) requestAdvice(); } }),
          " ", t("advice_on"))),
      v.legal.length ? el("div", { class: "muted" }, t("pick_tile")) : "");
  }

  function render() {
    const v = S.view;
    const board = document.getElementById("board");
    if (!v) { board.replaceChildren(); return; }
    board.dataset.turn = v.over ? "over" : v.to_act === v.you ? "me" : "bot";
    board.dataset.version = v.version;
    board.replaceChildren(
      el("div", { class: "felt" },
        el("div", { class: "opponents" }, [1, 2, 3].map((d) => seatBox(v, (v.you + d) % 4))),
        el("div", { class: "table" },
          el("div", { class: "ends", id: "ends" }, `${t("ends")}: `,
            v.ends ? el("b", {}, `${v.ends[0]} · ${v.ends[1]}`) : t("no_ends")),
          el("div", { class: "muted", id: "preset" }, `${t("rules")}: ${XN.choiceName("rules", v.rules)}`),
          el("div", {}, `${t("laid")}: `, tiles(v.laid, { small: true })),
          el("div", { class: "turn" }, v.over ? t("game_over") : v.to_act === v.you ? t("your_turn") : `${t("waiting")}…`)),
        meBox(v)),
      el("div", { class: "log" }, el("h2", {}, t("log")),
        el("ol", { id: "moves" }, v.moves.map((m) => el("li", {}, moveNode(m, v))))));
    renderAdvice();
    renderEnd();
  }

  const requestAdvice = () => XN.requestAdvice(S, renderAdvice);

  function renderAdvice() {
    const panel = document.getElementById("advice");
    const v = S.view;
    if (!S.adviceOn || !v || v.over) { if (S.adviceFor < 0) panel.hidden = true; return; }
    if (!v.advice) { if (S.adviceFor !== v.version) panel.replaceChildren(); return; }
    panel.hidden = false;
    panel.replaceChildren(el("h2", {}, t("advice")),
      el("table", { class: "data advice-table", "data-version": v.version },
        el("tr", {}, el("th", {}, t("advice")), el("th", {}, `${t("ev")} [${t("ci95")}]`)),
        v.advice.actions.map((r, i) => el("tr", { class: i === 0 ? "best" : "", "data-row": i },
          el("td", {}, actionNode(r.action), i === 0 ? " ✓" : ""),
          el("td", {}, XN.estimate(r.ev, r.ci95, r.n))))),
      el("div", { class: "muted" }, t(v.advice.separated ? "separated" : "not_separated")));
  }

  const lossText = (e) => XN.estimate(e.value, [e.low, e.high], e.n);

  function renderEnd() {
    const panel = document.getElementById("end");
    const v = S.view;
    if (!v || !v.over) { panel.hidden = true; return; }
    panel.hidden = false;
    const review = el("div", { id: "review" });
    if (S.review) {
      review.append(el("h2", {}, t("review")), el("table", { class: "data", id: "review-table" },
        el("tr", {}, el("th", {}, "#"), el("th", {}, t("your_action")), el("th", {}, t("best")),
          el("th", {}, t("lost"))),
        S.review.rows.map((r) => el("tr", {}, el("td", { class: "move-no" }, r.move), el("td", {}, actionNode(r.action)),
          el("td", {}, r.forced ? t("forced") : actionNode(r.best.action)),
          el("td", {}, r.forced || !r.lost ? "" : lossText(r.lost))))),
        el("div", {}, `${t("total_lost")}: `, el("b", {}, lossText(S.review.total_lost)),
          ` (${S.review.total_lost.n} ${t("decisions")})`));
    }
    panel.replaceChildren(
      el("h2", {}, `${t("game_over")} · ${t("hand_over_why")}: ${t(`end_${v.end}`)}`,
        v.suan_seat >= 0 ? ` (${t("suan_by")} ${role(v, v.suan_seat)})` : ""),
      el("table", { class: "data", id: "points" },
        el("tr", {}, el("th", {}, t("seat")), el("th", {}, t("totals")), el("th", {}, t("points"))),
        v.points.map((p, s) => el("tr", {}, el("td", {}, role(v, s)), el("td", {}, v.totals[s]),
          el("td", {}, XN.fmt(p, 0))))),
      el("div", {}, el("h2", {}, t("dealt")), v.dealt.map((h, s) => el("div", {}, el("b", {}, role(v, s)), " ",
        tiles(h, { small: true }), v.kou[s].length ? [` ${t("kou_count")}: `, tiles(v.kou[s], { small: true })] : ""))),
      el("div", { class: "bar" },
        el("button", { type: "button", id: "save-btn", onclick: saveRecord }, t("save_record")),
        el("button", { type: "button", id: "review-btn", class: "primary", disabled: !!S.review,
                       onclick: runReview }, t("review")),
        el("button", { type: "button", onclick: () => newGame(formOptions()) }, t("new_game"))),
      review);
  }

  async function saveRecord() {
    const rec = await call("GET", `/api/games/${S.sid}/record`);
    if (rec) XN.download(`dingniu-${S.view.seed}.json`, rec);
  }

  function runReview() { return XN.runReview(S, renderEnd); }

  function loadRecord(file) { return XN.loadRecord(S, file, call, renderTools); }

  function replayNode() {
    const r = S.replay;
    const f = r.frames[S.frame];
    const last = r.frames.length - 1;
    const v = { you: -1 };
    const nav = (label, to, id) => el("button", { type: "button", id, disabled: to < 0 || to > last || to === S.frame,
      onclick: () => { S.frame = to; renderTools(); } }, label);
    return el("div", { id: "replay" },
      el("div", { class: "bar" }, nav(t("first"), 0, "rp-first"), nav(t("prev"), S.frame - 1, "rp-prev"),
        el("span", { id: "rp-pos" }, `${t("step")} ${S.frame} / ${last}`),
        nav(t("next"), S.frame + 1, "rp-next"), nav(t("last"), last, "rp-last")),
      f.move ? el("div", { class: "rp-move" }, moveNode(f.move, v)) : el("div", { class: "muted" }, t("start")),
      el("div", {}, `${t("ends")}: `, f.ends ? `${f.ends[0]} · ${f.ends[1]}` : t("no_ends")),
      f.hands.map((h, s) => el("div", { class: f.to_act === s ? "rp-hand active" : "rp-hand" },
        el("b", {}, t(`seat_${s}`)), " ", tiles(h, { small: true }),
        f.kou[s].length ? [` ${t("kou_count")}: `, tiles(f.kou[s], { small: true })] : "")),
      S.frame === last && r.over ? el("div", { class: "settlement" }, `${t("points")}: `,
        r.points.map((p, s) => `${t(`seat_${s}`)} ${XN.fmt(p, 0)}`).join(" · ")) : "");
  }

  function renderTools() {
    document.getElementById("tools").replaceChildren(
      el("div", {}, el("h2", {}, t("load_record")),
        el("input", { type: "file", id: "load-file", accept: ".json,application/json",
                      onchange: (e) => e.target.files[0] && loadRecord(e.target.files[0]) }),
        S.replay ? replayNode() : "",
        S.replay ? XN.recordReview(S, 4, renderTools) : "",
        XN.enterHand(S, 4, renderTools, "game dingniu\nrules seed\nhand 0 \nhand 1 \nhand 2 \nhand 3 \nactions\n")));
  }

  const formOptions = XN.formOptions;
  const renderForm = (info) => XN.renderForm(info, newGame);

  XN.onRecord(loadRecord);
  XN.drawWith({ action: actionNode, move: moveNode, hand: (h) => tiles(h, { small: true }),
                seat: (s, v) => role(v, s) });
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
