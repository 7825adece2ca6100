"use strict";
// The board of shuangsheng (tractor): me (seat 0) and my bot partner (seat 2) against two bots. Every word
// comes from XN.t; every action goes to the server, which checks it in the reference engine
// and answers a refused one with the engine's reason.
(() => {
  const { t, el } = XN;
  const KEY = "xn-shengji-game";  // per tab: two tabs play two games
  const S = { sid: null, view: null, picked: new Set(), adviceOn: false, adviceFor: -1,
              review: null, replay: null, frame: 0, refused: null };
  const RED = new Set(["♥", "♦"]);

  // A card: "10♥", "A♠" or a joker by its name -> its rank and suit drawn; trumps tinted.
  // (the jokers come by their names, as t("card_big") and t("card_small") write them, with
  // no suit sign)
  const SUITS = "♠♥♣♦";
  function parts(name) {
    if (!SUITS.includes(name.slice(-1))) return { rank: name, suit: "", joker: true };
    return { rank: name.slice(0, -1), suit: name.slice(-1), joker: false };
  }
  function isTrump(name, v) {
    if (!v || !v.trump) return false;
    const p = parts(name);
    return p.joker || p.rank === v.level || p.suit === v.trump;
  }
  function card(name, v, opts = {}) {
    const p = parts(name);
    const red = p.joker ? name === t("card_big") : RED.has(p.suit);
    const cls = ["card", "piece", red ? "red" : "black", isTrump(name, v) ? "trump" : "",
                 opts.small ? "small" : "", p.joker ? "joker" : ""].filter(Boolean).join(" ");
    return el("span", { class: cls, "data-card": name, title: name },
      el("span", { class: "rank" }, p.rank), p.suit ? el("span", { class: "suit" }, p.suit) : "");
  }
  const cards = (list, v, opts) => el("span", { class: "cards" },
    (list || []).map((c) => card(c, v, { small: true, ...opts })));
  // seats are named from the seat at the keyboard (a puzzle may put it in any seat)
  const seatName = (s) => t(`seat_${(s - ((S.view && S.view.you) || 0) + 4) % 4}`);
  const rankOf = (n) => ({ 11: "J", 12: "Q", 13: "K", 14: "A" })[n] || String(n);  // a level
  const team = (v, s) => (v.banker === null || v.banker === undefined ? ""
    : (s % 2 === v.banker % 2 ? t("banker_side") : t("attackers")));

  function moveNode(m, v) {
    const what = m.failed ? t("throw") : m.kind === "declare" && m.phase === "bajiwo"
      ? t("ph_bajiwo") : t(`mv_${m.kind}`);
    return el("span", { class: `mv mv-${m.kind}` }, el("b", {}, seatName(m.seat)), " ", what, " ",
      m.kind === "bury" && !m.cards.length
        ? el("span", { class: "backs" }, Array.from({ length: 8 }, () => el("span", { class: "back" })))
        : cards(m.cards, v),
      m.failed ? [" — ", t("mv_failed"), " ", cards(m.led, v)] : "",
      m.won_by !== undefined && m.won_by !== null
        ? el("span", { class: "won" }, ` → ${t("won_by")} ${seatName(m.won_by)} (+${m.points})`) : "");
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
  async function act(action) {
    S.refused = null;
    try {
      const view = await XN.api("POST", `/api/games/${S.sid}/act`, { version: S.view.version, action });
      XN.clearError();
      if (action.kind === "next_hand") S.review = null;
      show(view);
    } catch (e) {
      // a refused play: the engine's reason, shown beside the hand; the hand is unchanged
      if (e.status === 400) { S.refused = e.message; XN.clearError(); } else XN.showError(e.message);
      render();
    }
  }
  function show(view) {
    S.view = view;
    S.picked = new Set();
    render();
    if (S.adviceOn) requestAdvice();
  }

  function trickOf(v) {
    const n = v.tricks.length;
    if (!n) return { cur: null, last: null };
    const cur = v.tricks[n - 1];
    const curDone = cur.plays.length === 4;
    return { cur: curDone && !v.over ? null : cur, last: curDone && !v.over ? cur : (n > 1 ? v.tricks[n - 2] : null) };
  }

  function seatBox(v, s, where) {
    const { cur } = trickOf(v);
    const play = cur ? cur.plays.find((p) => p.seat === s) : null;
    const decl = v.standing && v.standing.seat === s;
    return el("div", { class: `seat ${where}${v.to_act === s ? " active" : ""}`, "data-seat": s },
      el("div", { class: "name" }, seatName(s), v.banker === s ? el("span", { class: "badge" }, t("banker")) : "",
        el("span", { class: "muted" }, ` ${team(v, s)}`)),
      el("div", { class: "count" }, `${v.hand_sizes[s]} ${t("cards_left")}`),
      v.known[s] && v.known[s].length ? el("div", { class: "shown" }, `${t("shown")}: `, cards(v.known[s], v)) : "",
      decl ? el("div", { class: "decl" }, `${t("standing")}: `, cards(v.standing.cards, v)) : "",
      el("div", { class: "played", "data-played": s }, play ? cards(play.cards, v) : ""));
  }

  function status(v) {
    const us = v.levels[v.you % 2], them = v.levels[1 - (v.you % 2)];
    const trump = v.trump === null ? t("unknown") : v.trump === "NT" ? t("nt") : v.trump;
    return el("div", { class: "status", id: "status" },
      el("span", { id: "hand-no" }, ...t("hand_no").split("{n}").flatMap((w, i) => (i ? [el("b", {}, v.hand_no), w] : [w]))),
      el("span", {}, `${t("levels")}: ${t("team_us")} `, el("b", { id: "lv-us" }, us), ` · ${t("team_them")} `, el("b", { id: "lv-them" }, them)),
      el("span", {}, `${t("level")}: `, el("b", { id: "level" }, v.level ?? (v.grab ? t("grab") : "—"))),
      el("span", {}, `${t("trump")}: `, el("b", { id: "trump", class: v.trump && RED.has(v.trump) ? "red" : "" }, trump)),
      el("span", {}, `${t("banker")}: `, el("b", { id: "banker" }, v.banker === null ? (v.grab ? t("grab") : "—") : seatName(v.banker))),
      el("span", {}, `${t("attacker_points")}: `, el("b", { id: "points" }, v.attacker_points)),
      el("span", { class: "phase" }, t(`ph_${v.phase}`)),
      v.random_trump_card ? el("span", {}, `${t("random_trump")}: `, cards([v.random_trump_card], v)) : "");
  }

  function center(v) {
    const { cur, last } = trickOf(v);
    const lastNode = last ? el("div", { class: "last-trick", id: "last-trick" }, `${t("last_trick")}: `,
      last.plays.map((p) => el("span", { class: "lt" }, `${seatName(p.seat)} `, cards(p.cards, v))),
      last.winner !== undefined && last.winner !== null ? ` · ${t("won_by")} ${seatName(last.winner)} (+${last.points})` : "") : "";
    return el("div", { class: "center" },
      el("div", { class: "turn" }, v.over ? t("game_over") : v.to_act === v.you ? t("your_turn") : `${t("waiting")}…`),
      cur && cur.plays.length ? el("div", { class: "muted" }, `${t("trick")} (${v.tricks.length})`) : "",
      lastNode,
      v.failed_throws.length ? el("div", { class: "muted" }, `${t("failed_throws")}: `,
        v.failed_throws.map((f) => el("span", {}, `${seatName(f.seat)} `, cards(f.tried, v), " → ", cards(f.led, v), " "))) : "");
  }

  // pass and declare say what they are in each phase (no rebel, no bajiwo overcall ...)
  function actLabel(kind, phase) {
    if (kind === "pass") return t(`pass_${phase}`);
    if (kind === "declare" && phase === "bajiwo") return t("ph_bajiwo");
    return t(`act_${kind}`);
  }

  function meBox(v) {
    const sel = v.select;
    const hand = el("div", { class: "hand", id: "hand" }, v.hand.map((name, i) => {
      const node = card(name, v);
      node.dataset.index = i;
      if (sel) {
        node.classList.add("usable");
        node.addEventListener("click", () => {
          if (S.picked.has(i)) S.picked.delete(i); else S.picked.add(i);
          S.refused = null;
          render();
        });
      }
      if (S.picked.has(i)) node.classList.add("selected");
      return node;
    }));
    const picked = [...S.picked].sort((a, b) => a - b).map((i) => v.hand[i]);
    let hint = "", buttons = [];
    if (sel && sel.kind === "bury") {
      hint = t("select_bury");
      buttons = [el("button", { type: "button", class: "act primary", id: "bury-btn", disabled: picked.length !== sel.count,
        onclick: () => act({ kind: "bury", cards: picked }) }, `${t("act_bury")} (${picked.length}/${sel.count})`)];
    } else if (sel && sel.kind === "play") {
      hint = sel.lead ? t("select_play") : t("select_follow").replace("{n}", sel.count);
      buttons = [el("button", { type: "button", class: "act primary", id: "play-btn", disabled: !picked.length,
        onclick: () => act({ kind: "play", cards: picked }) }, `${t("act_play")} (${picked.length})`)];
    }
    if (sel) buttons.push(el("button", { type: "button", id: "clear-btn", onclick: () => { S.picked = new Set(); render(); } }, t("clear")));
    const listed = (v.legal || []).map((a, i) => el("button", { type: "button", class: `act${a.kind === "pass" ? "" : " primary"}`,
      "data-kind": a.kind, "data-i": i, onclick: () => act({ kind: a.kind, cards: a.cards }) },
      actLabel(a.kind, v.phase), a.cards.length ? [" ", cards(a.cards, v)] : ""));
    return el("div", { class: "me" },
      el("div", { class: "name" }, seatName(v.you), v.banker === v.you ? el("span", { class: "badge" }, t("banker")) : "",
        el("span", { class: "muted" }, ` ${team(v, v.you)}`),
        v.kitty ? el("span", { class: "my-kitty", id: "my-kitty" },
          ` · ${v.phase === "bury" ? t("kitty_taken") : t("my_kitty")}: `, cards(v.kitty, v)) : ""),
      hand,
      el("div", { class: "actions", id: "actions" }, listed, buttons,
        el("label", { class: "toggle" }, el("input", { type: "checkbox", id: "advice-toggle",
          checked: S.adviceOn, onchange: (e) => { S.adviceOn = e.target.checked; render(); if (S.adviceOn) requestAdvice(); } }),
          " ", t("advice_on"))),
      hint ? el("div", { class: "muted", id: "hint" }, hint, picked.length ? ` · ${t("selected")}: ${picked.join(" ")}` : "") : "",
      S.refused ? el("div", { class: "refused", id: "refused", role: "alert" }, S.refused) : "");
  }

  function render() {
    const v = S.view;
    const board = document.getElementById("board");
    if (!v) { board.replaceChildren(); return; }
    board.dataset.turn = v.over ? "over" : v.to_act === v.you ? "me" : "bot";
    board.dataset.version = v.version;
    board.dataset.phase = v.phase;
    board.replaceChildren(
      el("div", { class: "felt" },
        status(v),
        el("div", { class: "ring" },
          seatBox(v, (v.you + 2) % 4, "top"), seatBox(v, (v.you + 3) % 4, "left"), center(v),
          seatBox(v, (v.you + 1) % 4, "right"),
          el("div", { class: "bottom played", "data-played": v.you }, (() => {
            const { cur } = trickOf(v);
            const mine = cur ? cur.plays.find((p) => p.seat === v.you) : null;
            return mine ? cards(mine.cards, v) : "";
          })())),
        meBox(v),
        el("div", { class: "muted note" }, `${t("bots_play")}: ${v.opponents} — ${t(`policy_note_${v.opponents}`)} · ${t("rules")}: ${XN.choiceName("rules", v.rules)}`)),
      el("div", { class: "log" }, el("h2", {}, t("log")),
        el("ol", { id: "moves" }, v.moves.map((m) => el("li", {}, moveNode(m, v))))));
    const log = board.querySelector(".log");
    log.scrollTop = log.scrollHeight;
    renderAdvice();
    renderEnd();
  }

  const requestAdvice = () => XN.requestAdvice(S, renderAdvice);
  const est = (e) => XN.estimate(e.value, [e.low, e.high], e.n);

  function renderAdvice() {
    const panel = document.getElementById("advice");
    const v = S.view;
    if (!S.adviceOn || !v || v.over) { if (S.adviceFor < 0) panel.hidden = true; return; }
    if (!v.advice) { if (S.adviceFor !== v.version) panel.replaceChildren(); return; }
    const a = v.advice;
    panel.hidden = false;
    const q = a.question;
    panel.replaceChildren(el("h2", {}, t("advice"), el("span", { class: "muted" }, ` (${t("levels_unit")}; ${a.policy}, ${a.deals} ${t("deals")})`)),
      q ? el("div", { id: "advice-question" }, `${t(`a_${q.question}`)}: `, el("b", {}, t(`a_${q.answer}`)),
        ` · ${t("yes_less_no")} ${est(q.yes_less_no)}`) : "",
      el("table", { class: "data advice-table", "data-version": v.version },
        el("tr", {}, el("th", {}, t("advice")), el("th", {}, `${t("ev")} [${t("ci95")}]`), el("th", {}, t("lost"))),
        a.actions.map((r, i) => el("tr", { class: `${i === 0 ? "best" : ""}${v.select ? " pickable" : ""}`, "data-row": i,
          onclick: v.select ? () => pickCards(r.action.cards) : null },
          el("td", {}, actLabel(r.action.kind, v.phase), " ", cards(r.action.cards, v), r.label ? ` (${t(r.label)})` : "", i === 0 ? " ✓" : ""),
          el("td", {}, XN.estimate(r.ev, r.ci95, r.n)),
          el("td", {}, i === 0 ? "" : est(r.diff))))),
      el("div", { class: "muted" }, t(a.separated ? "separated" : "not_separated")));
  }

  // Select the cards of an advised play or bury in my hand (the play is still mine to send).
  function pickCards(names) {
    const hand = S.view.hand;
    S.picked = new Set();
    for (const name of names) {
      const i = hand.findIndex((c, k) => c === name && !S.picked.has(k));
      if (i >= 0) S.picked.add(i);
    }
    S.refused = null;
    render();
  }

  function renderEnd() {
    const panel = document.getElementById("end");
    const v = S.view;
    if (!v || !v.over) { panel.hidden = true; return; }
    const e = v.end;
    panel.hidden = false;
    const review = el("div", { id: "review" });
    if (S.review) review.append(el("h2", {}, t("review")), XN.reviewRows(S.review, "end-"));
    panel.replaceChildren(
      el("h2", {}, `${t("game_over")} · ${t("settlement")}`),
      el("table", { class: "data", id: "settlement" },
        el("tr", {}, el("th", {}, t("attacker_points")), el("td", { id: "end-points" }, e.attacker_points)),
        el("tr", {}, el("th", {}, t("kitty")), el("td", {}, cards(e.kitty, v), ` ${t("kitty_points")} ${e.kitty_points}`)),
        el("tr", {}, el("th", {}, t("multiplier")), el("td", {}, e.multiplier ? `×${e.multiplier}` : "—")),
        e.penalties ? el("tr", {}, el("th", {}, t("penalties")), el("td", {}, e.penalties)) : "",
        el("tr", {}, el("th", {}, t("winner")), el("td", { id: "end-winner" }, `${t(`w_${e.winner}`)} (${e.winner_team === 0 ? t("team_us") : t("team_them")}) +${e.gain} ${t("levels_unit")}`)),
        el("tr", {}, el("th", {}, t("levels_after")), el("td", { id: "end-levels" }, `${t("team_us")} ${rankOf(e.levels_after[0])} · ${t("team_them")} ${rankOf(e.levels_after[1])}`)),
        el("tr", {}, el("th", {}, t("next_banker")), el("td", {}, e.match_won ? t("match_won") : seatName(e.next_banker)))),
      v.history.length ? el("table", { class: "data", id: "history" },
        el("tr", {}, [t("hand_no").replace("{n}", "#"), t("banker"), t("winner"), t("gain"), t("levels_after")].map((h) => el("th", {}, h))),
        v.history.map((h) => el("tr", {}, el("td", {}, h.hand), el("td", {}, seatName(h.banker)),
          el("td", {}, h.winner_team === 0 ? t("team_us") : t("team_them")), el("td", {}, `+${h.gain}`),
          el("td", {}, h.levels_after.map(rankOf).join(" / "))))) : "",
      el("div", {}, el("h2", {}, t("dealt")), e.dealt.map((h, s) => el("div", {}, el("b", {}, seatName(s)), " ", cards(h, v))),
        el("div", {}, el("b", {}, t("kitty")), " ", cards(e.dealt_kitty, v))),
      el("div", { class: "bar" },
        el("button", { type: "button", id: "save-btn", onclick: saveRecord }, t("save_record")),
        el("button", { type: "button", id: "review-btn", class: "primary", disabled: !!S.review,
                       onclick: runReview }, t("review")),
        el("button", { type: "button", id: "next-btn", class: "primary", onclick: () => act({ kind: "next_hand" }) }, t("act_next")),
        el("button", { type: "button", onclick: () => newGame(formOptions()) }, t("new_game"))),
      review);
  }

  async function saveRecord() {
    const rec = await call("GET", `/api/games/${S.sid}/record`);
    if (rec) XN.download(`shengji-${S.view.seed ?? "hand"}-${S.view.hand_no}.json`, rec);
  }

  function runReview() { return XN.runReview(S, renderEnd); }

  function loadRecord(file) { return XN.loadRecord(S, file, call, renderTools); }

  function replayNode() {
    const r = S.replay;
    const f = r.frames[S.frame];
    const last = r.frames.length - 1;
    const v = { trump: f.trump, level: null };
    const nav = (label, to, id) => el("button", { type: "button", id, disabled: to < 0 || to > last || to === S.frame,
      onclick: () => { S.frame = to; renderTools(); } }, label);
    return el("div", { id: "replay" },
      el("div", { class: "bar" }, nav(t("first"), 0, "rp-first"), nav(t("prev"), S.frame - 1, "rp-prev"),
        el("span", { id: "rp-pos" }, `${t("step")} ${S.frame} / ${last}`),
        nav(t("next"), S.frame + 1, "rp-next"), nav(t("last"), last, "rp-last")),
      f.move ? el("div", { class: "rp-move" }, moveNode(f.move, v)) : el("div", { class: "muted" }, t("start")),
      el("div", {}, `${t("trump")}: ${f.trump ?? t("unknown")} · ${t("attacker_points")}: ${f.attacker_points}`),
      f.hands.map((h, s) => el("div", { class: f.to_act === s ? "rp-hand active" : "rp-hand" },
        el("b", {}, seatName(s)), " ", cards(h, v))),
      f.kitty.length ? el("div", {}, el("b", {}, t("kitty")), " ", cards(f.kitty, v)) : "",
      S.frame === last && r.result ? el("div", { class: "settlement" },
        `${t("attacker_points")}: ${r.result.attacker_points} · ${t("winner")}: ${t(`w_${r.result.winner}`)} · ${t("levels_after")}: ${r.result.levels_after.map(rankOf).join(" / ")}`) : "");
  }

  function renderTools() {
    document.getElementById("tools").replaceChildren(
      el("div", {}, el("h2", {}, t("load_record")),
        el("input", { type: "file", id: "load-file", accept: ".json,application/json",
                      onchange: (e) => e.target.files[0] && loadRecord(e.target.files[0]) }),
        S.replay ? replayNode() : "",
        S.replay ? XN.recordReview(S, 4, renderTools) : "",
        XN.enterHand(S, 4, renderTools, "game shengji\nrules zhengzhou\nlevels 2 2\nbanker none\nhand 0 \nhand 1 ?\nhand 2 ?\nhand 3 ?\nkitty ?\nactions\n")));
  }

  const formOptions = XN.formOptions;
  const renderForm = (info) => XN.renderForm(info, newGame);

  XN.onRecord(loadRecord);
  XN.drawWith({
    action: (a, v) => el("span", { class: "action" }, actLabel(a.kind, v.phase),
      a.cards.length ? [" ", cards(a.cards, v)] : ""),
    move: moveNode,
    hand: cards,
    seat: (s) => seatName(s),
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
