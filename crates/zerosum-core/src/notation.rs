//! Cell names shared by the grid games: column letters (`a`..`z`, then `aa`, `ab`, ...) and
//! 1-based numbers.

/// The letters of a 0-based column: 0 is `a`, 25 is `z`, 26 is `aa`, 27 is `ab` (bijective
/// base 26, as spreadsheet columns). `upper` selects capitals.
pub fn letters(index: usize, upper: bool) -> String {
    let base = if upper { b'A' } else { b'a' };
    // Digit by digit from the last, `n` counting from 0 within the remaining width (no `+ 1`
    // that would overflow at the largest index).
    let mut n = index;
    let mut out = vec![base + (n % 26) as u8];
    while n >= 26 {
        n = n / 26 - 1;
        out.push(base + (n % 26) as u8);
    }
    out.reverse();
    String::from_utf8(out).expect("ASCII letters")
}

/// The 0-based index of a run of ASCII letters (either case): `a` is 0, `aa` is 26.
/// `None` if the text is empty, holds another character, or is absurdly long.
pub fn parse_letters(text: &str) -> Option<usize> {
    if text.is_empty() || text.len() > 6 {
        return None;
    }
    let mut n: usize = 0;
    for b in text.bytes() {
        if !b.is_ascii_alphabetic() {
            return None;
        }
        n = n * 26 + (b.to_ascii_lowercase() - b'a') as usize + 1;
    }
    Some(n - 1)
}

/// Splits a cell name such as `aa12` into its letters and its number (`("aa", 12)`).
/// `None` unless the text is one or more letters followed by one or more digits.
pub fn split_letters_number(text: &str) -> Option<(&str, usize)> {
    let split = text.find(|c: char| !c.is_ascii_alphabetic())?;
    let (alpha, digits) = text.split_at(split);
    if alpha.is_empty() || digits.is_empty() || digits.len() > 6 {
        return None;
    }
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((alpha, digits.parse().ok()?))
}

/// Parses a cell name `<column letters><1-based row>` into 0-based `(column, row)`, without
/// checking the board size.
pub fn parse_column_row(text: &str) -> Option<(usize, usize)> {
    let (alpha, number) = split_letters_number(text)?;
    let column = parse_letters(alpha)?;
    number.checked_sub(1).map(|row| (column, row))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip() {
        assert_eq!(letters(0, false), "a");
        assert_eq!(letters(25, false), "z");
        assert_eq!(letters(26, false), "aa");
        assert_eq!(letters(27, true), "AB");
        assert_eq!(letters(26 * 27, false), "aaa");
        for i in 0..2_000 {
            assert_eq!(parse_letters(&letters(i, i % 2 == 0)), Some(i));
        }
    }

    #[test]
    fn the_largest_index_has_letters() {
        // Found by fuzzing the Gomocup session: `index + 1` overflowed.
        let last = letters(usize::MAX, false);
        assert_eq!(last.len(), 14);
        assert!(last.bytes().all(|b| b.is_ascii_lowercase()));
        assert_eq!(letters(26 * 26 + 25, false), "zz");
    }

    #[test]
    fn cell_names() {
        assert_eq!(parse_column_row("a1"), Some((0, 0)));
        assert_eq!(parse_column_row("C10"), Some((2, 9)));
        assert_eq!(parse_column_row("aa3"), Some((26, 2)));
        for bad in ["", "a", "1", "a0", "1a", "a1b", "a-1", "é1", "a99999999999"] {
            assert_eq!(parse_column_row(bad), None, "{bad}");
        }
    }
}
