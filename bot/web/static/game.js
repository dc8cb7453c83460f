// A Crosspath game page: step through the moves, follow a running game live.
// Loaded as a file (the page's Content-Security-Policy allows no inline script).
"use strict";

(function () {
  const root = document.getElementById("game");
  if (!root) return;
  const token = root.dataset.token;
  const board = document.getElementById("board");
  const slider = document.getElementById("slider");
  const where = document.getElementById("where");
  const list = document.getElementById("moves");
  const theme = document.getElementById("theme");
  // The page's language: its templates (bot/web/game_words.py), filled here as the server
  // fills them, and the language the board's title is drawn in.
  const words = JSON.parse(document.getElementById("words").textContent);
  const lang = encodeURIComponent(root.dataset.lang || "en");
  let version = Number(root.dataset.version);
  let plies = Number(root.dataset.plies);
  let ply = plies;

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, (whole, name) =>
      Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole);
  }

  function colourWord(colour) {
    return words.colours[colour] || colour || "";
  }

  function playerWord(name, colour) {
    if (name) return name;
    return colour ? fill(words.colour_player, { colour: colourWord(colour) }) : words.a_player;
  }

  function resultWords(result) {
    if (!result) return "";
    return fill(words.results[result.reason] || words.over, {
      winner: playerWord(result.winner, result.winner_colour),
      loser: playerWord(result.loser, result.loser_colour),
      colour: colourWord(result.winner_colour),
    });
  }

  function plyFromHash() {
    const match = /^#ply=(\d+)$/.exec(window.location.hash);
    return match ? Number(match[1]) : null;
  }

  function show(wanted, fromHash) {
    ply = Math.max(0, Math.min(plies, wanted));
    const url = "/games/" + token + "/board.svg?ply=" + ply + "&v=" + version +
      "&theme=" + encodeURIComponent(theme.value) + "&lang=" + lang;
    if (board.getAttribute("src") !== url) board.setAttribute("src", url);
    board.setAttribute("alt", fill(words.board_after, { n: ply }));
    slider.max = String(plies);
    slider.value = String(ply);
    where.textContent = fill(words.where, { n: ply, total: plies });
    let best = "";
    for (const item of list.children) {
      const current = Number(item.dataset.ply) === ply;
      item.classList.toggle("current", current);
      if (current && item.dataset.best) best = item.dataset.best;
    }
    showBetter(best);
    // From the address too when it named a move that does not exist (#ply=9999): the
    // address then says the move shown.
    if (!fromHash || plyFromHash() !== ply) history.replaceState(null, "", "#ply=" + ply);
  }

  // A marked move of an analysed game: the position with the better move instead.
  function showBetter(best) {
    const figure = document.getElementById("better");
    if (!figure) return;
    figure.hidden = !best;
    if (!best) return;
    const text = fill(words.better, { n: ply, best: best });
    const img = document.getElementById("better-board");
    img.setAttribute("src", "/games/" + token + "/board.svg?ply=" + ply + "&better=1&v=" +
      version + "&theme=" + encodeURIComponent(theme.value) + "&lang=" + lang);
    img.setAttribute("alt", fill(words.better_board, { n: ply, best: best }));
    document.getElementById("better-text").textContent = text;
  }

  function item(move) {
    const li = document.createElement("li");
    li.dataset.ply = String(move.ply);
    const a = document.createElement("a");
    a.href = "#ply=" + move.ply;
    a.textContent = move.ply + ". " + move.move;
    const colour = document.createElement("span");
    colour.className = "colour";
    colour.textContent = colourWord(move.colour);
    li.append(a, " ", colour);
    return li;
  }

  function update(state) {
    const following = ply === plies;
    version = state.version;
    plies = state.moves.length;
    while (list.children.length > 1) list.lastElementChild.remove();
    for (const move of state.moves) list.append(item(move));
    document.getElementById("result").textContent = resultWords(state.result);
    const mover = state.to_move;
    document.getElementById("to-move").textContent = mover
      ? fill(words.to_move, { name: playerWord(mover.name, mover.colour),
                              colour: colourWord(mover.colour) })
      : "";
    document.getElementById("clock").textContent = state.deadline
      ? fill(words.turn_ends, { clock: words.clock, when: state.deadline })
      : words.clock;
    root.dataset.version = String(version);
    root.dataset.plies = String(plies);
    show(following ? plies : ply, false);
  }

  document.getElementById("first").addEventListener("click", () => show(0, false));
  document.getElementById("prev").addEventListener("click", () => show(ply - 1, false));
  document.getElementById("next").addEventListener("click", () => show(ply + 1, false));
  document.getElementById("last").addEventListener("click", () => show(plies, false));
  slider.addEventListener("input", () => show(Number(slider.value), false));
  theme.addEventListener("change", () => show(ply, false));
  window.addEventListener("hashchange", () => {
    const wanted = plyFromHash();
    if (wanted !== null) show(wanted, true);
  });
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
    const moves = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: plies };
    if (event.key in moves) {
      event.preventDefault();
      show(moves[event.key], false);
    }
  });

  const start = plyFromHash();
  show(start === null ? plies : start, start !== null);

  if (root.dataset.live === "1" && window.EventSource) {
    const events = new EventSource("/games/" + token + "/events?v=" + version);
    events.addEventListener("message", (message) => {
      const state = JSON.parse(message.data);
      update(state);
      if (state.status !== "active") {
        events.close();
        root.dataset.live = "0";
      }
    });
  }
})();
