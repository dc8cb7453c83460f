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
  let version = Number(root.dataset.version);
  let plies = Number(root.dataset.plies);
  let ply = plies;

  function plyFromHash() {
    const match = /^#ply=(\d+)$/.exec(window.location.hash);
    return match ? Number(match[1]) : null;
  }

  function show(wanted, fromHash) {
    ply = Math.max(0, Math.min(plies, wanted));
    const url = "/games/" + token + "/board.svg?ply=" + ply + "&v=" + version +
      "&theme=" + encodeURIComponent(theme.value);
    if (board.getAttribute("src") !== url) board.setAttribute("src", url);
    board.setAttribute("alt", "The board after move " + ply);
    slider.max = String(plies);
    slider.value = String(ply);
    where.textContent = "Move " + ply + " of " + plies;
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
    const text = "Better than move " + ply + ": " + best;
    const img = document.getElementById("better-board");
    img.setAttribute("src", "/games/" + token + "/board.svg?ply=" + ply + "&better=1&v=" +
      version + "&theme=" + encodeURIComponent(theme.value));
    img.setAttribute("alt", "The board with " + best + " played instead of move " + ply);
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
    colour.textContent = move.colour;
    li.append(a, " ", colour);
    return li;
  }

  function update(state) {
    const following = ply === plies;
    version = state.version;
    plies = state.moves.length;
    while (list.children.length > 1) list.lastElementChild.remove();
    for (const move of state.moves) list.append(item(move));
    document.getElementById("result").textContent = state.result;
    document.getElementById("to-move").textContent = state.to_move;
    document.getElementById("clock").textContent = state.clock;
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
