// The live table: shows the view the server pushes, sends what the player presses.
// Every word on the page comes from the server (in the user's language); nothing here
// decides a rule. See docs/table.md for the messages.
"use strict";

(function () {
  const tg = window.Telegram && window.Telegram.WebApp;
  const initData = tg ? tg.initData || "" : "";
  // A private chat's web_app button names the game in the address (Telegram signs no
  // start parameter for it); a startapp link's is in the signed data.
  // When the chat moves on to its next game (a Rematch's lobby), the page names that one.
  let namedGame = new URLSearchParams(location.search).get("game") || "";
  const SVG = "http://www.w3.org/2000/svg";
  const LONGEST_WAIT = 10000; // ms between reconnection attempts, at most
  const MIN_TILES_WIDE = 5; // the board's view is at least this many tile lengths wide
  const MIN_TILES_HIGH = 2.5; // and this many high

  let words = {};
  let view = null;
  let socket = null;
  let waiting = []; // actions pressed while the socket was still opening, sent once it is open
  let attempts = 0;
  let finished = false; // refused for good: no reconnecting
  let offset = 0; // the server's clock minus ours, in seconds
  let nextId = 1;
  let wasMyTurn = false;
  let toastTimer = 0;
  // What the player is choosing on the view shown: null, {kind: "end", tile, moves}
  // (a tile that fits several ends) or {kind: "doubles"} (muggins' doubles).
  let choosing = null;

  const $ = (id) => document.getElementById(id);

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function svgEl(tag, attrs) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
    return node;
  }

  function fill(template, values) {
    return String(template || "").replace(/\{(\w+)\}/g, (all, key) =>
      key in values ? String(values[key]) : all,
    );
  }

  // -- Telegram ---------------------------------------------------------------------

  const THEME = {
    bg_color: "--bg",
    text_color: "--text",
    hint_color: "--hint",
    link_color: "--link",
    button_color: "--button",
    button_text_color: "--button-text",
    secondary_bg_color: "--panel",
  };

  function applyTheme() {
    const params = (tg && tg.themeParams) || {};
    for (const [key, variable] of Object.entries(THEME)) {
      if (typeof params[key] === "string" && /^#[0-9a-fA-F]{3,8}$/.test(params[key])) {
        document.documentElement.style.setProperty(variable, params[key]);
      }
    }
  }

  function haptic(kind) {
    const feedback = tg && tg.HapticFeedback;
    if (!feedback) return;
    try {
      if (kind === "press") feedback.impactOccurred("light");
      else feedback.notificationOccurred(kind); // "success", "warning", "error"
    } catch (error) {
      // an older client without haptics
    }
  }

  // -- status and notes -------------------------------------------------------------

  function setStatus(text, kind) {
    const status = $("status");
    status.hidden = !text;
    status.textContent = text || "";
    status.className = "status" + (kind ? " " + kind : "");
  }

  function toast(text, shown) {
    const node = $("toast");
    node.textContent = text;
    node.hidden = !text;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => (node.hidden = true), shown || 3500);
  }

  function stopWith(text) {
    finished = true;
    document.body.dataset.state = "stopped";
    setStatus(text, "");
  }

  // -- the connection ----------------------------------------------------------------

  function socketUrl() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const folder = location.pathname.replace(/[^/]*$/, "");
    return scheme + location.host + folder + "ws";
  }

  function connect() {
    if (finished) return;
    const ws = new WebSocket(socketUrl());
    socket = ws;
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: "hello", init_data: initData, game: namedGame }));
      for (const message of waiting) ws.send(message);
      waiting = [];
    };
    ws.onmessage = (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (error) {
        return;
      }
      heard(message);
    };
    ws.onclose = (event) => {
      if (socket === ws) socket = null;
      if (waiting.length) {
        waiting = []; // pressed while it was opening, and it never opened
        toast(words.offline || "…");
      }
      document.body.dataset.connected = "0";
      if (event.code === 4401) return stopWith(words.unauthorized || "⚠");
      if (event.code === 4404) return stopWith(words.no_game || "⚠");
      if (finished) return;
      setStatus(words.offline || "…", "");
      const wait = Math.min(LONGEST_WAIT, 500 * 2 ** attempts) * (0.75 + Math.random() / 2);
      attempts += 1;
      setTimeout(connect, wait);
    };
  }

  function heard(message) {
    if (message.type === "welcome") {
      words = message.words || words;
      offset = message.now - Date.now() / 1000;
      attempts = 0;
      document.body.dataset.connected = "1";
      setStatus("", "");
    } else if (message.type === "view") {
      show(message.view);
    } else if (message.type === "refused") {
      haptic("error");
      toast(message.text || "");
    } else if (message.type === "done") {
      haptic("success");
      if (message.text) toast(message.text, 9000); // a practice hint
    }
  }

  function send(action, value) {
    if (!view) return;
    haptic("press");
    if (choosing) {
      choosing = null;
      showChoice();
    }
    const connecting = socket && socket.readyState === WebSocket.CONNECTING;
    if (!socket || (socket.readyState !== WebSocket.OPEN && !connecting)) {
      toast(words.offline || "…");
      return;
    }
    const message = { type: "action", id: nextId++, game: view.game, action: action, version: view.version };
    if (value !== undefined) message.value = String(value);
    if (connecting) {
      waiting.push(JSON.stringify(message)); // a press on the first view, before the socket opened
      return;
    }
    socket.send(JSON.stringify(message));
  }

  // -- showing a view ----------------------------------------------------------------

  // The chat's next game, opened in place of the one that is gone: a fresh connection
  // that names it (and the address too, so that a reload opens it again).
  function follow(game) {
    namedGame = game;
    waiting = [];
    history.replaceState(null, "", location.pathname + "?game=" + encodeURIComponent(game) + location.hash);
    view = null;
    const old = socket;
    socket = null;
    if (old) {
      old.onclose = null;
      old.close();
    }
    attempts = 0;
    connect();
  }

  function show(next) {
    if (next.status === "gone" && next.next && next.next !== next.game) {
      follow(next.next);
      return;
    }
    if (view && next.status !== "gone" && next.game === view.game && next.version < view.version) {
      return; // an older view than the one shown
    }
    if (!view || next.version !== view.version || next.game !== view.game) choosing = null;
    view = next;
    document.body.dataset.version = String(next.version);
    document.body.dataset.status = next.status;
    $("title").textContent = next.title || "";
    $("lobby").hidden = next.status !== "lobby";
    $("game").hidden = !next.table;
    $("ending").hidden = !(next.ending || next.status === "gone");
    $("ending").textContent = next.status === "gone" ? words.no_game || "" : next.ending || "";
    $("subtitle").textContent = "";
    if (next.lobby) showLobby(next.lobby);
    if (next.table) showGame(next.table);
    showHand(next.table && next.table.hand);
    showChoice();
    const watching = next.seat === null && next.table && next.status === "playing";
    $("note").hidden = !watching;
    $("note").textContent = watching ? words.watching || "" : "";
  }

  function button(label, action, value, className) {
    const node = el("button", className || "", label);
    node.type = "button";
    node.dataset.action = action;
    if (value !== undefined) node.dataset.value = String(value);
    node.addEventListener("click", () => send(action, value));
    return node;
  }

  function showLobby(lobby) {
    const seats = $("seats");
    seats.replaceChildren();
    for (const seat of lobby.seats) {
      const row = el("li", seat.you ? "you" : "");
      row.append(el("span", "number", seat.number + "."));
      row.append(el("span", "name", (seat.computer ? "🤖 " : "") + seat.name));
      if (seat.kind) row.append(el("span", "kind", "(" + seat.kind + ")"));
      if (seat.you) row.append(el("span", "kind", "· " + (words.you || "")));
      seats.append(row);
    }
    const lines = $("lobby-lines");
    lines.replaceChildren(...lobby.lines.map((line) => el("p", "", line)));
    if (view.creator) lines.append(el("p", "dim", words.creator_note || ""));
    const can = lobby.can;
    const actions = $("lobby-actions");
    actions.replaceChildren();
    if (can.join) actions.append(button(words.join, "join"));
    if (can.start) actions.append(button(words.start, "start"));
    if (can.add_computer) {
      actions.append(button(words.add_easy, "add_easy", undefined, "secondary"));
      actions.append(button(words.add_strong, "add_strong", undefined, "secondary"));
    }
    if (can.remove_computer) {
      actions.append(button(words.remove_computer, "remove_computer", undefined, "secondary"));
    }
    if (can.leave) actions.append(button(words.leave, "leave", undefined, "secondary"));
    if (can.cancel) actions.append(button(words.cancel, "cancel", undefined, "secondary"));
    const options = $("options");
    options.replaceChildren();
    for (const option of lobby.options) {
      const box = el("div", "option");
      box.append(el("h2", "", option.label));
      const choices = el("div", "choices");
      for (const choice of option.choices) {
        const className = "secondary" + (choice.chosen ? " chosen" : "");
        const node = button(choice.label, option.action, choice.value, className);
        node.setAttribute("aria-pressed", choice.chosen ? "true" : "false");
        choices.append(node);
      }
      box.append(choices);
      options.append(box);
    }
  }

  function showGame(table) {
    $("title").textContent = table.heading;
    $("state").textContent = table.state;
    drawBoard($("board"), table.board, table.round_title);
    $("ends").textContent = table.ends;
    $("count").textContent = table.count;
    $("round-end").replaceChildren(...table.round_end.map((line) => el("p", "", line)));
    $("boneyard").textContent = table.boneyard_text;
    $("moves").replaceChildren(...table.moves.map((line) => el("li", "", line)));
    const players = $("players");
    players.replaceChildren();
    const head = el("tr");
    head.append(el("th", "", ""), el("th", "num", words.tiles), el("th", "num", table.score_label));
    players.append(head);
    for (const player of table.players) {
      const row = el("tr", (player.turn ? "turn " : "") + (player.you ? "you" : ""));
      row.dataset.seat = String(player.seat);
      const place = player.place ? player.place + ". " : "";
      const name = place + (player.computer ? "🤖 " : "") + player.name + (player.out ? " ✓" : "");
      row.append(el("td", "name", name));
      row.append(el("td", "num tiles", player.tiles), el("td", "num total", player.total));
      players.append(row);
    }
    const final = $("final");
    final.hidden = !table.final;
    final.replaceChildren(...(table.final || []).map((line) => el("p", "", line)));
    const after = $("final-actions");
    after.hidden = !table.rematch;
    after.replaceChildren(...(table.rematch ? [button(words.rematch, "rematch")] : []));
    tick();
  }

  function showHand(hand) {
    const footer = $("hand");
    footer.hidden = !hand;
    if (!hand) {
      wasMyTurn = false;
      return;
    }
    footer.classList.toggle("turn", hand.your_turn);
    const tiles = $("hand-tiles");
    tiles.replaceChildren();
    for (const tile of hand.tiles) {
      const node = el("button", "tile" + (tile.playable ? " playable" : ""));
      node.type = "button";
      node.dataset.tile = tile.tile;
      node.setAttribute("aria-label", tile.tile + (tile.playable ? " " + (words.playable || "") : ""));
      const picture = svgEl("svg", { viewBox: "0 0 50 100" });
      picture.append(tileShape(0, 0, 50, 100, tile.a, tile.b, false));
      node.append(picture);
      node.addEventListener("click", () => tapTile(tile.tile));
      tiles.append(node);
    }
    if (hand.your_turn && !wasMyTurn) haptic("warning"); // his turn: a nudge
    wasMyTurn = hand.your_turn;
  }

  function moves() {
    const hand = view && view.table && view.table.hand;
    return (hand && hand.moves) || [];
  }

  // A tile tapped: played where it fits; fitting several ends, the player picks one;
  // not fitting (or not his turn), sent all the same: the server says why, in words.
  function tapTile(tile) {
    const plays = moves().filter(
      (m) => m.action === "play" && (m.value === tile || m.value.startsWith(tile + "@")),
    );
    if (plays.length === 1) return send("play", plays[0].value);
    if (plays.length === 0) return send("play", tile);
    haptic("press");
    choosing = { kind: "end", tile: tile, moves: plays };
    showChoice();
  }

  function endOf(value) {
    return value.split("@")[1];
  }

  function markFor(end) {
    const board = view && view.table && view.table.board;
    return ((board && board.marks) || []).find((m) => m.end === end);
  }

  function endLabel(end) {
    const mark = markFor(end);
    return mark ? mark.name + " " + mark.value : end;
  }

  // The prompt, the buttons under the hand and the marks on the board, as the choice
  // being made (or none) has them.
  function showChoice() {
    const hand = view && view.table && view.table.hand;
    const prompt = $("hand-prompt");
    const actions = $("hand-actions");
    actions.replaceChildren();
    for (const node of document.querySelectorAll("#hand-tiles .tile")) {
      node.classList.toggle("chosen", !!choosing && choosing.kind === "end" && node.dataset.tile === choosing.tile);
    }
    highlightEnds(choosing && choosing.kind === "end" ? choosing.moves : []);
    if (!hand) return;
    if (choosing && choosing.kind === "end") {
      prompt.textContent = words.which_end || "";
      for (const move of choosing.moves) {
        const node = button(endLabel(endOf(move.value)), "play", move.value, "end");
        node.dataset.end = endOf(move.value);
        actions.append(node);
      }
      actions.append(backButton());
      return;
    }
    if (choosing && choosing.kind === "doubles") {
      prompt.textContent = words.pick_doubles || "";
      for (const move of moves().filter((m) => m.action === "doubles")) {
        const label = move.value
          .split(",")
          .map((part) => part.split("@")[0] + " " + endLabel(endOf(part)))
          .join(" + ");
        actions.append(button(label, "doubles", move.value, "secondary"));
      }
      actions.append(backButton());
      return;
    }
    prompt.textContent = hand.prompt || words.hand || "";
    const all = moves();
    for (const kind of ["draw", "pass"]) {
      if (all.some((m) => m.action === kind)) actions.append(button(words[kind], kind, ""));
    }
    if (all.some((m) => m.action === "doubles")) {
      const node = el("button", "secondary", words.doubles);
      node.type = "button";
      node.dataset.action = "choose-doubles";
      node.addEventListener("click", () => {
        haptic("press");
        choosing = { kind: "doubles" };
        showChoice();
      });
      actions.append(node);
    }
    if (all.some((m) => m.action === "hint")) actions.append(button(words.hint, "hint", "", "secondary"));
  }

  function backButton() {
    const node = el("button", "secondary", words.back);
    node.type = "button";
    node.dataset.action = "back";
    node.addEventListener("click", () => {
      choosing = null;
      showChoice();
    });
    return node;
  }

  // While a tile's end is chosen: its ends ringed on the board, each a target of at
  // least 44 px that plays the tile there.
  function highlightEnds(plays) {
    const board = $("board");
    for (const node of board.querySelectorAll(".pick")) node.remove();
    for (const node of board.querySelectorAll("[data-end]")) node.classList.remove("choice", "other");
    if (!plays.length) return;
    const box = board.viewBox.baseVal;
    const scale = box && box.width ? board.getBoundingClientRect().width / box.width : 1;
    for (const node of board.querySelectorAll("g[data-end]")) {
      const move = plays.find((m) => endOf(m.value) === node.dataset.end);
      node.classList.add(move ? "choice" : "other");
      if (!move) continue;
      const mark = markFor(node.dataset.end);
      const ring = svgEl("circle", {
        class: "pick ring", cx: mark.x, cy: mark.y, r: mark.r * 1.35,
        fill: "none", stroke: "#ffd54a", "stroke-width": mark.r * 0.3,
      });
      const target = svgEl("circle", {
        class: "pick target", cx: mark.x, cy: mark.y, r: Math.max(mark.r * 1.5, 24 / (scale || 1)),
        fill: "transparent", "data-play": move.value,
      });
      target.addEventListener("click", () => send("play", move.value));
      board.append(ring, target);
    }
  }

  // -- the board ---------------------------------------------------------------------

  const PIPS = {
    0: [],
    1: [[0.5, 0.5]],
    2: [[0.27, 0.27], [0.73, 0.73]],
    3: [[0.27, 0.27], [0.5, 0.5], [0.73, 0.73]],
    4: [[0.27, 0.27], [0.73, 0.27], [0.27, 0.73], [0.73, 0.73]],
    5: [[0.27, 0.27], [0.73, 0.27], [0.5, 0.5], [0.27, 0.73], [0.73, 0.73]],
    6: [[0.27, 0.25], [0.73, 0.25], [0.27, 0.5], [0.73, 0.5], [0.27, 0.75], [0.73, 0.75]],
  };

  function tileShape(x, y, w, h, a, b, last) {
    const group = svgEl("g", { "data-tile": a + ":" + b });
    const short = Math.min(w, h);
    group.append(
      svgEl("rect", {
        x: x + 1, y: y + 1, width: w - 2, height: h - 2, rx: short * 0.12,
        fill: "#fbf8ef", stroke: last ? "#e8a317" : "#b9b09a", "stroke-width": last ? short * 0.08 : short * 0.03,
      }),
    );
    const vertical = h > w;
    const line = vertical
      ? { x1: x + short * 0.15, y1: y + h / 2, x2: x + w - short * 0.15, y2: y + h / 2 }
      : { x1: x + w / 2, y1: y + short * 0.15, x2: x + w / 2, y2: y + h - short * 0.15 };
    group.append(svgEl("line", Object.assign(line, { stroke: "#9a917c", "stroke-width": short * 0.03 })));
    const halves = vertical ? [[x, y], [x, y + h / 2]] : [[x, y], [x + w / 2, y]];
    [a, b].forEach((pips, index) => {
      const [hx, hy] = halves[index];
      for (const [px, py] of PIPS[pips] || []) {
        group.append(svgEl("circle", { cx: hx + px * short, cy: hy + py * short, r: short * 0.085, fill: "#1d1d1d" }));
      }
    });
    return group;
  }

  const TURNS = { E: 0, S: 90, W: 180, N: 270 };

  function markShape(mark) {
    const group = svgEl("g", { "data-end": mark.end, "aria-label": mark.name });
    group.append(svgEl("circle", { cx: mark.x, cy: mark.y, r: mark.r, fill: mark.colour, stroke: "#00000055", "stroke-width": 2 }));
    const r = mark.r;
    const arrow = svgEl("path", {
      d: `M ${-0.55 * r} ${-0.16 * r} H ${0.05 * r} V ${-0.45 * r} L ${0.6 * r} 0 L ${0.05 * r} ${0.45 * r} V ${0.16 * r} H ${-0.55 * r} Z`,
      fill: mark.ink,
      transform: `translate(${mark.x} ${mark.y}) rotate(${TURNS[mark.arrow] || 0})`,
    });
    group.append(arrow);
    return group;
  }

  function drawBoard(board, positions, title) {
    board.replaceChildren();
    const shapes = positions.tiles;
    if (!shapes.length) {
      // Before the round's first tile: its number, as the board picture says it.
      board.setAttribute("viewBox", "0 0 400 160");
      const text = svgEl("text", { x: 200, y: 90, "text-anchor": "middle", "font-size": 26, fill: "#ffffffcc" });
      text.textContent = title || "";
      board.append(text);
      return;
    }
    let left = Infinity, top = Infinity, right = -Infinity, bottom = -Infinity;
    for (const t of shapes) {
      left = Math.min(left, t.x); top = Math.min(top, t.y);
      right = Math.max(right, t.x + t.w); bottom = Math.max(bottom, t.y + t.h);
    }
    for (const m of positions.marks) {
      left = Math.min(left, m.x - m.r); top = Math.min(top, m.y - m.r);
      right = Math.max(right, m.x + m.r); bottom = Math.max(bottom, m.y + m.r);
    }
    const pad = positions.tile * 0.25;
    // A short chain is not blown up to the page's width: the view is at least a few
    // tiles wide and high (its middle kept), so a tile looks the same size all round long.
    const width = Math.max(right - left + 2 * pad, positions.tile * MIN_TILES_WIDE);
    const height = Math.max(bottom - top + 2 * pad, positions.tile * MIN_TILES_HIGH);
    const x = (left + right - width) / 2, y = (top + bottom - height) / 2;
    board.setAttribute("viewBox", [x, y, width, height].join(" "));
    for (const t of shapes) board.append(tileShape(t.x, t.y, t.w, t.h, t.a, t.b, t.last));
    for (const m of positions.marks) board.append(markShape(m));
  }

  // -- the clock ---------------------------------------------------------------------

  function duration(seconds) {
    const left = Math.max(0, Math.round(seconds));
    if (left < 100) return fill(words.seconds, { seconds: left });
    if (left < 600) {
      const minutes = Math.floor(left / 60), rest = left % 60;
      return rest ? fill(words.minutes_seconds, { minutes: minutes, seconds: rest }) : fill(words.minutes, { minutes: minutes });
    }
    const minutes = Math.round(left / 60);
    if (minutes < 60) return fill(words.minutes, { minutes: minutes });
    const hours = Math.floor(minutes / 60), rest = minutes % 60;
    return rest && hours < 10 ? fill(words.hours_minutes, { hours: hours, minutes: rest }) : fill(words.hours, { hours: Math.round(minutes / 60) });
  }

  function tick() {
    const node = $("clock");
    const clock = view && view.table && view.table.clock;
    node.hidden = !clock;
    if (!clock) return;
    if (!clock.running || clock.deadline === null) {
      node.textContent = fill(words.no_clock_line, { name: clock.name });
      return;
    }
    const left = clock.deadline - (Date.now() / 1000 + offset);
    node.textContent = fill(words.clock_line, { name: clock.name, time: duration(left) });
  }

  // -- starting ----------------------------------------------------------------------

  async function start() {
    if (tg) {
      tg.ready();
      tg.expand();
      applyTheme();
      tg.onEvent("themeChanged", applyTheme);
    }
    setInterval(tick, 500);
    if (!initData) {
      stopWith("⚠ Telegram");
      return;
    }
    try {
      const asked = namedGame ? "api/view?game=" + encodeURIComponent(namedGame) : "api/view";
      const answer = await fetch(asked, { headers: { Authorization: "tma " + initData } });
      const body = await answer.json();
      if (answer.status === 401) return stopWith(pick(body.texts) || "⚠");
      if (answer.status === 404) return stopWith(body.text || "⚠");
      if (answer.ok) {
        words = body.words;
        offset = body.now - Date.now() / 1000;
        show(body.view);
      }
    } catch (error) {
      // no answer: the socket tries (and says it is offline)
    }
    setStatus(words.connecting || "", "info");
    connect();
  }

  function pick(texts) {
    if (!texts) return "";
    const user = tg && tg.initDataUnsafe && tg.initDataUnsafe.user;
    const lang = ((user && user.language_code) || navigator.language || "").slice(0, 2);
    return texts[lang] || texts.ru || "";
  }

  start();
})();
