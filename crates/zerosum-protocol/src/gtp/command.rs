//! The GTP line codec: cleaning an input line into a [`Command`], and formatting replies.

/// One command: `[id] name [arguments]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// The id the controller gave (the digits as written), echoed in the reply.
    pub id: Option<String>,
    /// The command name, in lower case; empty when the line held only an id.
    pub name: String,
    /// The arguments, split on white space.
    pub args: Vec<String>,
}

/// Cleans a line as GTP asks (control characters other than tab dropped, tabs turned into
/// spaces, everything from `#` on dropped) and splits it; `None` when nothing is left.
pub fn parse_command(line: &str) -> Option<Command> {
    let kept = line.split('#').next().unwrap_or_default();
    let cleaned: String = kept
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    let mut words = cleaned.split_whitespace().peekable();
    let first = *words.peek()?;
    let id = first
        .bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| first.to_string());
    if id.is_some() {
        words.next();
    }
    let name = words.next().unwrap_or_default().to_ascii_lowercase();
    Some(Command {
        id,
        name,
        args: words.map(str::to_string).collect(),
    })
}

/// The reply to a command: `=[id] result` on success, `?[id] message` on failure, ending with
/// an empty line. Empty lines inside the text are dropped (they would end the reply early); a
/// text that starts with a line end keeps it, so that a board starts on its own line.
pub fn format_reply(id: Option<&str>, result: &Result<String, String>) -> String {
    let (mark, text) = match result {
        Ok(text) => ('=', text),
        Err(text) => ('?', text),
    };
    let mut reply = format!("{mark}{}", id.unwrap_or_default());
    let mut lines = text.split('\n').map(|line| line.trim_end_matches('\r'));
    if let Some(first) = lines.next() {
        if !text.is_empty() {
            reply.push(' ');
        }
        reply.push_str(first);
    }
    for line in lines.filter(|line| !line.trim().is_empty()) {
        reply.push('\n');
        reply.push_str(line);
    }
    reply.push_str("\n\n");
    reply
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_cleaned() {
        let command = parse_command("12\tplay  B\x07 e4 # a comment").unwrap();
        assert_eq!(command.id.as_deref(), Some("12"));
        assert_eq!(command.name, "play");
        assert_eq!(command.args, ["B", "e4"]);
        assert_eq!(parse_command("   # only a comment"), None);
        assert_eq!(parse_command(""), None);
        assert_eq!(parse_command("\x01\x02"), None);
        let bare_id = parse_command("7").unwrap();
        assert_eq!(
            (bare_id.id.as_deref(), bare_id.name.as_str()),
            (Some("7"), "")
        );
    }

    #[test]
    fn replies_end_with_an_empty_line() {
        assert_eq!(format_reply(None, &Ok(String::new())), "=\n\n");
        assert_eq!(format_reply(Some("3"), &Ok("2".into())), "=3 2\n\n");
        assert_eq!(format_reply(None, &Err("no".into())), "? no\n\n");
        assert_eq!(
            format_reply(Some("1"), &Ok("\na\n\nb\n".into())),
            "=1 \na\nb\n\n"
        );
    }
}
