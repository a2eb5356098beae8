//! A PGN-style text for every game: tag pairs, then the moves numbered in pairs with the time
//! of each in a comment, then the result. Connect-X, Unstable and our other games have no
//! community file format; this one reads like the PGN of chess tools (cutechess, lichess).
//!
//! ```text
//! [Event "zerosum"]
//! [Spec "connectx:6x7x4"]
//! [First "engine"]
//! [Second "quasi"]
//! [Result "1-0"]
//! [Termination "normal"]
//! [Reason "first player completes a line"]
//!
//! 1. 4 {0.120s} 4 {0.051s} 2. 5 {0.130s} 3 {0.002s} ... 1-0
//! ```
//!
//! `First` and `Second` name the players in move order (chess's `White` and `Black` would
//! mislead: our first player has Black). A turn lost by a forfeit keeps its time as a last
//! comment `{lost 1.310s}`. Files may hold several games; a reader takes the first.

use zerosum_core::{Outcome, Side};
use zerosum_games::GameSpec;

use crate::text::check_size;
use crate::{result_text, FormatError, GameFile};

/// Writes `game`, ending with an empty line (games follow one another in one file).
pub fn write(game: &GameFile) -> String {
    let mut text = String::new();
    let mut tag = |name: &str, value: &str| {
        text.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    };
    tag("Event", "zerosum");
    tag("Spec", &game.spec.to_string());
    if let Some(name) = &game.first_name {
        tag("First", name);
    }
    if let Some(name) = &game.second_name {
        tag("Second", name);
    }
    let result = game.outcome.map_or("*", result_text);
    tag("Result", result);
    if let Some(termination) = &game.termination {
        tag("Termination", termination);
    }
    if let Some(reason) = &game.reason {
        tag("Reason", reason);
    }
    text.push('\n');
    let mut line = String::new();
    let mut push = |word: String, text: &mut String| {
        if !line.is_empty() && line.len() + word.len() > 79 {
            text.push_str(&line);
            text.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    };
    for (ply, mv) in game.moves.iter().enumerate() {
        if ply % 2 == 0 {
            push(format!("{}.", ply / 2 + 1), &mut text);
        }
        push(mv.clone(), &mut text);
        if let Some(ms) = game.move_ms.get(ply) {
            push(format!("{{{}}}", seconds(*ms)), &mut text);
        }
    }
    if let Some(ms) = game.move_ms.get(game.moves.len()) {
        push(format!("{{lost {}}}", seconds(*ms)), &mut text);
    }
    push(result.to_string(), &mut text);
    text.push_str(&line);
    text.push_str("\n\n");
    text
}

/// Milliseconds as `1.310s`.
fn seconds(ms: u64) -> String {
    format!("{}.{:03}s", ms / 1000, ms % 1000)
}

/// Escapes `"` and `\` in a tag value.
fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Reads the first game of the text. `spec`, when given, is the game (the `Spec` tag, if
/// any, must name the same); otherwise the `Spec` tag names it.
pub fn read(text: &str, spec: Option<&GameSpec>) -> Result<GameFile, FormatError> {
    check_size(text)?;
    let mut tags: Vec<(String, String, usize)> = Vec::new();
    let mut number = 0;
    let mut lines = text.lines().peekable();
    // Tag pairs, until the first line that is not one.
    while let Some(line) = lines.peek() {
        let trimmed = line.trim();
        if trimmed.is_empty() && tags.is_empty() {
            lines.next();
            number += 1;
            continue;
        }
        if !trimmed.starts_with('[') {
            break;
        }
        number += 1;
        tags.push(parse_tag(trimmed, number)?);
        lines.next();
    }
    let tag = |name: &str| tags.iter().find(|(tag, _, _)| tag == name);
    let spec = match (spec, tag("Spec")) {
        (Some(spec), Some((_, named, line))) => {
            let named: GameSpec = named
                .parse()
                .map_err(|error| FormatError::new(*line, error))?;
            if &named != spec {
                return Err(FormatError::new(
                    *line,
                    format!("the file holds {named}, not {spec}"),
                ));
            }
            named
        }
        (Some(spec), None) => spec.clone(),
        (None, Some((_, named, line))) => named
            .parse()
            .map_err(|error| FormatError::new(*line, error))?,
        (None, None) => {
            return Err(FormatError::new(
                1,
                "no [Spec \"...\"] tag and no game given",
            ))
        }
    };
    let mut game = GameFile::new(spec, Vec::new());
    game.first_name = tag("First").map(|(_, value, _)| value.clone());
    game.second_name = tag("Second").map(|(_, value, _)| value.clone());
    game.termination = tag("Termination").map(|(_, value, _)| value.clone());
    game.reason = tag("Reason").map(|(_, value, _)| value.clone());
    let tagged_result = match tag("Result") {
        Some((_, value, line)) => Some((
            parse_result(value)
                .ok_or_else(|| FormatError::new(*line, format!("`{value}` is not a result")))?,
            *line,
        )),
        None => None,
    };
    let mut lost_ms = None;
    let mut result = None;
    'lines: for line in lines {
        number += 1;
        let mut rest = line.trim();
        if rest.is_empty() && (result.is_some() || !game.moves.is_empty()) {
            // An empty line after the moves ends the game.
            break;
        }
        while !rest.is_empty() {
            if result.is_some() {
                return Err(FormatError::new(number, "text after the result"));
            }
            if let Some(comment) = rest.strip_prefix('{') {
                let (inside, after) = comment.split_once('}').ok_or_else(|| {
                    FormatError::new(number, "a comment is not closed (missing `}`)")
                })?;
                let (lost, time) = match inside.trim().strip_prefix("lost ") {
                    Some(time) => (true, time),
                    None => (false, inside.trim()),
                };
                let ms = parse_seconds(time).ok_or_else(|| {
                    FormatError::new(
                        number,
                        format!("`{{{inside}}}` is not a time like {{1.310s}}"),
                    )
                })?;
                if lost {
                    lost_ms = Some(ms);
                } else if game.move_ms.len() + 1 == game.moves.len() {
                    game.move_ms.push(ms);
                } else {
                    return Err(FormatError::new(number, "a time without its move"));
                }
                rest = after.trim_start();
                continue;
            }
            let end = rest
                .find(|c: char| c.is_whitespace() || c == '{')
                .unwrap_or(rest.len());
            let (word, after) = rest.split_at(end);
            rest = after.trim_start();
            if let Some(outcome) = parse_result(word) {
                result = Some(outcome);
                continue;
            }
            if word.ends_with('.') && word[..word.len() - 1].bytes().all(|b| b.is_ascii_digit()) {
                continue;
            }
            if lost_ms.is_some() {
                return Err(FormatError::new(number, "a move after the lost turn"));
            }
            game.moves.push(word.to_string());
            game.move_lines.push(number);
            if rest.is_empty() {
                continue 'lines;
            }
        }
    }
    if !game.move_ms.is_empty() && game.move_ms.len() != game.moves.len() {
        return Err(FormatError::new(
            number,
            "some moves have a time and some not",
        ));
    }
    if let Some(ms) = lost_ms {
        if game.move_ms.len() == game.moves.len() {
            game.move_ms.push(ms);
        }
    }
    let result = match result {
        Some(result) => result,
        None => {
            return Err(FormatError::new(
                number.max(1),
                "no result (1-0, 0-1, 1/2-1/2 or *) after the moves",
            ))
        }
    };
    if let Some((tagged, line)) = tagged_result {
        if tagged != result {
            return Err(FormatError::new(
                line,
                "the Result tag differs from the result after the moves",
            ));
        }
    }
    game.outcome = result;
    Ok(game)
}

/// `[Name "value"]`, with `\"` and `\\` escapes.
fn parse_tag(line: &str, number: usize) -> Result<(String, String, usize), FormatError> {
    let bad = || {
        FormatError::new(
            number,
            format!("`{line}` is not a tag pair ([Name \"value\"])"),
        )
    };
    let inner = line
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
        .ok_or_else(bad)?;
    let (name, quoted) = inner.split_once(' ').ok_or_else(bad)?;
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return Err(bad());
    }
    let quoted = quoted.trim();
    let body = quoted
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
        .ok_or_else(bad)?;
    let mut value = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(chars.next().ok_or_else(bad)?),
            '"' => return Err(bad()),
            c => value.push(c),
        }
    }
    Ok((name.to_string(), value, number))
}

/// `1-0`, `0-1`, `1/2-1/2` (a result) or `*` (none); `None` for anything else.
fn parse_result(word: &str) -> Option<Option<Outcome>> {
    match word {
        "1-0" => Some(Some(Outcome::Win(Side::First))),
        "0-1" => Some(Some(Outcome::Win(Side::Second))),
        "1/2-1/2" => Some(Some(Outcome::Draw)),
        "*" => Some(None),
        _ => None,
    }
}

/// `1.310s` as milliseconds (at most three decimals).
fn parse_seconds(text: &str) -> Option<u64> {
    let number = text.strip_suffix('s')?;
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    if whole.is_empty() || whole.len() > 12 || fraction.len() > 3 {
        return None;
    }
    if !whole
        .bytes()
        .chain(fraction.bytes())
        .all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let fraction_ms = format!("{fraction:0<3}").parse::<u64>().ok()?;
    whole
        .parse::<u64>()
        .ok()?
        .checked_mul(1000)?
        .checked_add(fraction_ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_games_read_back() {
        let mut game = GameFile::new(
            "connect4".parse().unwrap(),
            (0..45).map(|i| ((i % 7) + 1).to_string()).collect(),
        );
        game.move_ms = (0..46).map(|i| i * 37).collect();
        game.first_name = Some("a \"quoted\" \\ name".into());
        game.second_name = Some("quasi".into());
        game.outcome = Some(Outcome::Win(Side::First));
        game.termination = Some("timeout".into());
        game.reason = Some("second player timed out".into());
        let text = write(&game);
        assert!(text.contains("[Spec \"connectx:6x7x4\"]"), "{text}");
        assert!(text.contains("1. 1 {0.000s} 2 {0.037s} 2. 3"), "{text}");
        assert!(text.contains("{lost 1.665s} 1-0"), "{text}");
        assert!(text.lines().all(|line| line.len() <= 80), "{text}");
        let mut back = read(&text, None).unwrap();
        back.move_lines.clear();
        assert_eq!(back, game);
    }

    #[test]
    fn bad_files_name_the_line() {
        let spec = "[Spec \"tictactoe\"]\n\n";
        for (text, line, words) in [
            ("1. a1 *", 1, "no [Spec"),
            ("[Spec tictactoe]\n", 1, "not a tag pair"),
            ("[Spec \"nope\"]\n", 1, "nope"),
            (&format!("{spec}1. a1 b2"), 3, "no result"),
            (&format!("{spec}1. a1 {{1s"), 3, "not closed"),
            (&format!("{spec}1. a1 {{fast}} *"), 3, "not a time"),
            (&format!("{spec}1. a1 * b2"), 3, "after the result"),
            (&format!("[Result \"1-0\"]\n{spec}1. a1 *"), 1, "differs"),
        ] {
            let error = read(text, None).unwrap_err();
            assert_eq!(error.line, line, "{text}: {error}");
            assert!(error.message.contains(words), "{text}: {error}");
        }
        let illegal = read(&format!("{spec}1. a1 a1 *"), None).unwrap();
        assert_eq!(illegal.position().err().unwrap().line, 3);
        let other: GameSpec = "connect4".parse().unwrap();
        assert!(read(&format!("{spec}*"), Some(&other)).is_err());
    }
}
