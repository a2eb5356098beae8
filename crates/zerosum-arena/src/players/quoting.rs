//! Quoting in an engine's spec (`cmd="mohex --config a,b",proto=gtp`), shell-like: inside
//! `"..."` a backslash keeps the next `"` or `\`; inside `'...'` nothing is special; outside
//! quotes a backslash keeps the next character. Settings are split at commas outside quotes;
//! a value wholly in one pair of quotes is the text inside them; a command line is then split
//! into words at white space outside quotes. [`quote_value`] and [`command_line`] write the
//! forms these read back.

/// Where a scan of quoted text is: outside quotes, or inside one kind.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Plain,
    Double,
    Single,
}

/// Feeds the characters of `text` to `each` with the state they are read in (`true` for a
/// character kept literally by an escape or a quote, `false` for a quote or escape mark and
/// for plain characters); errs on an unclosed quote or a trailing backslash.
fn scan(text: &str, mut each: impl FnMut(char, bool, bool)) -> Result<(), String> {
    let mut state = State::Plain;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (state, c) {
            (State::Plain, '"') => (state = State::Double, each(c, false, true)).1,
            (State::Plain, '\'') => (state = State::Single, each(c, false, true)).1,
            (State::Double, '"') | (State::Single, '\'') => {
                (state = State::Plain, each(c, false, true)).1
            }
            (State::Plain | State::Double, '\\') => {
                let next = chars
                    .next()
                    .ok_or_else(|| format!("`{text}` ends with a lone backslash"))?;
                if state == State::Double && next != '"' && next != '\\' {
                    // In double quotes only `\"` and `\\` are escapes.
                    each(c, true, false);
                    each(next, true, false);
                } else {
                    each(c, false, true);
                    each(next, true, false);
                }
            }
            (State::Plain, _) => each(c, false, false),
            _ => each(c, true, false),
        }
    }
    match state {
        State::Plain => Ok(()),
        _ => Err(format!("`{text}` has an unclosed quote")),
    }
}

/// `text` cut at the commas outside quotes, each piece as written.
pub(crate) fn split_settings(text: &str) -> Result<Vec<String>, String> {
    let mut pieces = vec![String::new()];
    scan(text, |c, literal, _| {
        if c == ',' && !literal {
            pieces.push(String::new());
        } else {
            pieces.last_mut().expect("never empty").push(c);
        }
    })?;
    Ok(pieces)
}

/// The value `text` means: the text inside a pair of quotes that encloses all of it (its
/// escapes undone), else `text` as written.
pub(crate) fn unquote_value(text: &str) -> Result<String, String> {
    let text = text.trim();
    let enclosed = (text.len() >= 2 && (text.starts_with('"') || text.starts_with('\'')))
        .then(|| {
            // The opening quote closes at the very end, and nowhere before.
            let mut closes = Vec::new();
            let mut index = 0;
            scan(text, |c, _, mark| {
                if mark && (c == '"' || c == '\'') {
                    closes.push(index);
                }
                index += c.len_utf8();
            })
            .map(|()| closes.len() == 2 && closes[1] == text.len() - 1)
        })
        .transpose()?
        .unwrap_or(false);
    if !enclosed {
        return Ok(text.to_string());
    }
    let mut inner = String::new();
    scan(text, |c, literal, _| {
        if literal {
            inner.push(c);
        }
    })?;
    Ok(inner)
}

/// The words of a command line: split at white space outside quotes, quotes and escapes
/// removed (`mohex --config 'a b'` is `mohex`, `--config`, `a b`).
pub(crate) fn split_words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    scan(line, |c, literal, mark| {
        if !literal && !mark && c.is_whitespace() {
            words.extend(word.take());
        } else if literal || !mark {
            word.get_or_insert_with(String::new).push(c);
        } else {
            // A quote starts a word, even an empty one (`''`).
            word.get_or_insert_with(String::new);
        }
    })?;
    words.extend(word);
    Ok(words)
}

/// True for text read back as it is, in a value and in a command line.
fn is_bare(text: &str) -> bool {
    !text.is_empty()
        && !text
            .chars()
            .any(|c| c.is_whitespace() || matches!(c, '"' | '\'' | '\\' | ',' | ';'))
}

/// `text` in double quotes, with `"` and `\` escaped.
fn double_quoted(text: &str) -> String {
    let mut quoted = String::from('"');
    for c in text.chars() {
        if c == '"' || c == '\\' {
            quoted.push('\\');
        }
        quoted.push(c);
    }
    quoted.push('"');
    quoted
}

/// The command line of `words`, which [`split_words`] reads back.
pub(crate) fn command_line(words: &[String]) -> String {
    words
        .iter()
        .map(|word| {
            if is_bare(word) {
                word.clone()
            } else {
                double_quoted(word)
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `value` as a setting's value that [`split_settings`] and [`unquote_value`] read back: as it
/// is when that is safe, else in double quotes.
pub(crate) fn quote_value(value: &str) -> String {
    let safe =
        !value.is_empty() && value.trim() == value && !value.contains([',', '"', '\'', '\\']);
    if safe {
        value.to_string()
    } else {
        double_quoted(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        split_words(line).unwrap()
    }

    #[test]
    fn settings_split_at_commas_outside_quotes() {
        assert_eq!(
            split_settings(r#"cmd="mohex --config a,b",proto=gtp"#).unwrap(),
            [r#"cmd="mohex --config a,b""#, "proto=gtp"]
        );
        assert_eq!(
            split_settings(r"cmd=a\,b,x='1,2'").unwrap(),
            [r"cmd=a\,b", "x='1,2'"]
        );
        assert!(split_settings(r#"cmd="open"#)
            .unwrap_err()
            .contains("unclosed quote"));
        assert!(split_settings(r"cmd=a\")
            .unwrap_err()
            .contains("lone backslash"));
    }

    #[test]
    fn values_and_command_lines_unquote() {
        assert_eq!(
            unquote_value(r#""mohex --config a,b""#).unwrap(),
            "mohex --config a,b"
        );
        assert_eq!(unquote_value(r#""say \"hi\"""#).unwrap(), r#"say "hi""#);
        assert_eq!(unquote_value("'a\\b'").unwrap(), "a\\b");
        // Quotes that do not enclose the whole value stay for the words.
        assert_eq!(unquote_value(r#""a" "b""#).unwrap(), r#""a" "b""#);
        assert_eq!(unquote_value("plain").unwrap(), "plain");
        assert_eq!(
            words(r#"mohex --config 'a b,c' "x\"y" d\ e ''"#),
            ["mohex", "--config", "a b,c", "x\"y", "d e", ""]
        );
        assert_eq!(words("  /bin/bot   --fast "), ["/bin/bot", "--fast"]);
    }

    #[test]
    fn written_forms_read_back() {
        for line in [
            vec!["/bin/bot", "--fast"],
            vec![
                "/my dir/bot",
                "--config",
                "a,b",
                "it's",
                "\"q\"",
                "back\\slash",
                "",
            ],
        ] {
            let line: Vec<String> = line.into_iter().map(String::from).collect();
            let value = quote_value(&command_line(&line));
            let setting = format!("cmd={value},proto=gtp");
            let pieces = split_settings(&setting).unwrap();
            assert_eq!(pieces.len(), 2, "{setting}");
            let read = unquote_value(pieces[0].strip_prefix("cmd=").unwrap()).unwrap();
            assert_eq!(split_words(&read).unwrap(), line, "{setting}");
        }
        assert_eq!(
            command_line(&["/bin/bot".into(), "--fast".into()]),
            "/bin/bot --fast"
        );
        assert_eq!(quote_value("/bin/bot --fast"), "/bin/bot --fast");
        for value in ["a,b;c", " padded", "it's", r#"say "hi" \ "#, "x"] {
            let read = unquote_value(&split_settings(&quote_value(value)).unwrap()[0]).unwrap();
            assert_eq!(read, value);
        }
    }
}
