// The page: opens the tab's event stream, keeps every position of the game seen so far (for
// moving back and forward), draws the one viewed, posts the player's commands, and keeps the
// game's address (address.js) so that a reload, a link or the back button reopens it.
"use strict";

const $ = (id) => document.getElementById(id);
const page = {
  session: null,
  catalog: null,
  latest: null,     // the last `state` event
  positions: [],    // game JSON by ply, for navigation
  viewed: null,     // ply being viewed, null for the latest
  search: null,     // the last `search` event
  showPv: true,     // whether the board draws the engine's line
  number: null,     // the number in the tab of the game shown (the `state` event's)
  fresh: false,     // whether the user asked for a new game: its address gets a history entry
  reopening: null,  // while a game is reopened from the address: { after } (the number of the
                    // game before it); states of older games are held, not shown
  held: null,       // the last state held while reopening
  errorAnchor: null, // the control the error message is about, or null
};

// The name of `side` ("first" or "second") in `game`: its mark or the colour of its stones,
// as the game's family calls them (`sides`).
function sideLabel(game, side) {
  return game.sides[side];
}

// Where an error about a command (by `type`) and its field is shown: under this control ("" for
// the command as a whole); errors about nothing in particular show under the header.
const ERROR_PLACES = {
  new: { spec: "spec", moves: "spec", first: "first", second: "second", "": "new" },
  move: { "": "move" },
  undo: { "": "undo" },
  swap: { "": "swap" },
  tournament: { players: "tour-players", games: "tour-games", seconds: "tour-seconds", rounds: "tour-rounds", "": "tour-start" },
};

// Shows `message` (none: hides it) under the control of `command`'s `field`, scrolled into
// view. The message floats over the page, so nothing moves when it comes or goes; it goes with
// the next command, its × button, Escape, or an edit of the control it is about.
function showError(message, command, field) {
  const error = $("error");
  $("error-text").textContent = message || "";
  error.hidden = !message;
  if (!message) { page.errorAnchor = null; delete error.dataset.for; return; }
  const places = ERROR_PLACES[command];
  const control = places && $(places[field || ""] || places[""]);
  page.errorAnchor = control ? control.closest("label, fieldset") || control : null;
  if (control) error.dataset.for = control.id; else delete error.dataset.for;
  placeError();
  error.scrollIntoView({ block: "nearest" });
}

// Puts the error message just under its control (or the header), within the window's width.
function placeError() {
  const error = $("error");
  if (error.hidden) return;
  const anchor = page.errorAnchor && page.errorAnchor.isConnected ? page.errorAnchor : document.querySelector("header");
  const box = anchor.getBoundingClientRect();
  const width = Math.min(error.offsetWidth, document.documentElement.clientWidth - 8);
  const left = Math.max(4, Math.min(box.left, document.documentElement.clientWidth - width - 4));
  error.style.left = `${left + window.scrollX}px`;
  error.style.top = `${box.bottom + window.scrollY + 3}px`;
}

async function post(command) {
  if (!page.session) return showError("Not connected to the server yet.", command.type);
  // Cleared before sending, not on success: the server may report an error through the event
  // stream before this request's answer arrives, and that message must stay.
  showError("");
  try {
    // The server takes commands only as JSON (so a plain cross-site form cannot post one).
    const response = await fetch("/command?session=" + page.session, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(command),
    });
    if (!response.ok) {
      const body = await response.json().catch(() => ({ error: response.statusText }));
      refused(command.type);
      showError(body.error || "the server refused the command", command.type);
    }
  } catch (e) {
    refused(command.type);
    showError("The server cannot be reached: " + e.message, command.type);
  }
}

// Forgets what the page expected of a `new` command that was refused: the game shown stays,
// with its address.
function refused(type) {
  if (type !== "new") return;
  page.fresh = false;
  if (page.reopening) {
    page.reopening = null;
    const held = page.held;
    page.held = null;
    if (held) takeState(held);
  }
}

// Asks the server for the game `wanted` names (`{ spec, players, moves }`, from the address);
// until it comes, the states of the game shown are held.
function reopen(wanted) {
  page.reopening = { after: page.number === null ? 0 : page.number };
  page.search = null;
  post({ type: "new", spec: wanted.spec, players: wanted.players, moves: wanted.moves });
}

function fillSetup(catalog) {
  const family = $("family");
  family.innerHTML = catalog.families.map((f) => `<option value="${Board.esc(f.name)}">${Board.esc(f.label)}</option>`).join("");
  const preset = $("preset");
  for (const p of catalog.presets) {
    const games = p.named_games.filter((g, i) => p.games.indexOf(g.spec) === i);
    preset.innerHTML += `<optgroup label="${Board.esc(p.name)}">` +
      games.map((g) => `<option value="${Board.esc(g.spec)}">${Board.esc(g.name)} (${Board.esc(g.spec)})</option>`).join("") + "</optgroup>";
  }
  for (const id of ["first", "second"]) {
    $(id).innerHTML = catalog.players.map((p) => `<option value="${Board.esc(p.spec)}">${Board.esc(p.label)}</option>`).join("");
  }
  $("first").value = "human";
  $("second").value = "engine:time=0.5";
  familyChosen();
}

function familyChosen() {
  const family = page.catalog.families.find((f) => f.name === $("family").value);
  $("specs").innerHTML = family.games.map((g) =>
    `<option value="${Board.esc(g.spec)}" label="${Board.esc(g.name + ", " + g.board_words)}">`).join("");
  if (!$("spec").value.startsWith(family.name) && !family.examples.includes($("spec").value)) $("spec").value = family.examples[0];
}

function takeState(state) {
  if (page.reopening) {
    if (state.number <= page.reopening.after) { page.held = state; return; }
    page.reopening = null;
    page.held = null;
  }
  const newGame = state.number !== page.number;
  const fresh = newGame && page.fresh;
  if (newGame) {
    page.fresh = false;
    page.number = state.number;
    showSetup(state);
  }
  Address.write(state, fresh);
  const game = state.game;
  const previous = page.latest;
  if (!previous || previous.game.spec !== game.spec || game.ply === 0 ||
      !sameStart(page.positions[game.ply - 1], game)) {
    page.positions = page.positions.slice(0, game.ply);
  }
  page.positions.length = game.ply + 1;
  page.positions[game.ply] = game;
  if (!previous || previous.game.ply !== game.ply || previous.game.spec !== game.spec) page.viewed = null;
  if (page.search && page.search.ply !== game.ply) page.search = null;
  page.latest = state;
  Charts.show($("score-graph"), state.score_graph);
  render();
}

// Sets the setup form to the game of `state` (one reopened from its address, say).
function showSetup(state) {
  if (!page.catalog) return;
  $("spec").value = state.game.spec;
  $("family").value = state.game.family;
  for (const [i, id] of ["first", "second"].entries()) {
    if ([...$(id).options].some((option) => option.value === state.seats[i])) $(id).value = state.seats[i];
  }
}

// Whether `before` (a position one ply earlier) leads to `game`.
function sameStart(before, game) {
  return before && before.moves.join(" ") === game.moves.slice(0, -1).join(" ");
}

function render() {
  const state = page.latest;
  if (!state) return;
  const latestGame = state.game;
  const ply = page.viewed === null ? latestGame.ply : page.viewed;
  const game = page.positions[ply] || latestGame;
  const live = ply === latestGame.ply;
  const toMove = latestGame.to_move;
  const myTurn = live && !state.result && state.humans[toMove === "first" ? 0 : 1] && !state.thinking;
  const pv = live && page.showPv && page.search && page.search.line ? { side: page.search.side, moves: page.search.line.pv } : null;
  const focused = $("board").contains(document.activeElement);
  $("board").innerHTML = Board.draw(game, { playable: myTurn, pv });
  Keyboard.mark($("board"), focused);
  const name = state.players[toMove === "first" ? 0 : 1];
  let turn;
  if (!live) turn = `Viewing move ${ply} of ${latestGame.ply}.`;
  else if (state.result) turn = "Game over:";
  else if (state.thinking) turn = `${name} (${sideLabel(latestGame, toMove)}, ${toMove} player) is thinking…`;
  else if (myTurn) turn = `Your move: ${sideLabel(latestGame, toMove)} (${toMove} player) to move.`;
  else turn = `${sideLabel(latestGame, toMove)} (${toMove} player) to move.`;
  if (live && !state.result && game.board.last_move) turn += ` Last move: ${game.board.last_move}.`;
  $("turn").textContent = turn;
  if (live && !state.result) $("turn").insertAdjacentHTML("afterbegin", Board.swatch(latestGame, toMove));
  $("game-name").textContent = latestGame.name;
  $("game-board").textContent = latestGame.board_words === latestGame.spec
    ? latestGame.spec : `${latestGame.board_words} · ${latestGame.spec}`;
  document.title = `${latestGame.name} · zerosum`;
  const family = page.catalog.families.find((f) => f.name === latestGame.family);
  $("notation").textContent = family ? family.notation : "";
  $("result").textContent = live && state.result ? state.result : "";
  $("swap-move").hidden = !(myTurn && latestGame.legal_moves.includes("swap"));
  const running = state.result ? null : toMove;
  $("players").innerHTML = "<tr><th></th><th>Player</th><th>Move clock</th><th>Used</th></tr>" +
    ["first", "second"].map((side, i) =>
      `<tr class="${side === running ? "to-move" : ""}"><td class="side">${Board.swatch(latestGame, side)}${sideLabel(latestGame, side)}</td>` +
      `<td>${Board.esc(state.players[i])}</td>` +
      Clocks.cells(state.limit_ms[i], state.used_ms[i], state.turn_ms, side === running) + "</tr>").join("");
  Clocks.start();
  $("moves").innerHTML = latestGame.moves.map((m, i) =>
    `<li data-ply="${i + 1}" class="${i + 1 === ply ? "viewed" : ""}">${Board.esc(m)}</li>`).join("");
  renderSearch();
  placeError();
}

// The engine's line: what it thinks, in the words of the terminal's `zerosum play` (the
// server words it), its search's measures and its principal variation.
function renderSearch() {
  const s = page.search;
  if (!s) { $("search").textContent = ""; return; }
  const label = s.live ? "thinking" : s.move;
  if (!s.line) { $("search").textContent = `${label}: ${s.comment}`; return; }
  const l = s.line;
  $("search").innerHTML = `<strong>${Board.esc(label)}</strong>: <span class="says">${Board.esc(l.says)}</span>` +
    (l.measures ? `<br>${Board.esc(l.measures)}` : "") +
    (l.pv.length ? `<br>pv ${Board.esc(l.pv.join(" "))}` : "") +
    (l.note ? `<br>${Board.esc(l.note)}` : "");
}

function view(ply) {
  if (!page.latest) return;
  const last = page.latest.game.ply;
  const clamped = Math.max(0, Math.min(last, ply));
  page.viewed = clamped === last ? null : clamped;
  render();
}

function connect() {
  const events = new EventSource("/events");
  events.onopen = () => { $("banner").hidden = true; };
  events.onerror = () => {
    page.session = null;
    $("banner").textContent = "The server has gone away; reconnecting… (the game then reopens from its address)";
    $("banner").hidden = false;
  };
  events.onmessage = (event) => {
    let message;
    try { message = JSON.parse(event.data); } catch (e) { return showError("unreadable event from the server"); }
    if (message.type === "hello") {
      page.session = message.session;
      page.latest = null;
      page.positions = [];
      page.search = null;
      page.number = null;
      page.reopening = null;
      page.held = null;
      if (!page.catalog) {
        page.catalog = message.catalog;
        fillSetup(message.catalog);
        Tournament.fill(message.catalog);
      }
      document.body.classList.toggle("watching", !!message.watching);
      const wanted = Address.read();
      if (wanted) reopen(wanted);
    } else if (message.type === "state") {
      takeState(message);
    } else if (message.type === "search") {
      // A live line belongs to the position being searched; a final one to the position after
      // the move it chose.
      const ply = page.latest ? page.latest.game.ply : 0;
      page.search = { ...message, ply: message.live ? ply : ply + 1 };
      if (message.live) render();
    } else if (message.type === "tournament") {
      Tournament.take(message);
    } else if (message.type === "error") {
      refused(message.command);
      showError(message.message, message.command, message.field);
    }
  };
}

$("family").addEventListener("change", familyChosen);
$("preset").addEventListener("change", () => {
  if (!$("preset").value) return;
  $("spec").value = $("preset").value;
  $("family").value = $("spec").value.split(":")[0];
  familyChosen();
});
$("setup").addEventListener("submit", (e) => {
  e.preventDefault();
  page.search = null;
  page.fresh = true;
  post({ type: "new", spec: $("spec").value.trim(), players: [$("first").value, $("second").value] });
});
$("entry").addEventListener("submit", (e) => {
  e.preventDefault();
  const text = $("move").value.trim();
  if (!text) return;
  $("move").value = "";
  post({ type: "move", move: text });
});
$("swap-move").addEventListener("click", () => post({ type: "move", move: "swap" }));
$("board").addEventListener("click", (e) => {
  const target = e.target.closest("[data-move]");
  if (target) post({ type: "move", move: target.dataset.move });
});
Keyboard.attach($("board"), (move) => post({ type: "move", move }));
$("undo").addEventListener("click", () => { page.search = null; post({ type: "undo" }); });
$("show-pv").addEventListener("change", () => { page.showPv = $("show-pv").checked; render(); });
$("swap").addEventListener("click", () => post({ type: "swap" }));
$("nav-start").addEventListener("click", () => view(0));
$("nav-back").addEventListener("click", () => view((page.viewed ?? page.latest.game.ply) - 1));
$("nav-forward").addEventListener("click", () => view((page.viewed ?? page.latest.game.ply) + 1));
$("nav-end").addEventListener("click", () => view(Infinity));
$("moves").addEventListener("click", (e) => {
  const item = e.target.closest("li[data-ply]");
  if (item) view(Number(item.dataset.ply));
});
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
  if (e.key === "ArrowLeft") view((page.viewed ?? page.latest.game.ply) - 1);
  if (e.key === "ArrowRight") view((page.viewed ?? page.latest.game.ply) + 1);
});
// Back and forward reopen the game of the address reached.
window.addEventListener("popstate", () => {
  const wanted = Address.read();
  if (wanted && page.session) reopen(wanted);
});
$("error-close").addEventListener("click", () => showError(""));
document.addEventListener("keydown", (e) => { if (e.key === "Escape") showError(""); });
// Editing the control an error is about puts the error away.
document.addEventListener("input", (e) => {
  if (page.errorAnchor && page.errorAnchor.contains(e.target)) showError("");
});
window.addEventListener("resize", placeError);
connect();
