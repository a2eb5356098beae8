//! Seeded generation of inputs: mutations of a corpus of valid examples, and random bytes.

use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Largest input the mutator builds from mutations (long-line inputs go beyond it once).
const MAX_INPUT: usize = 64 * 1024;

/// Pieces every grammar of zerosum is sensitive to: numbers at and past the limits of their
/// types, separators, and text that is not what a parser expects.
const COMMON_TOKENS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "100",
    "101",
    "255",
    "256",
    "65536",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999",
    "1e308",
    "1e999",
    "-0",
    "0.0000001",
    "NaN",
    "inf",
    "-inf",
    " ",
    "  ",
    "\t",
    ",",
    ":",
    ";",
    "=",
    "+",
    "-",
    "x",
    "X",
    "#",
    "\"",
    "\\",
    "{",
    "}",
    "[",
    "]",
    "é",
    "\u{202e}",
    "\u{1d538}",
    "\u{feff}",
];

/// Bytes that break text handling: invalid UTF-8, NUL, line ends of every kind.
const SPECIAL_BYTES: &[&[u8]] = &[
    b"\xff",
    b"\xc3",
    b"\xe2\x82",
    b"\xed\xa0\x80",
    b"\x00",
    b"\r",
    b"\n",
    b"\r\n",
    b"\n\r",
    b"\x1b[2J",
    b"\x7f",
];

/// Generates the inputs of one target from its corpus, reproducibly from a seed.
pub struct Mutator {
    rng: ChaCha8Rng,
    corpus: Vec<Vec<u8>>,
    tokens: Vec<&'static [u8]>,
}

impl Mutator {
    /// A mutator over `corpus` (valid examples; at least one) and the target's own grammar
    /// `tokens`, seeded with `seed`.
    pub fn new(seed: u64, corpus: Vec<Vec<u8>>, tokens: &[&'static str]) -> Mutator {
        assert!(!corpus.is_empty(), "a target needs at least one example");
        let tokens = tokens
            .iter()
            .chain(COMMON_TOKENS)
            .map(|t| t.as_bytes())
            .collect();
        Mutator {
            rng: ChaCha8Rng::seed_from_u64(seed),
            corpus,
            tokens,
        }
    }

    /// The next input: a corpus example as is (1 in 32), random bytes (1 in 16), one line
    /// longer than the protocols' 1 MiB cap (1 in 4096), else an example with 1 to 8 mutations.
    pub fn next_input(&mut self) -> Vec<u8> {
        let roll = self.rng.random_range(0..4096u32);
        if roll == 0 {
            return self.huge_line();
        }
        if roll % 16 == 1 {
            return self.random_bytes();
        }
        let mut input = self
            .corpus
            .choose(&mut self.rng)
            .cloned()
            .unwrap_or_default();
        if roll % 32 == 2 {
            return input;
        }
        let count = 1 + self.rng.random_range(0..8);
        for _ in 0..count {
            self.mutate(&mut input);
        }
        input.truncate(MAX_INPUT);
        input
    }

    fn random_bytes(&mut self) -> Vec<u8> {
        let len = if self.rng.random_ratio(1, 8) {
            self.rng.random_range(0..2048)
        } else {
            self.rng.random_range(0..64)
        };
        (0..len).map(|_| self.rng.random()).collect()
    }

    /// An example with a line of more than 1 MiB in it (the cap of the protocol readers).
    fn huge_line(&mut self) -> Vec<u8> {
        let mut input = self
            .corpus
            .choose(&mut self.rng)
            .cloned()
            .unwrap_or_default();
        let at = self.position(&input);
        let byte = *[b'a', b'1', b' ', b'x']
            .choose(&mut self.rng)
            .unwrap_or(&b'a');
        let long = vec![byte; (1 << 20) + self.rng.random_range(1..4096)];
        input.splice(at..at, long);
        input
    }

    /// A position in `input`, its end included.
    fn position(&mut self, input: &[u8]) -> usize {
        self.rng.random_range(0..=input.len())
    }

    /// A range `start..end` of `input` (possibly empty).
    fn range(&mut self, input: &[u8]) -> (usize, usize) {
        let start = self.position(input);
        let len = self.rng.random_range(0..=(input.len() - start).min(32));
        (start, start + len)
    }

    fn mutate(&mut self, input: &mut Vec<u8>) {
        match self.rng.random_range(0..13) {
            0 if !input.is_empty() => {
                let i = self.rng.random_range(0..input.len());
                input[i] ^= 1 << self.rng.random_range(0..8);
            }
            1 if !input.is_empty() => {
                let i = self.rng.random_range(0..input.len());
                input[i] = self.rng.random();
            }
            2 => {
                let at = self.position(input);
                let byte = if self.rng.random_bool(0.5) {
                    self.rng.random_range(0x20..0x7f)
                } else {
                    self.rng.random()
                };
                input.insert(at, byte);
            }
            3 => {
                let (start, end) = self.range(input);
                input.drain(start..end);
            }
            4 => {
                let (start, end) = self.range(input);
                let piece = input[start..end].to_vec();
                let at = self.position(input);
                input.splice(at..at, piece);
            }
            5 | 6 => {
                let token = *self.tokens.choose(&mut self.rng).unwrap_or(&&b""[..]);
                let at = self.position(input);
                if self.rng.random_bool(0.3) {
                    // Replace a piece instead of inserting.
                    let (start, end) = self.range(input);
                    input.splice(start..end, token.iter().copied());
                } else {
                    input.splice(at..at, token.iter().copied());
                }
            }
            7 => {
                // Splice: a piece of another example, inserted or replacing our tail.
                let other = self
                    .corpus
                    .choose(&mut self.rng)
                    .cloned()
                    .unwrap_or_default();
                let (start, end) = self.range(&other);
                let at = self.position(input);
                if self.rng.random_bool(0.5) {
                    input.truncate(at);
                    input.extend_from_slice(&other[start..]);
                } else {
                    input.splice(at..at, other[start..end].iter().copied());
                }
            }
            8 => self.replace_number(input),
            9 => {
                let special = *SPECIAL_BYTES.choose(&mut self.rng).unwrap_or(&&b""[..]);
                let at = self.position(input);
                input.splice(at..at, special.iter().copied());
            }
            10 => {
                // A long run: a byte or a piece repeated up to tens of kilobytes.
                let (start, end) = self.range(input);
                let piece = if start < end {
                    input[start..end].to_vec()
                } else {
                    vec![self.rng.random_range(0x20..0x7f)]
                };
                let times = if self.rng.random_ratio(1, 8) {
                    self.rng.random_range(1..(MAX_INPUT / piece.len()).max(2))
                } else {
                    self.rng.random_range(1..64)
                };
                let at = self.position(input);
                let run: Vec<u8> = piece
                    .iter()
                    .copied()
                    .cycle()
                    .take(piece.len() * times)
                    .collect();
                input.splice(at..at, run);
            }
            11 => {
                let at = self.position(input);
                input.truncate(at);
            }
            _ => {
                // Change the case of a range.
                let (start, end) = self.range(input);
                for byte in &mut input[start..end] {
                    if byte.is_ascii_alphabetic() {
                        *byte ^= 0x20;
                    }
                }
            }
        }
    }

    /// Replaces a run of digits (or inserts at a random place) with a number at a limit.
    fn replace_number(&mut self, input: &mut Vec<u8>) {
        const NUMBERS: &[&str] = &[
            "0",
            "1",
            "-1",
            "2",
            "3",
            "7",
            "15",
            "99",
            "100",
            "101",
            "127",
            "128",
            "1000",
            "65535",
            "4294967296",
            "18446744073709551615",
            "18446744073709551616",
            "340282366920938463463374607431768211456",
            "1e20",
            "0.5",
            "-0.0",
        ];
        let number = NUMBERS.choose(&mut self.rng).unwrap_or(&"0").as_bytes();
        let digits: Vec<usize> = (0..input.len())
            .filter(|&i| input[i].is_ascii_digit() && (i == 0 || !input[i - 1].is_ascii_digit()))
            .collect();
        match digits.choose(&mut self.rng) {
            Some(&start) => {
                let end = (start..input.len())
                    .find(|&i| !input[i].is_ascii_digit())
                    .unwrap_or(input.len());
                input.splice(start..end, number.iter().copied());
            }
            None => {
                let at = self.position(input);
                input.splice(at..at, number.iter().copied());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_inputs() {
        let corpus = vec![b"mnk:3x3x3".to_vec(), b"hex:11".to_vec()];
        let mut a = Mutator::new(7, corpus.clone(), &["mnk"]);
        let mut b = Mutator::new(7, corpus, &["mnk"]);
        for _ in 0..1000 {
            assert_eq!(a.next_input(), b.next_input());
        }
    }
}
