//! The opening suites shipped in `openings/` read back for the game their header names: every
//! line legal, no game over, every line of the header's plies (or within its range), no line
//! twice.

use std::collections::HashSet;
use std::path::Path;

use zerosum_arena::openings::generate::Plies;
use zerosum_arena::Openings;
use zerosum_games::GameSpec;

#[test]
fn every_shipped_suite_reads_back_for_its_game() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../openings");
    let mut suites = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|ext| ext != "txt") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let header = text.lines().next().unwrap();
        let spec: GameSpec = header
            .strip_prefix("# zerosum openings ")
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or_else(|| panic!("{}: no header", path.display()))
            .parse()
            .unwrap();
        assert!(header.contains(" balanced threshold="), "{header}");
        let plies: Plies = header
            .split_whitespace()
            .find_map(|field| field.strip_prefix("plies="))
            .and_then(|plies| plies.parse().ok())
            .unwrap_or_else(|| panic!("{}: no plies in the header", path.display()));
        let openings = Openings::parse(&text, &path.display().to_string(), &spec, None)
            .unwrap_or_else(|e| panic!("{e}"));
        // At least 50 openings (100 games with colours swapped); the suites judged by
        // self-play on the central square are costly to judge and hold 50.
        assert!(
            openings.len() >= 50,
            "{}: {}",
            path.display(),
            openings.len()
        );
        assert!(
            openings
                .lines
                .iter()
                .all(|line| (plies.min..=plies.max).contains(&line.len())),
            "{}: a line is not of {plies} plies",
            path.display()
        );
        let distinct: HashSet<&Vec<String>> = openings.lines.iter().collect();
        assert_eq!(distinct.len(), openings.len(), "{}", path.display());
        suites += 1;
    }
    assert!(suites >= 9, "{suites} suites in {}", dir.display());
}
