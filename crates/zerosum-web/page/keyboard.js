// Keyboard entry on a board: the board takes the focus (Tab), the arrow keys move a cursor to
// the nearest playable cell (or column) in their direction as drawn, whatever the grid's shape,
// and Enter or Space plays the move under the cursor. The cursor is that cell, focused, and
// its outline drawn on top of the board (white over a dark halo, never filled), so that the
// stones under it stay readable.
"use strict";
const Keyboard = (() => {
  const DIRECTIONS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  let cursor = null; // the move under the cursor

  function targets(board) { return [...board.querySelectorAll("[data-move]")]; }

  function centre(element) {
    const r = element.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  }

  // Makes the freshly drawn cells of `board` focusable and puts the cursor back on its move;
  // `focused` says whether the board had the focus before it was redrawn.
  function mark(board, focused) {
    const all = targets(board);
    for (const cell of all) {
      cell.setAttribute("tabindex", "-1");
      cell.setAttribute("role", "button");
      cell.setAttribute("aria-label", "play " + cell.dataset.move);
    }
    const current = all.find((cell) => cell.dataset.move === cursor);
    if (current) outline(board, current);
    if (focused) (current || board).focus();
  }

  // Makes `cell` the cursor: its class, and its outline on top of the drawing.
  function outline(board, cell) {
    for (const old of board.querySelectorAll(".cursor")) old.classList.remove("cursor");
    for (const old of board.querySelectorAll(".cursor-halo, .cursor-mark")) old.remove();
    cell.classList.add("cursor");
    const svg = cell.ownerSVGElement;
    if (!svg) return;
    for (const kind of ["cursor-halo", "cursor-mark"]) {
      const shape = cell.cloneNode(false);
      for (const attribute of ["data-move", "tabindex", "role", "aria-label", "style"]) shape.removeAttribute(attribute);
      shape.setAttribute("class", kind);
      svg.appendChild(shape);
    }
  }

  // The cell nearest `from` in direction (dx, dy), preferring cells straight ahead.
  function nearest(all, from, dx, dy) {
    const c = centre(from);
    let best = null, bestScore = Infinity;
    for (const cell of all) {
      const p = centre(cell);
      const ahead = (p.x - c.x) * dx + (p.y - c.y) * dy;
      if (ahead <= 1) continue;
      const aside = Math.abs((p.x - c.x) * dy) + Math.abs((p.y - c.y) * dx);
      const score = ahead + 2 * aside;
      if (score < bestScore) { bestScore = score; best = cell; }
    }
    return best;
  }

  function step(board, dx, dy) {
    const all = targets(board);
    if (!all.length) return;
    const current = all.find((cell) => cell.dataset.move === cursor);
    const next = current ? nearest(all, current, dx, dy) : all[Math.floor(all.length / 2)];
    if (!next) return;
    cursor = next.dataset.move;
    outline(board, next);
    next.focus();
  }

  // Listens for keys on `board`; `play(move)` plays the move under the cursor.
  function attach(board, play) {
    board.addEventListener("keydown", (e) => {
      const direction = DIRECTIONS[e.key];
      if (direction) {
        e.preventDefault();
        e.stopPropagation();
        step(board, ...direction);
      } else if ((e.key === "Enter" || e.key === " ") && cursor &&
                 board.querySelector(`[data-move="${CSS.escape(cursor)}"]`)) {
        e.preventDefault();
        play(cursor);
      }
    });
  }

  return { attach, mark, cursor: () => cursor };
})();
