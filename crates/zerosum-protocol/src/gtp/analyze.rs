//! GUI analysis commands: the list GoGui (`gogui-analyze_commands`) and HexGui
//! (`hexgui-analyze_commands`) read, one `type/label/command` line each, and the replies in
//! the formats those types display:
//!
//! - `string` (`zerosum-evaluate`, `zerosum-solve`): one line, shown in the status bar;
//! - `var` (`zerosum-pv`): moves separated by spaces, the side to move first, drawn as
//!   numbered stones;
//! - `pspairs` (`zerosum-solve-moves`): `point label` pairs, the label written on the point;
//! - `plist` (`all_legal_moves %c`): points, marked on the board.
//!
//! Both GUIs read the same types, so both lists are the same.

use zerosum_games::DynGame;

use super::colour::Colour;
use super::grid::Grid;
use super::vertex::Vertices;
use crate::{EngineAnalysis, EngineSolution, Verdict};

/// The analysis commands, as `gogui-analyze_commands` and `hexgui-analyze_commands` list them.
pub const ANALYZE_COMMANDS: &[&str] = &[
    "string/Evaluation/zerosum-evaluate",
    "var/Principal Variation/zerosum-pv",
    "string/Solve/zerosum-solve",
    "pspairs/Solver Best Moves/zerosum-solve-moves",
    "plist/Legal Moves/all_legal_moves %c",
    "string/Show Board/showboard",
];

/// `zerosum-evaluate`: `score +34 depth 9 nodes 120345 pv D4 E5` (the score from the side to
/// move; the line in the controller's notation).
pub fn evaluation(game: &dyn DynGame, vertices: Vertices, analysis: &EngineAnalysis) -> String {
    let pv = vertices.write_line(game, &analysis.pv);
    format!(
        "score {} depth {} nodes {} pv {}",
        analysis.score,
        analysis.depth,
        analysis.nodes,
        pv.join(" ")
    )
    .trim_end()
    .to_string()
}

/// `zerosum-pv`: the principal variation in the controller's notation.
pub fn variation(game: &dyn DynGame, vertices: Vertices, analysis: &EngineAnalysis) -> String {
    vertices.write_line(game, &analysis.pv).join(" ")
}

/// `zerosum-solve`: `black wins (win-in-7 for black to move), best: c3 d4`, or
/// `draw, best: b2`.
pub fn solution(game: &dyn DynGame, vertices: Vertices, solution: &EngineSolution) -> String {
    let to_move = Colour::to_move(game);
    let other = match to_move {
        Colour::Black => Colour::White,
        Colour::White => Colour::Black,
    };
    let result = match solution.verdict {
        Verdict::Win => format!("{to_move} wins ({} for {to_move} to move)", solution.text),
        Verdict::Loss => format!("{other} wins ({} for {to_move} to move)", solution.text),
        Verdict::Draw => "draw".into(),
    };
    let grid = Grid::of(game);
    let best: Vec<String> = solution
        .best_moves
        .iter()
        .map(|mv| vertices.write(&grid, mv))
        .collect();
    format!("{result}, best: {}", best.join(" "))
}

/// `zerosum-solve-moves`: each best move that has a point, labelled with the value (`W7` a
/// win in 7 plies, `D` a draw, `L4` a loss in 4; without the number when the solver gives
/// none).
pub fn solution_pairs(game: &dyn DynGame, vertices: Vertices, solution: &EngineSolution) -> String {
    let letter = match solution.verdict {
        Verdict::Win => "W",
        Verdict::Draw => "D",
        Verdict::Loss => "L",
    };
    let digits: String = solution.text.chars().filter(char::is_ascii_digit).collect();
    let label = format!("{letter}{digits}");
    let grid = Grid::of(game);
    solution
        .best_moves
        .iter()
        .filter(|mv| grid.point_of_move(mv).is_some())
        .map(|mv| format!("{} {label}", vertices.write(&grid, mv)))
        .collect::<Vec<_>>()
        .join(" ")
}
