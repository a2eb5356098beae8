//! Connect-X opening books: the binary file format of `zerosum_games::connect::book`.

use zerosum_core::Game;
use zerosum_games::connect::{Book, ConnectX64};

use super::{Target, Verdict};

pub const TARGET: Target = Target {
    name: "book",
    about: "opening-book files (Book::from_bytes, Book::read); an accepted book writes back to \
            the same bytes and answers probes",
    corpus: || {
        vec![
            book_bytes((6, 7, 4), 0, 0, &[]),
            book_bytes((6, 7, 4), 1, 2, &[(0, 1), (1 << 21, -1), (3 << 20, 2)]),
            book_bytes((4, 5, 4), 2, 2, &[(0, 0), (5, 0), (1 << 10, 0)]),
        ]
    },
    tokens: &[
        "ZSBOOK\r\n",
        "\u{1}\u{0}",
        "\u{6}\u{7}\u{4}",
        "\u{ff}",
        "\u{0}",
    ],
    share: 1,
    run: |input| {
        let book = Book::from_bytes(input);
        // Read from a stream, header first, the same bytes make the same book (or none).
        let streamed = Book::read(&mut &input[..]);
        assert_eq!(
            streamed.as_ref().ok(),
            book.as_ref().ok(),
            "Book::read and Book::from_bytes disagree"
        );
        if let Ok(book) = &book {
            assert_eq!(
                book.to_bytes(),
                input,
                "an accepted book writes back to itself"
            );
            let (rows, cols, k) = book.board();
            let mut game = ConnectX64::new(rows, cols, k);
            let _ = book.value(&game);
            let _ = book.analyze(&game);
            game.play(0);
            let _ = book.value(&game);
        }
        Verdict::of(&book)
    },
};

/// A book file of the given board, depths and `(key, score)` entries (in increasing key
/// order), written by hand after the format of the module documentation.
fn book_bytes(board: (u8, u8, u8), depth: u8, lines: u8, entries: &[(u64, i8)]) -> Vec<u8> {
    let body: Vec<u8> = entries
        .iter()
        .flat_map(|&(key, score)| (key << 8 | score as u8 as u64).to_le_bytes())
        .collect();
    let checksum = body.iter().fold(0xcbf2_9ce4_8422_2325u64, |hash, &b| {
        (hash ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    });
    let mut bytes = b"ZSBOOK\r\n".to_vec();
    bytes.extend_from_slice(&1u16.to_le_bytes());
    bytes.extend_from_slice(&[board.0, board.1, board.2, depth, lines, 0]);
    bytes.extend_from_slice(&(entries.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&checksum.to_le_bytes());
    bytes.extend_from_slice(&body);
    bytes
}
