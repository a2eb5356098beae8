//! Warnings about an engine's setup that do not stop it from playing (a refused
//! `time_settings`, an `ERROR` line the engine printed): one line on standard error,
//! `warning: NAME: WHAT`, at most once per engine and warning in the whole run, however many
//! games the engine plays.

use std::collections::HashSet;
use std::io::Write;
use std::sync::Mutex;

/// Most distinct warnings remembered (and so printed) in a run.
const MAX_WARNINGS: usize = 256;

/// Prints `warning: {engine}: {what}` unless it was printed before; `what` is peer text
/// already quoted by the caller where it quotes the engine.
pub(crate) fn warn_once(engine: &str, what: &str) {
    static PRINTED: Mutex<Option<HashSet<(String, String)>>> = Mutex::new(None);
    let mut printed = PRINTED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let printed = printed.get_or_insert_with(HashSet::new);
    if printed.len() < MAX_WARNINGS && printed.insert((engine.to_string(), what.to_string())) {
        // A standard error nobody reads any more loses the warning, not the game (`eprintln!`
        // would panic in the player's thread, which forfeits).
        let _ = writeln!(std::io::stderr(), "warning: {engine}: {what}");
    }
}
