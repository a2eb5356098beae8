//! Stopping everything the arena runs, for a process that must end now (a signal, an output
//! that can no longer be written): no record line is written from then on, so a game the stop
//! cuts short is not recorded (lost on forfeit by an engine the stop ended) but played again on
//! resume, and every external engine ends with what it started (its process group, and on Linux what left the group).

use std::sync::atomic::AtomicBool;

/// Stops record writes (after the one under way, if any) and ends every external engine running
/// now (SIGTERM, then SIGKILL after a grace); from then on no engine starts. With `hurry` raised
/// (before or during the call), nothing is waited for: SIGKILL follows SIGTERM at once. Returns
/// how many engines were running. The caller exits the process next.
pub fn stop_everything(hurry: &AtomicBool) -> usize {
    crate::records::record_file::freeze_writes(hurry);
    #[cfg(unix)]
    return crate::peers::engine_groups::end_all(hurry);
    #[cfg(not(unix))]
    return 0;
}

/// How many external engines are running now.
pub fn running_engines() -> usize {
    #[cfg(unix)]
    return crate::peers::engine_groups::running();
    #[cfg(not(unix))]
    return 0;
}
