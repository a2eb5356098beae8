// Draws a position (the server's game JSON) as SVG, one drawing per board layout (the game's
// `layout`: squares, columns, hexes, islands, atoms), so that a family with one of these
// layouts is drawn without a line here. Every playable cell or column carries `data-move` (the
// move it plays); stones carry the class of their side; the last move and the winning cells
// are marked without covering a stone (a small ring on the last stone in the other colour, a
// ring around each winning stone; corner marks on an Unstable cell, whose atoms fill it); the
// engine's principal variation is drawn as numbered dashed rings (never filled, so never
// taken for stones). The drawing's class names its family
// (`board-connectx`), which picks its stones' colours.
"use strict";

const Board = (() => {
  const S = 40; // square cell size
  const R = 22; // hexagon radius
  const M = 26; // margin for coordinates
  const SQ3 = Math.sqrt(3);

  function letters(index, upper) {
    let n = index + 1, out = "";
    while (n > 0) { n -= 1; out = String.fromCharCode((upper ? 65 : 97) + (n % 26)) + out; n = Math.floor(n / 26); }
    return out;
  }
  function parseLetters(text) {
    let n = 0;
    for (const ch of text.toLowerCase()) n = n * 26 + (ch.charCodeAt(0) - 96);
    return n - 1;
  }
  // "b3" -> {row: 2, col: 1} (column letters, row number): squares, columns, hexes, islands.
  function colRow(name) {
    const m = /^([a-z]+)(\d+)$/i.exec(name || "");
    return m ? { row: Number(m[2]) - 1, col: parseLetters(m[1]) } : null;
  }
  // "B3" -> {row: 1, col: 2} (row letters, column number): atoms.
  function rowCol(name) {
    const m = /^([a-z]+)(\d+)$/i.exec(name || "");
    return m ? { row: parseLetters(m[1]), col: Number(m[2]) - 1 } : null;
  }
  const esc = (t) => String(t).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
  const svg = (w, h, body, label, family) =>
    `<svg xmlns="http://www.w3.org/2000/svg" class="board-${family}" viewBox="0 0 ${w} ${h}" role="img" aria-label="${esc(label)}">${body}</svg>`;
  const sideOf = (glyph) => (glyph === "X" || glyph === "B" || glyph === "b" ? "first" : "second");

  // The style of `side`'s stones: on Hex and Atoll stones are styled by colour (black as
  // `.first`, white as `.second`), whichever side holds the colour after a swap; elsewhere by side.
  function tone(game, side) {
    const colours = game.board.colours;
    if (!colours) return side;
    return colours[side] === "white" ? "second" : colours[side] === "black" ? "first" : side;
  }

  // `tone` maps a side to the style of its stones.
  function pvStones(pv, firstSide, place, tone) {
    // pv[0] is the move just played; the rest alternate starting with the other side.
    let out = "";
    pv.slice(1).forEach((mv, i) => {
      const side = tone((i % 2 === 0) === (firstSide === "first") ? "second" : "first");
      const at = place(mv);
      if (!at) return;
      out += `<g class="pv"><circle class="pv-stone ${side}" cx="${at.x}" cy="${at.y}" r="${at.r * 0.85}"/>` +
        `<text class="pv-number ${side}" x="${at.x}" y="${at.y}">${i + 1}</text></g>`;
    });
    return out;
  }

  function coordinates(cols, rows, colX, colY, rowX, rowY, colName, rowName) {
    let out = "";
    for (let c = 0; c < cols; c++) out += `<text class="coord" x="${colX(c)}" y="${colY(c)}">${colName(c)}</text>`;
    for (let r = 0; r < rows; r++) out += `<text class="coord" x="${rowX(r)}" y="${rowY(r)}">${rowName(r)}</text>`;
    return out;
  }

  // Squares holding X and O (m,n,k).
  function squares(game, opts) {
    const b = game.board;
    const legal = new Set(opts.playable ? game.legal_moves : []);
    const x = (c) => M + c * S, y = (r) => M + r * S;
    let body = "";
    for (let r = 0; r < b.rows; r++) for (let c = 0; c < b.cols; c++) {
      const name = letters(c) + (r + 1);
      const play = legal.has(name) ? ` playable" data-move="${name}` : "";
      body += `<rect class="cell${play}" x="${x(c)}" y="${y(r)}" width="${S}" height="${S}"/>`;
      const g = b.cells[r][c];
      if (g !== ".") body += `<circle class="stone ${sideOf(g)}" cx="${x(c) + S / 2}" cy="${y(r) + S / 2}" r="${S * 0.4}"/>`;
    }
    body += marks(b, colRow, (p) => ({ x: x(p.col) + S / 2, y: y(p.row) + S / 2 }), S * 0.4,
      (p) => stoneTone(b.cells[p.row] && b.cells[p.row][p.col]));
    body += coordinates(b.cols, b.rows, (c) => x(c) + S / 2, () => M / 2, () => M / 2, (r) => y(r) + S / 2,
      (c) => letters(c), (r) => r + 1);
    if (opts.pv) body += pvStones(opts.pv.moves, opts.pv.side, (mv) => {
      const p = colRow(mv); return p && { x: x(p.col) + S / 2, y: y(p.row) + S / 2, r: S * 0.4 };
    }, (side) => side);
    return svg(2 * M + b.cols * S, 2 * M + b.rows * S, body, `${b.rows} by ${b.cols} board`, game.family);
  }

  // The style of the stone drawn as `glyph` (`null` for none): see `tone`.
  function stoneTone(glyph) {
    return glyph && glyph !== "." && glyph !== " " ? sideOf(glyph) : null;
  }

  // The last move (`b.last_move`) and the winning cells, read by `parse` and centred by
  // `centre`, on stones of radius `r`; `toneAt(p)` is the style of the stone at `p`. The last
  // stone gets a small ring in the other colour, so it stays whole and readable; a winning
  // stone a ring just outside it, over a dark halo that shows on any board.
  function marks(b, parse, centre, r, toneAt) {
    let out = "";
    const last = parse(b.last_move);
    if (last) out += lastMark(centre(last), r, toneAt(last));
    for (const w of b.winning_cells || []) {
      const at = parse(w);
      if (at) out += winMark(centre(at), r);
    }
    return out;
  }

  function lastMark(p, r, tone) {
    return `<circle class="last-mark on-${tone || "none"}" cx="${p.x}" cy="${p.y}" r="${r * 0.32}"/>`;
  }

  function winMark(p, r) {
    return `<circle class="win-halo" cx="${p.x}" cy="${p.y}" r="${r + 2.5}"/>` +
      `<circle class="win-mark" cx="${p.x}" cy="${p.y}" r="${r + 2.5}"/>`;
  }

  // Marks in the four corners of the cell at `x`, `y` of size `S` (Unstable, whose atoms fill
  // the cell): `kind` is `last-mark` or `win-mark`, drawn over a dark halo.
  function cornerMarks(x0, y0, kind) {
    const a = 4, l = 10, e = S - a;
    const path = `M${x0 + a},${y0 + a + l}V${y0 + a}H${x0 + a + l}` +
      `M${x0 + e - l},${y0 + a}H${x0 + e}V${y0 + a + l}` +
      `M${x0 + e},${y0 + e - l}V${y0 + e}H${x0 + e - l}` +
      `M${x0 + a + l},${y0 + e}H${x0 + a}V${y0 + e - l}`;
    const halo = kind === "win-mark" ? "win-halo" : "corner-halo";
    return `<path class="${halo}" d="${path}"/><path class="${kind} corners" d="${path}"/>`;
  }

  // Columns the discs fall down (Connect-X).
  function columns(game, opts) {
    const b = game.board;
    const legal = new Set(opts.playable ? game.legal_moves : []);
    const x = (c) => M + c * S, y = (r) => M + r * S;
    const lastCol = b.last_move ? Number(b.last_move) - 1 : -1;
    let body = `<rect class="connect-frame" x="${M}" y="${M}" width="${b.cols * S}" height="${b.rows * S}" rx="6"/>`;
    for (let r = 0; r < b.rows; r++) for (let c = 0; c < b.cols; c++) {
      const g = b.cells[r][c], cx = x(c) + S / 2, cy = y(r) + S / 2;
      body += `<circle class="hole" cx="${cx}" cy="${cy}" r="${S * 0.38}"/>`;
      if (g !== ".") {
        const falling = c === lastCol && r === b.rows - b.heights[c] ? ` drop" style="--drop:${-(r + 1) * S}px` : "";
        body += `<circle class="stone ${sideOf(g)}${falling}" cx="${cx}" cy="${cy}" r="${S * 0.38}"/>`;
      }
    }
    const top = (c) => (b.heights[c] > 0 ? b.rows - b.heights[c] : -1);
    if (lastCol >= 0) {
      const row = top(lastCol);
      body += lastMark({ x: x(lastCol) + S / 2, y: y(row) + S / 2 }, S * 0.38, stoneTone(b.cells[row][lastCol]));
    }
    body += marks({ winning_cells: b.winning_cells }, colRow, (p) => ({ x: x(p.col) + S / 2, y: y(p.row) + S / 2 }), S * 0.38, () => null);
    for (let c = 0; c < b.cols; c++) {
      const name = String(c + 1);
      if (legal.has(name)) body += `<rect class="column playable" data-move="${name}" x="${x(c)}" y="${M}" width="${S}" height="${b.rows * S}"/>`;
    }
    body += coordinates(b.cols, 0, (c) => x(c) + S / 2, () => M / 2, null, null, (c) => c + 1, null);
    if (opts.pv) {
      const heights = b.heights.slice();
      body += pvStones(opts.pv.moves, opts.pv.side, (mv) => {
        const c = Number(mv) - 1;
        if (!(c >= 0 && c < b.cols) || heights[c] >= b.rows) return null;
        heights[c] += 1;
        return { x: x(c) + S / 2, y: y(b.rows - heights[c]) + S / 2, r: S * 0.38 };
      }, (side) => side);
    }
    return svg(2 * M + b.cols * S, 2 * M + b.rows * S, body, `Connect ${b.k} board, ${b.rows} rows by ${b.cols} columns`, game.family);
  }

  // Hexes and islands (Hex, Atoll): each row shifted half a cell right of the row above (a1
  // top-left); `edges` draws Black's and White's edges (Hex).
  function hexGrid(game, opts, edges) {
    const b = game.board;
    const legal = new Set(opts.playable ? game.legal_moves : []);
    const w = SQ3 * R;
    const cx = (c, r) => M + w / 2 + c * w + r * w / 2 + 6, cy = (c, r) => M + R + r * 1.5 * R + 6;
    const corner = (x, y, k) => { const a = Math.PI / 180 * (60 * k - 90); return [x + R * Math.cos(a), y + R * Math.sin(a)]; };
    const hexagon = (x, y) => [0, 1, 2, 3, 4, 5].map((k) => corner(x, y, k).map((v) => v.toFixed(1)).join(",")).join(" ");
    const islandSide = {};
    for (const island of b.islands || []) for (const cell of island.cells) islandSide[cell] = island.colour === "black" ? "first" : "second";
    let body = "";
    if (edges) {
      const W = b.cols, H = b.rows, d = 7;
      const [tlx, tly] = corner(cx(0, 0), cy(0, 0), 5), [trx, try_] = corner(cx(W - 1, 0), cy(W - 1, 0), 1);
      const [blx, bly] = corner(cx(0, H - 1), cy(0, H - 1), 4), [brx, bry] = corner(cx(W - 1, H - 1), cy(W - 1, H - 1), 2);
      body += `<line class="edge black" x1="${tlx}" y1="${tly - d}" x2="${trx}" y2="${try_ - d}"/>`;
      body += `<line class="edge black" x1="${blx}" y1="${bly + d}" x2="${brx}" y2="${bry + d}"/>`;
      body += `<line class="edge white" x1="${tlx - d}" y1="${tly}" x2="${blx - d}" y2="${bly}"/>`;
      body += `<line class="edge white" x1="${trx + d}" y1="${try_}" x2="${brx + d}" y2="${bry}"/>`;
    }
    for (let r = 0; r < b.rows; r++) for (let c = 0; c < b.cols; c++) {
      const g = b.cells[r][c];
      if (g === " ") continue;
      const name = letters(c) + (r + 1), x = cx(c, r), y = cy(c, r);
      const island = islandSide[name] ? ` island-${islandSide[name]}` : "";
      const play = legal.has(name) ? ` playable" data-move="${name}` : "";
      body += `<polygon class="cell${island}${play}" points="${hexagon(x, y)}"/>`;
      if (g !== ".") body += `<circle class="stone ${sideOf(g)}" cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${R * 0.68}"/>`;
    }
    body += marks(b, colRow, (p) => ({ x: cx(p.col, p.row), y: cy(p.col, p.row) }), R * 0.68,
      (p) => stoneTone(b.cells[p.row] && b.cells[p.row][p.col]));
    body += coordinates(b.cols, b.rows, (c) => cx(c, 0), () => M / 2 - 2, (r) => cx(0, r) - w * 0.85, (r) => cy(0, r),
      (c) => letters(c), (r) => r + 1);
    if (opts.pv) body += pvStones(opts.pv.moves, opts.pv.side, (mv) => {
      const p = colRow(mv); return p && { x: cx(p.col, p.row), y: cy(p.col, p.row), r: R * 0.68 };
    }, (side) => tone(game, side));
    const width = cx(b.cols - 1, b.rows - 1) + w / 2 + M, height = cy(0, b.rows - 1) + R + M;
    return svg(width, height, body, `${game.family} board ${b.cols} by ${b.rows}`, game.family);
  }

  // Cells holding atoms (Unstable).
  function atoms(game, opts) {
    const b = game.board;
    const legal = new Set(opts.playable ? game.legal_moves : []);
    const x = (c) => M + c * S, y = (r) => M + r * S;
    const spots = { 1: [[0, 0]], 2: [[-0.18, 0], [0.18, 0]], 3: [[-0.18, 0.15], [0.18, 0.15], [0, -0.17]] };
    let body = "";
    for (let r = 0; r < b.rows; r++) for (let c = 0; c < b.cols; c++) {
      const n = b.cells[r][c], name = letters(r, true) + (c + 1), owner = n > 0 ? "first" : "second";
      const play = legal.has(name) ? ` playable" data-move="${name}` : "";
      body += `<rect class="cell${n ? " owner-" + owner : ""}${play}" x="${x(c)}" y="${y(r)}" width="${S}" height="${S}"/>`;
      const count = Math.abs(n);
      (spots[count] || spots[3]).slice(0, count).forEach(([dx, dy]) => {
        body += `<circle class="atom ${owner}" cx="${x(c) + S / 2 + dx * S}" cy="${y(r) + S / 2 + dy * S}" r="${S * 0.12}"/>`;
      });
      if (count > 3) body += `<text class="coord" x="${x(c) + S - 7}" y="${y(r) + 8}">${count}</text>`;
      if (count > 0 && count === b.critical[r][c] - 1) {
        body += `<rect class="critical-mark" x="${x(c) + 3}" y="${y(r) + 3}" width="${S - 6}" height="${S - 6}"/>`;
      }
    }
    const last = rowCol(b.last_move);
    if (last) body += cornerMarks(x(last.col), y(last.row), "last-mark");
    for (const w of b.winning_cells || []) {
      const at = rowCol(w);
      if (at) body += cornerMarks(x(at.col), y(at.row), "win-mark");
    }
    body += coordinates(b.cols, b.rows, (c) => x(c) + S / 2, () => M / 2, () => M / 2, (r) => y(r) + S / 2,
      (c) => c + 1, (r) => letters(r, true));
    if (opts.pv) body += pvStones(opts.pv.moves, opts.pv.side, (mv) => {
      const p = rowCol(mv); return p && { x: x(p.col) + S / 2, y: y(p.row) + S / 2, r: S * 0.3 };
    }, (side) => side);
    return svg(2 * M + b.cols * S, 2 * M + b.rows * S, body, `Unstable board ${b.rows} by ${b.cols}`, game.family);
  }

  // The SVG of `game`; `opts.playable` makes legal cells clickable, `opts.pv` ({side, moves})
  // draws a principal variation.
  function draw(game, opts) {
    switch (game.layout) {
      case "squares": return squares(game, opts);
      case "columns": return columns(game, opts);
      case "hexes": return hexGrid(game, opts, true);
      case "islands": return hexGrid(game, opts, false);
      case "atoms": return atoms(game, opts);
      default: return `<p>Cannot draw a ${esc(game.family)} board.</p>`;
    }
  }

  // A small stone of `side` ("first" or "second") as `game`'s board draws it: the legend.
  function swatch(game, side) {
    const shape = game.layout === "atoms" ? "atom" : "stone";
    return `<svg class="swatch board-${esc(game.family)}" viewBox="0 0 20 20" aria-hidden="true">` +
      `<circle class="${shape} ${tone(game, side)}" cx="10" cy="10" r="8"/></svg>`;
  }

  return { draw, esc, swatch };
})();
