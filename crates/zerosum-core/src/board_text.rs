//! Lines of a text board: cells of one glyph with spaces between them, where the marked cells
//! (the winning line or chain of a finished game) are framed by brackets set in those spaces.

use std::fmt::{self, Write};

/// One line of a text board under construction.
///
/// A marked cell gets `[` in the space before it and `]` in the space after it; marked cells
/// next to each other on the line share one pair, so a row of four reads ` .[X X X X]. .` and a
/// lone marked cell ` . .[X]. .`. The brackets only take the place of spaces, so the columns of
/// a marked board line up with those of an unmarked one.
#[derive(Clone, Debug, Default)]
pub struct MarkedLine {
    text: String,
    /// Whether the last cell was marked (a `[` is open).
    open: bool,
}

impl MarkedLine {
    /// A line starting with `label` (a row number, an indent).
    pub fn new(label: &str) -> Self {
        MarkedLine {
            text: label.to_string(),
            open: false,
        }
    }

    /// Appends `gap` spaces (at least one is used) and then `glyph`, framed when `marked`.
    pub fn cell(&mut self, gap: usize, glyph: impl fmt::Display, marked: bool) {
        let gap = gap.max(1);
        let start = self.text.len();
        self.text.push_str(&" ".repeat(gap));
        if self.open && !marked {
            self.text.replace_range(start..start + 1, "]");
        }
        if marked && !self.open {
            let end = self.text.len();
            self.text.replace_range(end - 1..end, "[");
        }
        let _ = write!(self.text, "{glyph}");
        self.open = marked;
    }

    /// The line, the last bracket closed, without trailing spaces.
    pub fn finish(mut self) -> String {
        if self.open {
            self.text.push(']');
        }
        self.text.truncate(self.text.trim_end().len());
        self.text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(label: &str, gap: usize, cells: &str, marked: &[usize]) -> String {
        let mut line = MarkedLine::new(label);
        for (index, glyph) in cells.chars().enumerate() {
            line.cell(gap, glyph, marked.contains(&index));
        }
        line.finish()
    }

    #[test]
    fn neighbours_share_one_pair_of_brackets() {
        assert_eq!(line("", 1, ".XXXX..", &[1, 2, 3, 4]), " .[X X X X]. .");
    }

    #[test]
    fn a_lone_cell_is_framed_and_the_columns_stay() {
        let plain = line("3", 1, "..X..", &[]);
        let marked = line("3", 1, "..X..", &[2]);
        assert_eq!(plain, "3 . . X . .");
        assert_eq!(marked, "3 . .[X]. .");
        assert_eq!(plain.len(), marked.len());
    }

    #[test]
    fn wide_gaps_and_the_last_cell() {
        assert_eq!(line("", 2, "XX.O", &[0, 3]), " [X] X  . [O]");
        assert_eq!(line("1", 1, "X.X", &[0, 2]), "1[X].[X]");
    }
}
