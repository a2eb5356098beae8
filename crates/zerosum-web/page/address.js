// The game's address: every game has its own URL, `?game=SPEC&first=P&second=P&moves=M,M,...`
// (its spec, its players as the setup form names them, its moves so far), written as the game
// goes on. Loading the address, from a reload, a pasted link or the browser's back and forward
// buttons, reopens that game in that position (app.js asks the server for it: a finished game
// reopens at its end). A game the user starts gets a new history entry; moves, undo and swaps
// rewrite the game's own.
"use strict";
const Address = (() => {
  // `text` for the query, keeping `:`, `,` and `=` (specs, move lists, player settings) legible.
  const encode = (text) => encodeURIComponent(text).replace(/%3A/gi, ":").replace(/%2C/gi, ",").replace(/%3D/gi, "=");

  // The game the address names, `{ spec, players, moves }`, or null when it names none.
  function read() {
    const query = new URLSearchParams(location.search);
    const spec = (query.get("game") || "").trim();
    if (!spec) return null;
    const moves = (query.get("moves") || "").split(",").map((move) => move.trim()).filter(Boolean);
    return { spec, players: [query.get("first") || "human", query.get("second") || "engine:time=0.5"], moves };
  }

  // The address of the game of a `state` event.
  function of(state) {
    let query = `?game=${encode(state.game.spec)}&first=${encode(state.seats[0])}&second=${encode(state.seats[1])}`;
    if (state.game.moves.length) query += `&moves=${encode(state.game.moves.join(","))}`;
    return query;
  }

  // Writes the address of `state`'s game: a new history entry when `fresh` (a game the user
  // started), else in place of the current entry.
  function write(state, fresh) {
    const query = of(state);
    if (query === location.search) return;
    if (fresh) history.pushState(null, "", query);
    else history.replaceState(null, "", query);
  }

  return { read, write, of };
})();
