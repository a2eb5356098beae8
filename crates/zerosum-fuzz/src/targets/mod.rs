//! The fuzz targets: one per parser or protocol, each a function of bytes driving it through
//! its public API, with a corpus of valid examples and the tokens of its grammar.

mod book;
mod downloads;
mod engine_replies;
mod files;
mod hex_gammas;
mod http;
mod lists;
mod moves;
mod net;
mod openings;
mod protocols;
mod records;
mod spec;
mod values;
mod web;
mod weights;

/// What a parser made of an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Read and used (for a session: at least one command succeeded).
    Accepted,
    /// Refused with an error (for a session: no command succeeded).
    Rejected,
}

impl Verdict {
    /// `Accepted` for `Ok`, `Rejected` for `Err`.
    pub fn of<T, E>(result: &Result<T, E>) -> Verdict {
        if result.is_ok() {
            Verdict::Accepted
        } else {
            Verdict::Rejected
        }
    }
}

/// One fuzz target.
pub struct Target {
    /// The name `--target` takes.
    pub name: &'static str,
    /// What it exercises.
    pub about: &'static str,
    /// Valid examples of its input, mutated into the inputs.
    pub corpus: fn() -> Vec<Vec<u8>>,
    /// Words of its grammar, inserted by the mutator.
    pub tokens: &'static [&'static str],
    /// The target runs one input in `share` of the driver's count (1 for plain parsers; more
    /// for targets that open connections or start threads).
    pub share: u64,
    /// Runs one input; a panic or a hang is a finding.
    pub run: fn(&[u8]) -> Verdict,
}

/// Every target, in the order the driver runs them.
pub fn all_targets() -> &'static [Target] {
    static TARGETS: std::sync::OnceLock<Vec<Target>> = std::sync::OnceLock::new();
    TARGETS.get_or_init(|| {
        let mut targets = vec![spec::TARGET];
        targets.extend(moves::targets());
        targets.extend([
            protocols::GTP,
            protocols::GTP_SERVE,
            protocols::GOMOCUP,
            engine_replies::TARGET,
            net::MESSAGES,
            net::CLIENT,
            net::SERVER,
            http::REQUEST,
            web::COMMANDS,
            web::SEARCH_LINE,
            web::SESSION,
            records::RECORD_LINE,
            records::RECORD_FILE,
            lists::ENGINE_LIST,
            values::PLAYER_SPEC,
            values::TIME,
            values::SETTINGS,
            book::TARGET,
            files::SGF,
            files::PSQ,
            files::PGN,
            protocols::GTP_GOGUI,
            openings::TARGET,
            downloads::TARGET,
            weights::TARGET,
            hex_gammas::TARGET,
        ]);
        targets
    })
}

/// The words of `first` and then those of `second`, as one list of `N` (their lengths' sum)
/// made at compile time, for a dictionary that extends a list kept elsewhere.
const fn joined<const N: usize>(
    first: &[&'static str],
    second: &[&'static str],
) -> [&'static str; N] {
    assert!(
        first.len() + second.len() == N,
        "N is the two lists' lengths together"
    );
    let mut words = [""; N];
    let mut i = 0;
    while i < first.len() {
        words[i] = first[i];
        i += 1;
    }
    while i < N {
        words[i] = second[i - first.len()];
        i += 1;
    }
    words
}

/// Splits a corpus given as text into examples, one per entry.
fn corpus_of(examples: &[&str]) -> Vec<Vec<u8>> {
    examples.iter().map(|e| e.as_bytes().to_vec()).collect()
}

/// The input as text, invalid UTF-8 replaced (the way the servers decode their input).
fn text(input: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(input)
}
