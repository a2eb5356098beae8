//! Text from a peer (an engine, a network client) made safe to show wherever a reason goes:
//! the terminal, the record, the web page. Control characters (C0, DEL, C1) and the
//! invisible direction marks that can reorder a line are written as Rust escapes (`\u{1b}`),
//! and the text is cut to [`MAX_QUOTED_CHARS`] characters with an ellipsis.

/// Most characters of a peer's text quoted in a reason.
pub const MAX_QUOTED_CHARS: usize = 80;

/// True for a character that must not reach a terminal as it is.
fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` with unsafe characters escaped, whatever its length.
pub fn escape(text: &str) -> String {
    text.chars().fold(String::new(), |mut escaped, c| {
        if is_unsafe(c) {
            escaped.extend(c.escape_unicode());
        } else {
            escaped.push(c);
        }
        escaped
    })
}

/// `text` with unsafe characters escaped and cut to [`MAX_QUOTED_CHARS`] characters (escapes
/// count as one each), `…` marking the cut.
pub fn quote(text: &str) -> String {
    match text.char_indices().nth(MAX_QUOTED_CHARS) {
        Some((cut, _)) => escape(&text[..cut]) + "…",
        None => escape(text),
    }
}

/// True if `text` is shown as it is by [`quote`]: short and without unsafe characters.
pub fn is_plain(text: &str) -> bool {
    text.chars().count() <= MAX_QUOTED_CHARS && !text.chars().any(is_unsafe)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_escaped_and_long_text_cut() {
        assert_eq!(quote("a1"), "a1");
        assert_eq!(escape(&"\n".repeat(100)), "\\u{a}".repeat(100));
        assert_eq!(quote("\u{1b}[2Ja1\0"), "\\u{1b}[2Ja1\\u{0}");
        assert_eq!(quote("x\u{9b}y\u{202e}z\t"), "x\\u{9b}y\\u{202e}z\\u{9}");
        let long = "é".repeat(100);
        let cut = quote(&long);
        assert_eq!(cut.chars().count(), MAX_QUOTED_CHARS + 1);
        assert!(cut.ends_with('…'));
        assert_eq!(
            quote(&"é".repeat(MAX_QUOTED_CHARS)),
            "é".repeat(MAX_QUOTED_CHARS)
        );
        assert!(is_plain("swap-sides") && !is_plain("a\u{7f}1") && !is_plain(&long));
    }
}
