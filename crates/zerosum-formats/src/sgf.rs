//! SGF FF\[4\] for Hex and Atoll, as HexGui writes and reads it.
//!
//! ```text
//! (;FF[4]GM[11]AP[zerosum:0.1.0]SZ[11]ZS[hex:11:swap-sides]PB[engine]PW[quasi]RE[B+]
//! C[first player joins its sides]
//! ;B[f6];W[swap-sides];W[e7];B[d4])
//! ```
//!
//! - `GM[11]` (Hex) for both games: Atoll is played on the same grid of hexagons with the
//!   same cell names, and has no game number of its own; `SZ[W]` or `SZ[W:H]` (HexGui's form).
//! - Moves: `B[cell]` / `W[cell]` by the colour of the stone (`a1` top-left, HexGui's names),
//!   `swap-sides` / `swap-pieces` as the Hex SGF specification and HexGui spell them (Atoll's
//!   `swap`, which exchanges colours, is written `swap-sides`); after `swap-sides` the
//!   colours exchange, so White moves twice in a row; `resign` ends the game.
//! - Root: `ZS[spec]` (private: our game spec, which names the Atoll board and the swap rule),
//!   `PB`/`PW` the players with Black and White at the start, `RE` (`B+`, `W+`, `0` for a
//!   draw, `B+R`/`B+T`/`B+F` for a resignation, a time loss, a forfeit), `C` the reason.
//!
//! Reading takes the main line of the first game tree (the first variation at each branch)
//! and ignores properties it does not know; setup stones (`AB`, `AW`, `AE`) are refused.

use zerosum_core::{Outcome, Side};
use zerosum_games::atoll::AtollSpec;
use zerosum_games::hex::{self, HexSpec, SwapRule};
use zerosum_games::GameSpec;

use crate::text::{black_moves, check_size, line_at, LineCounter};
use crate::{FormatError, GameFile};

/// Writes `game` (Hex or Atoll).
pub fn write(game: &GameFile) -> Result<String, String> {
    let (width, height) = grid_size(&game.spec)
        .ok_or_else(|| format!("SGF holds Hex and Atoll games, not {}", game.spec))?;
    let mut root = format!(
        "(;FF[4]GM[11]AP[zerosum:{}]SZ[{}]ZS[{}]",
        env!("CARGO_PKG_VERSION"),
        match width == height {
            true => width.to_string(),
            false => format!("{width}:{height}"),
        },
        escape(&game.spec.to_string())
    );
    // PB/PW name the players who started with Black and White.
    for (property, name) in [("PB", &game.first_name), ("PW", &game.second_name)] {
        if let Some(name) = name {
            root.push_str(&format!("{property}[{}]", escape(name)));
        }
    }
    if let Some(outcome) = game.outcome {
        root.push_str(&format!("RE[{}]", result_value(game, outcome)));
    }
    if let Some(reason) = &game.reason {
        root.push_str(&format!("C[{}]", escape(reason)));
    }
    let mut text = root;
    text.push('\n');
    for (ply, mv) in game.moves.iter().enumerate() {
        let colour = if black_moves(&game.spec, &game.moves, ply) {
            'B'
        } else {
            'W'
        };
        let written = match mv.as_str() {
            "swap" if is_atoll(&game.spec) => "swap-sides",
            mv => mv,
        };
        text.push_str(&format!(";{colour}[{written}]"));
        if ply % 10 == 9 {
            text.push('\n');
        }
    }
    text.push_str(")\n");
    Ok(text)
}

/// `B+`, `W+` or `0`, with `R` (resignation), `T` (time) or `F` (other forfeits) after the
/// sign when the game did not end on the board.
fn result_value(game: &GameFile, outcome: Outcome) -> String {
    let Outcome::Win(side) = outcome else {
        return "0".into();
    };
    // The winner's colour at the end of the game.
    let end = game.moves.len();
    let to_move_black = black_moves(&game.spec, &game.moves, end);
    let winner_moves_next = Side::at_ply(end) == side;
    let black = to_move_black == winner_moves_next;
    let sign = if black { "B+" } else { "W+" };
    let how = match game.termination.as_deref() {
        Some("resignation") => "R",
        Some("timeout") => "T",
        Some("illegal_move" | "crash" | "stalled") => "F",
        _ => "",
    };
    format!("{sign}{how}")
}

/// `(columns, rows)` of a Hex or Atoll board.
/// Whether SGF holds games of `spec` (Hex and Atoll).
pub(crate) fn holds(spec: &GameSpec) -> bool {
    spec.params::<HexSpec>().is_some() || is_atoll(spec)
}

fn is_atoll(spec: &GameSpec) -> bool {
    spec.params::<AtollSpec>().is_some()
}

fn grid_size(spec: &GameSpec) -> Option<(usize, usize)> {
    if let Some(&HexSpec { width, height, .. }) = spec.params() {
        return Some((width, height));
    }
    if !is_atoll(spec) {
        return None;
    }
    let game = zerosum_games::new_game(spec).ok()?;
    let json = game.to_json();
    let board = &json["board"];
    Some((
        board["cols"].as_u64()? as usize,
        board["rows"].as_u64()? as usize,
    ))
}

/// Escapes `]` and `\` in a property value.
fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

/// One property of a node: its name, its values, the line it starts on.
struct Property {
    name: String,
    values: Vec<String>,
    line: usize,
}

/// Reads the main line of the first game tree. `spec` (when given) is the game; otherwise the
/// file's `ZS`, else Hex of the file's `SZ` (its swap rule from the swap move, if any).
pub fn read(text: &str, spec: Option<&GameSpec>) -> Result<GameFile, FormatError> {
    check_size(text)?;
    let nodes = parse_main_line(text)?;
    let Some(root) = nodes.first() else {
        return Err(FormatError::new(
            1,
            "no game tree: an SGF file starts with `(;`",
        ));
    };
    let find = |name: &str| root.iter().find(|property| property.name == name);
    if let Some(gm) = find("GM") {
        if gm.values.first().map(|v| v.trim()) != Some("11") {
            return Err(FormatError::new(
                gm.line,
                format!(
                    "GM[{}] is not Hex (GM[11])",
                    gm.values.first().cloned().unwrap_or_default()
                ),
            ));
        }
    }
    let size = find("SZ").map(parse_size).transpose()?;
    // Moves, checked for colour as we go.
    let mut moves = Vec::new();
    let mut colours = Vec::new();
    let mut move_lines = Vec::new();
    let mut resigned = None;
    for node in &nodes {
        for property in node {
            match property.name.as_str() {
                "B" | "W" => {
                    let value = property
                        .values
                        .first()
                        .map(|v| v.trim().to_ascii_lowercase());
                    let value = value.unwrap_or_default();
                    if resigned.is_some() {
                        return Err(FormatError::new(property.line, "a move after `resign`"));
                    }
                    if value == "resign" || value == "forfeit" {
                        resigned = Some((property.name == "B", property.line));
                        continue;
                    }
                    moves.push(value);
                    colours.push((property.name == "B", property.line));
                    move_lines.push(property.line);
                }
                "AB" | "AW" | "AE" => {
                    return Err(FormatError::new(
                        property.line,
                        format!("setup stones ({}) are not supported", property.name),
                    ))
                }
                _ => {}
            }
        }
    }
    let spec = match spec {
        Some(spec) => spec.clone(),
        None => match find("ZS") {
            Some(zs) => zs
                .values
                .first()
                .map(String::as_str)
                .unwrap_or_default()
                .parse::<GameSpec>()
                .map_err(|error| FormatError::new(zs.line, error))?,
            None => {
                let (width, height) = size
                    .map(|(size, _)| size)
                    .ok_or_else(|| FormatError::new(1, "no board size (SZ) and no game given"))?;
                let swap = moves.iter().find_map(|mv| match mv.as_str() {
                    "swap-sides" => Some(SwapRule::Sides),
                    "swap-pieces" => Some(SwapRule::Pieces),
                    _ => None,
                });
                hex::spec(width, height, swap).map_err(|error| FormatError::new(1, error))?
            }
        },
    };
    let grid = grid_size(&spec)
        .ok_or_else(|| FormatError::new(1, format!("SGF holds Hex and Atoll games, not {spec}")))?;
    if let Some(((width, height), line)) = size {
        if (width, height) != grid {
            return Err(FormatError::new(
                line,
                format!(
                    "the board is {width}x{height} but {spec} is {}x{}",
                    grid.0, grid.1
                ),
            ));
        }
    }
    if is_atoll(&spec) {
        for mv in &mut moves {
            if mv == "swap-sides" {
                *mv = "swap".into();
            }
        }
    }
    for (ply, &(black, line)) in colours.iter().enumerate() {
        if black != black_moves(&spec, &moves, ply) {
            let expected = if black { "White" } else { "Black" };
            return Err(FormatError::new(
                line,
                format!("move {} is {expected}'s turn", ply + 1),
            ));
        }
    }
    let outcome = match resigned {
        Some((black, _)) => {
            // The resigning colour loses: find the side that has it now.
            let to_move_black = black_moves(&spec, &moves, moves.len());
            let mover = Side::at_ply(moves.len());
            let loser = if black == to_move_black {
                mover
            } else {
                mover.opponent()
            };
            Some(Outcome::Win(loser.opponent()))
        }
        None => find("RE")
            .and_then(|re| re.values.first())
            .and_then(|value| parse_result(value, &spec, &moves)),
    };
    let name = |property: &str| {
        find(property)
            .and_then(|p| p.values.first())
            .map(|value| value.trim().to_string())
    };
    Ok(GameFile {
        first_name: name("PB"),
        second_name: name("PW"),
        termination: resigned.map(|_| "resignation".to_string()),
        reason: name("C"),
        spec,
        moves,
        move_ms: Vec::new(),
        outcome,
        move_lines,
    })
}

/// `RE`: `B+...`, `W+...` (the colour at the end of the game), `0`/`Draw`; anything else
/// (`?`, `Void`) is no result.
fn parse_result(value: &str, spec: &GameSpec, moves: &[String]) -> Option<Outcome> {
    let value = value.trim();
    if value == "0" || value.eq_ignore_ascii_case("draw") {
        return Some(Outcome::Draw);
    }
    let black = match value.get(..2)?.to_ascii_uppercase().as_str() {
        "B+" => true,
        "W+" => false,
        _ => return None,
    };
    let to_move_black = black_moves(spec, moves, moves.len());
    let mover = Side::at_ply(moves.len());
    Some(Outcome::Win(if black == to_move_black {
        mover
    } else {
        mover.opponent()
    }))
}

/// `SZ[N]` or `SZ[W:H]`, with the property's line.
fn parse_size(property: &Property) -> Result<((usize, usize), usize), FormatError> {
    let value = property.values.first().map(String::as_str).unwrap_or("");
    let number = |text: &str| text.trim().parse::<usize>().ok().filter(|&n| n > 0);
    let size = match value.split_once(':') {
        Some((width, height)) => number(width).zip(number(height)),
        None => number(value).map(|n| (n, n)),
    };
    size.map(|size| (size, property.line)).ok_or_else(|| {
        FormatError::new(
            property.line,
            format!("SZ[{value}] is not a board size (N or W:H)"),
        )
    })
}

/// The nodes of the main line of the first game tree, each a list of properties.
fn parse_main_line(text: &str) -> Result<Vec<Vec<Property>>, FormatError> {
    let bytes = text.as_bytes();
    let mut at = 0;
    let skip_space = |at: &mut usize| {
        while *at < bytes.len() && bytes[*at].is_ascii_whitespace() {
            *at += 1;
        }
    };
    skip_space(&mut at);
    if bytes.get(at) != Some(&b'(') {
        return Err(FormatError::new(
            line_at(text, at),
            "no game tree: an SGF file starts with `(;`",
        ));
    }
    at += 1;
    let mut nodes: Vec<Vec<Property>> = Vec::new();
    let mut lines = LineCounter::default();
    // Depth of the variation we follow; deeper variations after the first are skipped.
    let mut depth = 1usize;
    // Once the main line's first variation closes, the rest of the tree is skipped.
    let mut skipping_from: Option<usize> = None;
    loop {
        skip_space(&mut at);
        let Some(&byte) = bytes.get(at) else {
            return Err(FormatError::new(
                line_at(text, at),
                "the game tree is not closed (missing `)`)",
            ));
        };
        match byte {
            b'(' => {
                depth += 1;
                if skipping_from.is_none() && nodes.is_empty() {
                    return Err(FormatError::new(
                        line_at(text, at),
                        "a variation before the first node",
                    ));
                }
                at += 1;
            }
            b')' => {
                depth -= 1;
                at += 1;
                if depth == 0 {
                    return Ok(nodes);
                }
                // The first variation of the main line ends: skip its siblings.
                if skipping_from.is_none() {
                    skipping_from = Some(depth);
                }
            }
            b';' => {
                at += 1;
                let properties = parse_properties(text, &mut at, &mut lines)?;
                if skipping_from.is_none() {
                    nodes.push(properties);
                }
            }
            _ => {
                return Err(FormatError::new(
                    line_at(text, at),
                    format!(
                        "unexpected `{}` (expected `;`, `(` or `)`)",
                        char::from(byte).escape_default()
                    ),
                ))
            }
        }
    }
}

/// The properties of one node, from `at` (just after its `;`).
fn parse_properties(
    text: &str,
    at: &mut usize,
    lines: &mut LineCounter,
) -> Result<Vec<Property>, FormatError> {
    let bytes = text.as_bytes();
    let mut properties = Vec::new();
    loop {
        while *at < bytes.len() && bytes[*at].is_ascii_whitespace() {
            *at += 1;
        }
        let start = *at;
        while *at < bytes.len() && bytes[*at].is_ascii_alphabetic() {
            *at += 1;
        }
        if start == *at {
            return Ok(properties);
        }
        let name = &text[start..*at];
        if name.len() > 16 || !name.bytes().all(|b| b.is_ascii_uppercase()) {
            return Err(FormatError::new(
                line_at(text, start),
                format!("`{name}` is not a property name (capital letters)"),
            ));
        }
        let line = lines.at(text, start);
        let mut values = Vec::new();
        loop {
            while *at < bytes.len() && bytes[*at].is_ascii_whitespace() {
                *at += 1;
            }
            if bytes.get(*at) != Some(&b'[') {
                break;
            }
            *at += 1;
            values.push(parse_value(text, at)?);
        }
        if values.is_empty() {
            return Err(FormatError::new(
                line,
                format!("property {name} has no value"),
            ));
        }
        properties.push(Property {
            name: name.to_string(),
            values,
            line,
        });
    }
}

/// A value from `at` (just after its `[`) to its closing `]`: `\` escapes the next
/// character, and a `\` before a line end removes it.
fn parse_value(text: &str, at: &mut usize) -> Result<String, FormatError> {
    let start = *at;
    let mut value = String::new();
    let mut chars = text[*at..].char_indices();
    while let Some((offset, c)) = chars.next() {
        match c {
            ']' => {
                *at = start + offset + 1;
                return Ok(value);
            }
            '\\' => match chars.next() {
                Some((_, '\n' | '\r')) => {}
                Some((_, escaped)) => value.push(escaped),
                None => break,
            },
            c => value.push(c),
        }
    }
    Err(FormatError::new(
        line_at(text, start),
        "a property value is not closed (missing `]`)",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(moves: &[&str], spec: &str) -> GameFile {
        GameFile::new(
            spec.parse().unwrap(),
            moves.iter().map(|m| m.to_string()).collect(),
        )
    }

    #[test]
    fn hexgui_files_read() {
        // As HexGui writes them: no ZS, the swap in the moves, a comment with escapes.
        let text =
            "(;FF[4]AP[HexGui:0.9.GIT]GM[11]SZ[5]C[a \\] b]\n;B[c3];W[swap-sides]\n;W[b2])\n";
        let file = read(text, None).unwrap();
        assert_eq!(file.spec, "hex:5:swap-sides".parse().unwrap());
        assert_eq!(file.moves, ["c3", "swap-sides", "b2"]);
        assert_eq!(file.reason.as_deref(), Some("a ] b"));
        assert_eq!(file.move_lines, [2, 2, 3]);
        file.position().unwrap();
    }

    #[test]
    fn written_files_read_back() {
        let mut game = hex(&["c3", "swap-sides", "b2", "d1"], "hex:5:swap-sides");
        game.first_name = Some("a]b".into());
        game.outcome = Some(Outcome::Win(Side::First));
        game.termination = Some("timeout".into());
        let text = write(&game).unwrap();
        assert!(text.contains(";B[c3];W[swap-sides];W[b2];B[d1]"), "{text}");
        // After the swap the first player has White: a win of the first player is W+.
        assert!(text.contains("RE[W+T]"), "{text}");
        let back = read(&text, None).unwrap();
        assert_eq!(back.moves, game.moves);
        assert_eq!(back.outcome, game.outcome);
        assert_eq!(back.first_name.as_deref(), Some("a]b"));
    }

    #[test]
    fn bad_files_name_the_line() {
        for (text, line, words) in [
            ("", 1, "no game tree"),
            ("(;GM[1]SZ[5])", 1, "not Hex"),
            ("(;GM[11]SZ[5]\n;B[c3]\n;B[d4])", 3, "White's turn"),
            ("(;GM[11]SZ[x])", 1, "not a board size"),
            ("(;GM[11]SZ[5]\n;AB[c3])", 2, "setup stones"),
            ("(;GM[11]SZ[5]\n;B[c3", 2, "not closed"),
            ("(;GM[11]SZ[5];B[c3]", 1, "not closed"),
            ("(;GM[11]SZ[5]\n;b[c3])", 2, "not a property name"),
            ("(;GM[11]SZ[5]\n;B)", 2, "no value"),
            ("(;GM[11]\n;B[c3])", 1, "no board size"),
        ] {
            let error = read(text, None).unwrap_err();
            assert_eq!(error.line, line, "{text}: {error}");
            assert!(error.message.contains(words), "{text}: {error}");
        }
        let file = read("(;GM[11]SZ[3]\n;B[c3]\n;W[c3])", None).unwrap();
        let error = file.position().err().unwrap();
        assert_eq!(error.line, 3, "{error}");
    }

    #[test]
    fn variations_follow_the_main_line() {
        let text = "(;GM[11]SZ[5];B[a1](;W[b1];B[c1](;W[d1])(;W[e1]))(;W[e5]))";
        assert_eq!(read(text, None).unwrap().moves, ["a1", "b1", "c1", "d1"]);
    }
}
