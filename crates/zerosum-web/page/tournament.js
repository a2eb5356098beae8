// The tournament panel: a form that starts a round robin from the page (the tab's own, stopped
// when the tab closes), and the live view of the tournament the tab watches (its own, or the one
// `zerosum tournament --serve` runs): progress, the game under way with its clocks, standings
// and crosstable (Elo with its error bar); the finished games are games.js's. `post` is the
// page's (app.js).
"use strict";
const Tournament = (() => {
  const $ = (id) => document.getElementById(id);
  const esc = (text) => Board.esc(String(text));
  const CHOSEN = ["engine:time=0.1", "quasi", "random"];
  let presets = [];

  // Offers the catalog's players (not the human) and presets.
  function fill(catalog) {
    $("tour-players").innerHTML = "<legend>Players</legend>" + catalog.players
      .filter((p) => p.spec !== "human")
      .map((p) => `<label><input type="checkbox" value="${esc(p.spec)}"${CHOSEN.includes(p.spec) ? " checked" : ""}> ${esc(p.label)}</label>`)
      .join("");
    presets = catalog.presets;
    $("tour-preset").innerHTML = '<option value="">(choose)</option>' +
      presets.map((p, i) => `<option value="${i}">${esc(p.name)}: ${esc(p.description)}</option>`).join("");
  }

  function presetChosen() {
    const preset = presets[Number($("tour-preset").value)];
    if (!$("tour-preset").value || !preset) return;
    $("tour-games").value = preset.games.join(",");
    $("tour-seconds").value = preset.seconds_per_move;
    $("tour-rounds").value = preset.rounds;
  }

  function start(e) {
    e.preventDefault();
    post({
      type: "tournament",
      players: [...$("tour-players").querySelectorAll("input:checked")].map((box) => box.value),
      games: $("tour-games").value.split(",").map((g) => g.trim()).filter(Boolean),
      seconds: Number($("tour-seconds").value),
      rounds: Number($("tour-rounds").value),
    });
  }

  function wdl(r) { return `${r.wins}-${r.draws}-${r.losses}`; }

  // An Elo value signed and rounded (`+35`); the server writes an unbounded one as null.
  function eloValue(value) {
    if (typeof value !== "number") return "unbounded";
    const rounded = Math.round(value);
    return (rounded >= 0 ? "+" : "-") + Math.abs(rounded);
  }

  // The Elo difference with its error bar (`+35 ± 20`: half the 95% interval), and the exact
  // interval and LOS as its title.
  function elo(estimate) {
    if (!estimate) return '<span title="no colour-swapped pair of games is complete yet">n/a</span>';
    if (typeof estimate.elo !== "number") {
      const result = estimate.sample.mean > 0.5 ? "won" : "lost";
      return `<span title="every ${esc(estimate.sample.unit)} ${result}: the difference is unbounded">n/a</span>`;
    }
    // One score (a single pair or game) has no spread to measure: no error bar yet.
    if (estimate.sample.count < 2) {
      return `<span title="one ${esc(estimate.sample.unit)}: too few to estimate the error">${eloValue(estimate.elo)} ± ?</span>`;
    }
    const margin = typeof estimate.margin === "number" ? String(Math.round(estimate.margin)) : "∞";
    const title = `95% interval ${eloValue(estimate.lower)} to ${eloValue(estimate.upper)}, ` +
      `LOS ${(100 * estimate.los).toFixed(1)}%`;
    return `<span title="${esc(title)}">${eloValue(estimate.elo)} ± ${margin}</span>`;
  }

  function standingsTable(standings) {
    const rows = standings.players.map((p) => {
      const f = p.forfeits;
      const forfeits = f.timeout + f.illegal_move + f.crash + f.stalled;
      const total = { wins: p.as_first.wins + p.as_second.wins, draws: p.as_first.draws + p.as_second.draws,
        losses: p.as_first.losses + p.as_second.losses };
      return `<tr><td>${p.rank}</td><td>${esc(p.name)}</td><td>${p.points}</td><td>${p.games}</td>` +
        `<td title="as first ${wdl(p.as_first)}, as second ${wdl(p.as_second)}">${wdl(total)}</td>` +
        `<td class="by-side">${wdl(p.as_first)}</td><td class="by-side">${wdl(p.as_second)}</td>` +
        `<td>${forfeits}</td><td class="elo">${elo(p.elo)}</td></tr>`;
    });
    return "<caption>Standings</caption><tr><th>#</th><th>Player</th><th>Points</th><th>Games</th>" +
      '<th>W-D-L</th><th class="by-side">as first</th><th class="by-side">as second</th><th>Forfeits</th><th title="Elo difference against the field, ± half its 95% interval">Elo</th></tr>' +
      rows.join("");
  }

  function crosstable(table) {
    const head = table.names.map((_, i) => `<th>${i + 1}</th>`).join("");
    const rows = table.names.map((name, r) => `<tr><td>${r + 1}</td><td>${esc(name)}</td>` +
      table.cells[r].map((cell) => `<td>${cell === null ? "–" : cell.games === 0 ? "·" : cell.points}</td>`).join("") +
      `<td>${table.totals[r]}</td></tr>`);
    return `<caption>Crosstable (points scored against each opponent)</caption><tr><th>#</th><th>Player</th>${head}<th>Total</th></tr>` + rows.join("");
  }

  function renderCurrent(event) {
    const current = event.current;
    if (!current) {
      $("tour-game").textContent = "Waiting for the first game…";
      return;
    }
    const game = current.game;
    const ongoing = game.status === "ongoing";
    const toMove = ongoing && !event.over ? game.to_move : null;
    $("tour-game").textContent = `Game ${current.number}: ${current.players[0]} (first) against ` +
      `${current.players[1]} (second), ${game.name} (${game.spec}), ` +
      (ongoing ? `move ${game.ply + 1}` : `over after ${game.ply} moves`) +
      (game.board.last_move ? `, last move ${game.board.last_move}` : "");
    $("tour-board").innerHTML = Board.draw(game, { playable: false });
    $("tour-clocks").innerHTML = "<tr><th>Side</th><th>Player</th><th>Move clock</th><th>Used</th></tr>" +
      ["first", "second"].map((side, i) => `<tr class="${side === toMove ? "to-move" : ""}"><td class="side">${Board.swatch(game, side)}${side}</td>` +
        `<td>${esc(current.players[i])}</td>` +
        Clocks.cells(event.per_move_ms, current.used_ms[i], current.thinking_ms, side === toMove) + "</tr>").join("");
    Clocks.start();
  }

  // Shows a `tournament` event.
  function take(event) {
    $("tour-live").hidden = false;
    $("tour-status").textContent = event.over
      ? `Tournament over: ${event.games_played} of ${event.games_total} games played.`
      : `Tournament under way: ${event.games_played} of ${event.games_total} games played.`;
    Games.take(event);
    renderCurrent(event);
    if ("elo_chart" in event) Charts.show($("tour-elo"), event.elo_chart);
    if (event.standings) {
      $("standings").innerHTML = standingsTable(event.standings);
      $("crosstable").innerHTML = crosstable(event.standings.crosstable);
    }
  }

  $("tour-preset").addEventListener("change", presetChosen);
  $("tour-setup").addEventListener("submit", start);
  return { fill, take };
})();
