//! Piskvork's PSQ files, for m,n,k games (gomoku and the rest of the family).
//!
//! ```text
//! Piskvorky 15x15, 0:0, 0
//! 8,8,120
//! 9,8,35
//! engine
//! quasi
//! -1
//! ```
//!
//! The header gives the board, columns by rows (`WxH`), then Piskvork's two player levels
//! (0: human, written 0) and which player started (0); then one line per move,
//! `x,y,milliseconds`, the column `x` and the row `y` counted from 1 at the top-left (as
//! Piskvork saves them); then, as Piskvork's tournaments write them, the two players' names
//! and an error code (`-1`: none known). PSQ has no run length K (5 unless the game given says
//! otherwise) and no result: the result is the final position's, so a game lost by a forfeit
//! reads back unfinished.

use zerosum_core::notation::{letters, parse_column_row};
use zerosum_games::mnk::{self, MnkSpec};
use zerosum_games::GameSpec;

use crate::text::check_size;
use crate::{FormatError, GameFile};

/// Piskvork's run length when nothing says otherwise.
const GOMOKU_RUN: usize = 5;

/// Writes `game` (an m,n,k game).
pub fn write(game: &GameFile) -> Result<String, String> {
    let Some(&MnkSpec { rows, cols, .. }) = game.spec.params() else {
        return Err(format!("PSQ holds m,n,k games, not {}", game.spec));
    };
    let mut text = format!("Piskvorky {cols}x{rows}, 0:0, 0\n");
    for (index, mv) in game.moves.iter().enumerate() {
        let (column, row) =
            parse_column_row(mv).ok_or_else(|| format!("`{mv}` is not a cell of {}", game.spec))?;
        let ms = game.move_ms.get(index).copied().unwrap_or(0);
        text.push_str(&format!("{},{},{ms}\n", column + 1, row + 1));
    }
    if let (Some(first), Some(second)) = (&game.first_name, &game.second_name) {
        text.push_str(&format!("{}\n{}\n", one_line(first), one_line(second)));
    }
    text.push_str("-1\n");
    Ok(text)
}

/// A name on one line of its own that cannot pass for a move or an error code.
fn one_line(name: &str) -> String {
    let line: String = name.chars().filter(|c| !c.is_control()).collect();
    let line = line.trim();
    if only_numbers(line) {
        format!("player {line}")
    } else {
        line.to_string()
    }
}

/// True for a line of digits, commas, spaces and minus signs only (a move, an error code), or
/// an empty one.
fn only_numbers(line: &str) -> bool {
    line.bytes()
        .all(|b| b.is_ascii_digit() || b == b',' || b == b' ' || b == b'-')
}

/// Reads a PSQ file. `spec`, when given, must be an m,n,k game of the file's size (its K
/// counts); otherwise the game is `mnk:HxWx5`.
pub fn read(text: &str, spec: Option<&GameSpec>) -> Result<GameFile, FormatError> {
    check_size(text)?;
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.trim()));
    let (_, header) = lines
        .next()
        .ok_or_else(|| FormatError::new(1, "empty file: a PSQ file starts with `Piskvorky WxH`"))?;
    let (width, height) = parse_header(header)?;
    let spec = match spec {
        Some(spec)
            if spec
                .params::<MnkSpec>()
                .is_some_and(|mnk| (mnk.cols, mnk.rows) == (width, height)) =>
        {
            spec.clone()
        }
        Some(spec) => {
            return Err(FormatError::new(
                1,
                format!("the file holds a {width}x{height} board, not {spec}"),
            ))
        }
        None => mnk::spec(height, width, GOMOKU_RUN.min(width.max(height)))
            .map_err(|error| FormatError::new(1, error))?,
    };
    let mut game = GameFile::new(spec, Vec::new());
    let mut tail = Vec::new();
    for (number, line) in lines {
        if line.is_empty() {
            continue;
        }
        // A move is numbers and commas; anything else starts the names and the error code
        // (a name may hold commas).
        if !tail.is_empty() || !line.contains(',') || !only_numbers(line) {
            tail.push((number, line));
            continue;
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let value = |index: usize| -> Result<usize, FormatError> {
            fields[index].parse::<usize>().map_err(|_| {
                FormatError::new(number, format!("`{line}` is not a move (x,y,milliseconds)"))
            })
        };
        if !(2..=3).contains(&fields.len()) {
            return Err(FormatError::new(
                number,
                format!("`{line}` is not a move (x,y,milliseconds)"),
            ));
        }
        let (x, y) = (value(0)?, value(1)?);
        if !(1..=width).contains(&x) || !(1..=height).contains(&y) {
            return Err(FormatError::new(
                number,
                format!("{x},{y} is off the {width}x{height} board (x and y count from 1)"),
            ));
        }
        if fields.len() == 3 {
            game.move_ms.push(value(2)? as u64);
        }
        game.moves.push(format!("{}{y}", letters(x - 1, false)));
        game.move_lines.push(number);
    }
    if game.move_ms.len() != game.moves.len() {
        game.move_ms.clear();
    }
    match tail.as_slice() {
        [] => {}
        [(number, code)] | [_, _, (number, code)] => {
            code.parse::<i64>().map_err(|_| {
                FormatError::new(*number, format!("`{code}` is not an error code (a number)"))
            })?;
            if let [(_, first), (_, second), _] = tail.as_slice() {
                game.first_name = Some(first.to_string());
                game.second_name = Some(second.to_string());
            }
        }
        [(_, first), (_, second)] => {
            game.first_name = Some(first.to_string());
            game.second_name = Some(second.to_string());
        }
        [.., (number, line)] => {
            return Err(FormatError::new(
                *number,
                format!("`{line}` after the moves: expected two names and an error code"),
            ))
        }
    }
    Ok(game)
}

/// `Piskvorky WxH, L1:L2, S` (levels and start player are not used).
fn parse_header(header: &str) -> Result<(usize, usize), FormatError> {
    let bad = || {
        FormatError::new(
            1,
            format!("`{header}` is not a PSQ header (`Piskvorky WxH, 0:0, 0`)"),
        )
    };
    let size = header
        .strip_prefix("Piskvorky ")
        .ok_or_else(bad)?
        .split(',')
        .next()
        .ok_or_else(bad)?;
    let (width, height) = size.trim().split_once('x').ok_or_else(bad)?;
    let side = |text: &str| text.parse::<usize>().ok().filter(|&n| n > 0);
    side(width).zip(side(height)).ok_or_else(bad)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piskvork_files_read() {
        let text =
            "Piskvorky 20x20, 11:11, 0\r\n10,10,0\r\n11,10,16\r\nbrain1.exe\r\nbrain2.exe\r\n0\r\n";
        let game = read(text, None).unwrap();
        assert_eq!(game.spec, "mnk:20x20x5".parse().unwrap());
        assert_eq!(game.moves, ["j10", "k10"]);
        assert_eq!(game.move_ms, [0, 16]);
        assert_eq!(game.first_name.as_deref(), Some("brain1.exe"));
        // Without times or the tail.
        let bare = read("Piskvorky 15x15, 0:0, 0\n8,8\n", None).unwrap();
        assert_eq!(bare.moves, ["h8"]);
        assert!(bare.move_ms.is_empty());
    }

    #[test]
    fn written_files_read_back() {
        let mut game = GameFile::new("mnk:7x9x4".parse().unwrap(), vec!["a1".into(), "i7".into()]);
        game.move_ms = vec![5, 1200];
        game.first_name = Some("12".into());
        game.second_name = Some("engine:time=0.5,depth=12".into());
        let text = write(&game).unwrap();
        assert_eq!(
            text,
            "Piskvorky 9x7, 0:0, 0\n1,1,5\n9,7,1200\nplayer 12\nengine:time=0.5,depth=12\n-1\n"
        );
        let back = read(&text, Some(&game.spec)).unwrap();
        assert_eq!(back.moves, game.moves);
        assert_eq!(back.move_ms, game.move_ms);
        assert_eq!(back.second_name, game.second_name);
        assert!(write(&GameFile::new("connect4".parse().unwrap(), vec![])).is_err());
    }

    #[test]
    fn bad_files_name_the_line() {
        for (text, line, words) in [
            ("", 1, "empty file"),
            ("Gomoku 15x15\n", 1, "not a PSQ header"),
            (
                "Piskvorky 15x15, 0:0, 0\n8,8,0\n16,1,0\n",
                3,
                "off the 15x15 board",
            ),
            ("Piskvorky 15x15, 0:0, 0\n8,x,0\n", 2, "not an error code"),
            ("Piskvorky 15x15, 0:0, 0\n8,-1,0\n", 2, "not a move"),
            ("Piskvorky 15x15, 0:0, 0\n8,8,0,1\n", 2, "not a move"),
            (
                "Piskvorky 15x15, 0:0, 0\n8,8,0\na\nb\nc\nd\n",
                6,
                "after the moves",
            ),
            (
                "Piskvorky 15x15, 0:0, 0\n8,8,0\nzero\n",
                3,
                "not an error code",
            ),
        ] {
            let error = read(text, None).unwrap_err();
            assert_eq!(error.line, line, "{text}: {error}");
            assert!(error.message.contains(words), "{text}: {error}");
        }
        let spec: GameSpec = "gomoku".parse().unwrap();
        let error = read("Piskvorky 20x20, 0:0, 0\n", Some(&spec)).unwrap_err();
        assert!(error.message.contains("20x20"), "{error}");
        let twice = read("Piskvorky 15x15, 0:0, 0\n8,8,0\n8,8,0\n", None).unwrap();
        assert_eq!(twice.position().err().unwrap().line, 3);
    }
}
