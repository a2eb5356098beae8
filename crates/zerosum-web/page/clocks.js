// Clocks: each side's time left for the move (when its player has a limit) and time used,
// counting on while that side is to move. The server sends times as of its event; the page
// counts from when it drew them, and only while some clock runs.
"use strict";
const Clocks = (() => {
  let timer = null;

  // A running or used time: hundredths under a second (0.05 s), tenths above.
  function format(ms) {
    const seconds = Math.max(0, ms) / 1000;
    return seconds.toFixed(seconds < 1 ? 2 : 1) + " s";
  }

  // A time limit as given, to the millisecond (0.05 s, 0.25 s, 2.0 s).
  function formatLimit(ms) {
    const text = (Math.max(0, ms) / 1000).toFixed(3).replace(/0{1,2}$/, "");
    return text + " s";
  }

  // Two table cells for one side: `limit` its time a move (null: unlimited), `used` its time
  // used so far, `turn` how long the side to move had had the turn at the event, `running`
  // whether this side is to move.
  function cells(limit, used, turn, running) {
    const since = running ? ` data-since="${performance.now() - turn}"` : "";
    const left = limit == null ? "–" :
      `<span class="clock-left" data-limit="${limit}"${since}>${running ? format(limit - turn) : formatLimit(limit)}</span>`;
    return `<td class="clock" title="time left for this move">${left}</td>` +
      `<td class="used" title="time used"><span class="clock-used" data-used="${used}"${since}>${format(running ? used + turn : used)}</span></td>`;
  }

  function tick() {
    const running = document.querySelectorAll("[data-since]");
    if (!running.length) { clearInterval(timer); timer = null; return; }
    const now = performance.now();
    for (const clock of running) {
      const elapsed = now - Number(clock.dataset.since);
      if (clock.dataset.limit !== undefined) {
        const left = Number(clock.dataset.limit) - elapsed;
        clock.textContent = format(left);
        clock.classList.toggle("low", left < Number(clock.dataset.limit) / 5);
      } else {
        clock.textContent = format(Number(clock.dataset.used) + elapsed);
      }
    }
  }

  // Counts the clocks drawn running, until none is left.
  function start() {
    if (!timer && document.querySelector("[data-since]")) timer = setInterval(tick, 100);
  }

  return { cells, start };
})();
