// The finished games of the tournament the tab watches: listed newest first, each downloadable
// as its JSON line and in the game files its family has (PGN-style for all, SGF for Hex and
// Atoll, PSQ for m,n,k). The list comes from `GET /games` as games finish, a page at a time.
"use strict";
const Games = (() => {
  const $ = (id) => document.getElementById(id);
  const esc = (text) => Board.esc(String(text));
  // Rows drawn at most; older games are still downloadable from the record.
  const SHOWN = 200;
  let games = { feed: null, list: [], finished: 0, loading: false };

  function links(feed, game) {
    return game.formats.map((format) =>
      `<a href="/game?feed=${encodeURIComponent(feed)}&number=${game.number}&format=${format}" download ` +
      `title="game ${game.number} as ${format === "json" ? "its JSON line" : format.toUpperCase()}">${format.toUpperCase()}</a>`).join("");
  }

  function render() {
    const list = games.list;
    if (!list.length) { $("tour-finished").innerHTML = ""; return; }
    const shown = list.slice(-SHOWN).reverse();
    const caption = list.length > SHOWN
      ? `Finished games (${list.length}; the latest ${SHOWN} shown)` : `Finished games (${list.length})`;
    $("tour-finished").innerHTML = `<table id="finished-games"><caption>${caption}</caption>` +
      "<tr><th>#</th><th>First</th><th>Second</th><th>Game</th><th>Result</th><th>Moves</th><th>Download</th><th>Reason</th></tr>" +
      shown.map((g) => `<tr data-game="${g.number}"><td>${g.number}</td><td>${esc(g.players[0])}</td><td>${esc(g.players[1])}</td>` +
        `<td>${esc(g.spec)}</td><td>${esc(g.result)}</td><td>${g.moves}</td><td>${links(games.feed, g)}</td>` +
        `<td class="reason">${esc(g.reason)}</td></tr>`).join("") + "</table>";
  }

  // Fetches the games finished since the last fetch, until the list has them all.
  async function load(current) {
    current.loading = true;
    try {
      while (current.list.length < current.finished) {
        const response = await fetch(`/games?feed=${encodeURIComponent(current.feed)}&from=${current.list.length}`);
        if (!response.ok) break;
        const page = await response.json();
        if (!page.games.length) break;
        current.list.push(...page.games);
      }
    } catch (e) {
      // The server is gone: the banner says so; the list stays as it was.
    } finally {
      current.loading = false;
    }
    if (current === games) render();
  }

  // Takes a `tournament` event: fetches the games finished since the last one.
  function take(event) {
    if (games.feed !== event.feed) {
      games = { feed: event.feed, list: [], finished: 0, loading: false };
      render();
    }
    games.finished = event.games_played;
    if (!games.loading && games.list.length < games.finished) load(games);
  }

  return { take };
})();
