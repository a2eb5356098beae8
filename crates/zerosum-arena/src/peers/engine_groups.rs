//! The process groups of the external engines running now, and how they end.
//!
//! On Unix every engine program starts in a process group of its own ([`start`]), so that
//! ending it ends what it started: the group gets SIGTERM, then SIGKILL after [`TERM_GRACE`]
//! ([`end`] for one engine, when its [`Started`] is dropped at the end of its game; [`end_all`]
//! for every engine when zerosum must stop now). A group still running when zerosum exits (an engine late in the last game,
//! whose player thread still waits for it) gets SIGKILL from an exit handler.
//!
//! A descendant can leave its engine's group (`setsid`, `setpgid`: a daemon). On Linux it stays
//! in reach: the first engine makes zerosum a child subreaper (`PR_SET_CHILD_SUBREAPER`), so
//! such a process, once its parent ends, becomes a child of zerosum instead of init's; and every
//! engine starts with `ZEROSUM_ENGINE=<zerosum's pid>:<n>` in its environment, which its
//! descendants inherit. Ending engine `n` also ends the children of zerosum that carry its mark
//! (each with its own group, round after round while new ones come to zerosum as their parents
//! end), and reaps the ended ones. Out of reach: a process that left the group and cleared or
//! replaced its environment, and a process started outside the engine's descendants (handed to
//! a service manager). Elsewhere (macOS, the BSDs) a process that left its engine's group is
//! out of reach.

use std::process::{Child, Command};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, Once, PoisonError};
use std::time::{Duration, Instant};

/// How long an engine's process group has to end after SIGTERM before it gets SIGKILL.
pub(crate) const TERM_GRACE: Duration = Duration::from_millis(500);

/// The environment variable that marks an engine's processes (see the module's documentation).
pub(crate) const ENGINE_MARK: &str = "ZEROSUM_ENGINE";

/// How often the end of a group is checked while waiting for it.
const POLL: Duration = Duration::from_millis(5);

/// Rounds of ending processes that left an engine's group: each round ends those that came to
/// zerosum when the previous round ended their parents.
#[cfg(target_os = "linux")]
const ESCAPED_ROUNDS: usize = 8;

/// The engines running now.
struct Registry {
    /// The process groups their programs lead.
    running: Vec<libc::pid_t>,
    /// Set by [`end_all`]: no engine starts any more.
    closed: bool,
    /// Engines started so far (the last mark given).
    started: u64,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    running: Vec::new(),
    closed: false,
    started: 0,
});

fn registry() -> MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(PoisonError::into_inner)
}

/// An engine program started by [`start`]: the leader of its process group. Dropped, it ends
/// with everything it started ([`end`]).
pub(crate) struct Started {
    pub child: Child,
    mark: u64,
}

impl Drop for Started {
    fn drop(&mut self) {
        end(self);
    }
}

/// Starts `command` as an engine: in a new process group, marked, and noted as running. An
/// error once [`end_all`] has begun: zerosum is stopping and starts nothing more.
pub(crate) fn start(command: &mut Command) -> std::io::Result<Started> {
    static SETUP: Once = Once::new();
    SETUP.call_once(|| {
        // SAFETY: registers a handler that only makes system calls and reads /proc.
        unsafe { libc::atexit(kill_at_exit) };
        #[cfg(target_os = "linux")]
        // SAFETY: a plain system call on this process. If it fails (a very old kernel), the
        // processes that leave their group are out of reach, as on other systems.
        unsafe {
            libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
        }
    });
    // The lock is held while the program starts: a sweep never sees its leader unregistered.
    let mut registry = registry();
    if registry.closed {
        return Err(std::io::Error::other(
            "zerosum is stopping: no engine starts now",
        ));
    }
    let mark = registry.started + 1;
    command.env(ENGINE_MARK, mark_value(mark));
    std::os::unix::process::CommandExt::process_group(command, 0);
    let child = command.spawn()?;
    registry.started = mark;
    if let Ok(group) = libc::pid_t::try_from(child.id()) {
        registry.running.push(group);
    }
    Ok(Started { child, mark })
}

/// The value of [`ENGINE_MARK`] for engine `mark` of this process.
fn mark_value(mark: u64) -> String {
    format!("{}:{mark}", std::process::id())
}

/// Ends an engine and everything it started: SIGTERM to its group, SIGKILL to what is left of
/// it after [`TERM_GRACE`]; on Linux, then the processes that left its group (see the module's
/// documentation). Returns once they are gone (or after a second grace past SIGKILL) and the
/// leader is reaped.
fn end(engine: &mut Started) {
    let Ok(group) = libc::pid_t::try_from(engine.child.id()) else {
        let _ = engine.child.kill();
        let _ = engine.child.wait();
        return;
    };
    end_targets(&[Target::Group(group)], None, &mut || {
        // Reaped, the leader no longer keeps its group alive.
        let _ = engine.child.try_wait();
    });
    #[cfg(target_os = "linux")]
    for _ in 0..ESCAPED_ROUNDS {
        let escaped = linux::marked_children(Some(engine.mark));
        if escaped.is_empty() {
            break;
        }
        end_targets(&escaped, None, &mut || {});
    }
    // The group is gone: the leader is a zombie at most, so its pid is still ours to kill.
    let _ = engine.child.kill();
    let _ = engine.child.wait();
    let mut registry = registry();
    registry.running.retain(|&running| running != group);
    #[cfg(target_os = "linux")]
    linux::reap_strays(&registry);
}

/// Ends every engine running now and what escaped their groups, as [`end`] does but all at
/// once, and starts no engine from then on. With `hurry` raised (before or during the grace),
/// SIGKILL follows SIGTERM at once. Returns how many engines were running.
pub(crate) fn end_all(hurry: &AtomicBool) -> usize {
    let running = {
        let mut registry = registry();
        registry.closed = true;
        registry.running.clone()
    };
    #[allow(unused_mut)]
    let mut targets: Vec<Target> = running.iter().map(|&group| Target::Group(group)).collect();
    #[cfg(target_os = "linux")]
    targets.extend(linux::marked_children(None));
    end_targets(&targets, Some(hurry), &mut || {});
    #[cfg(target_os = "linux")]
    for _ in 0..ESCAPED_ROUNDS {
        let escaped = linux::marked_children(None);
        if escaped.is_empty() {
            break;
        }
        end_targets(&escaped, Some(hurry), &mut || {});
    }
    running.len()
}

/// How many engines are running now.
pub(crate) fn running() -> usize {
    registry().running.len()
}

/// What a signal is sent to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    /// A process group.
    Group(libc::pid_t),
    /// One process (one that left its engine's group without leading a group of its own).
    Process(libc::pid_t),
}

impl Target {
    fn signal(self, signal: libc::c_int) {
        // SAFETY: plain system calls on processes started for an engine (or their group).
        unsafe {
            match self {
                Target::Group(group) => libc::killpg(group, signal),
                Target::Process(pid) => libc::kill(pid, signal),
            };
        }
    }
}

/// Sends SIGTERM to `targets`, waits until they are gone or [`TERM_GRACE`] has passed (or
/// `hurry` is raised), then sends SIGKILL to those left and waits for them as long again.
/// `poll` runs before each check (to reap a leader).
fn end_targets(targets: &[Target], hurry: Option<&AtomicBool>, poll: &mut dyn FnMut()) {
    if targets.is_empty() {
        return;
    }
    for target in targets {
        target.signal(libc::SIGTERM);
    }
    let hurried = || hurry.is_some_and(|hurry| hurry.load(Ordering::SeqCst));
    if wait_gone(targets, hurried, poll) {
        return;
    }
    for target in targets {
        target.signal(libc::SIGKILL);
    }
    wait_gone(targets, || false, poll);
}

/// Waits until every target is gone (true) or [`TERM_GRACE`] has passed or `give_up` says so
/// (false).
fn wait_gone(targets: &[Target], give_up: impl Fn() -> bool, poll: &mut dyn FnMut()) -> bool {
    let deadline = Instant::now() + TERM_GRACE;
    loop {
        poll();
        if !any_alive(targets) {
            return true;
        }
        if give_up() || Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(POLL);
    }
}

/// Whether a process of `targets` still runs (a zombie does not).
#[cfg(target_os = "linux")]
fn any_alive(targets: &[Target]) -> bool {
    linux::processes().iter().any(|process| {
        !process.zombie
            && targets.iter().any(|target| match *target {
                Target::Group(group) => process.group == group,
                Target::Process(pid) => process.pid == pid,
            })
    })
}

/// Whether a process of `targets` still exists (a zombie nobody reaped yet counts).
#[cfg(not(target_os = "linux"))]
fn any_alive(targets: &[Target]) -> bool {
    targets.iter().any(|target| {
        // SAFETY: signal 0 only checks that the target exists.
        let found = unsafe {
            match *target {
                Target::Group(group) => libc::killpg(group, 0),
                Target::Process(pid) => libc::kill(pid, 0),
            }
        };
        found == 0
    })
}

/// Kills every engine group still running, and on Linux the marked processes that left them:
/// the exit handler. It never waits: a thread holding the registry is about to end its group.
extern "C" fn kill_at_exit() {
    if let Ok(registry) = REGISTRY.try_lock() {
        for &group in &registry.running {
            Target::Group(group).signal(libc::SIGKILL);
        }
    }
    #[cfg(target_os = "linux")]
    for target in linux::marked_children(None) {
        target.signal(libc::SIGKILL);
    }
}

/// Reading the processes of the system in `/proc`.
#[cfg(target_os = "linux")]
mod linux {
    use super::{mark_value, Registry, Target, ENGINE_MARK};

    /// A process as `/proc/PID/stat` describes it.
    pub(super) struct Process {
        pub pid: libc::pid_t,
        pub parent: libc::pid_t,
        pub group: libc::pid_t,
        pub zombie: bool,
    }

    /// Every process of the system (those that end while they are read are left out).
    pub(super) fn processes() -> Vec<Process> {
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        entries
            .filter_map(|entry| {
                let pid: libc::pid_t = entry.ok()?.file_name().to_str()?.parse().ok()?;
                let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
                parse_stat(pid, &stat)
            })
            .collect()
    }

    /// The state, parent and group of `/proc/PID/stat`: `pid (name) state ppid pgrp ...`, the
    /// name being anything up to the last `)`.
    fn parse_stat(pid: libc::pid_t, stat: &str) -> Option<Process> {
        let mut fields = stat.rsplit_once(')')?.1.split_whitespace();
        let state = fields.next()?;
        let parent = fields.next()?.parse().ok()?;
        let group = fields.next()?.parse().ok()?;
        Some(Process {
            pid,
            parent,
            group,
            zombie: matches!(state, "Z" | "X"),
        })
    }

    /// The children of this process, living, that carry the mark of engine `mark` (of any
    /// engine of this process with `None`: the engines' leaders too): each as its own group
    /// when it leads one, else as itself.
    pub(super) fn marked_children(mark: Option<u64>) -> Vec<Target> {
        let own = libc::pid_t::try_from(std::process::id()).unwrap_or(0);
        let wanted = match mark {
            Some(mark) => format!("{ENGINE_MARK}={}", mark_value(mark)),
            None => format!("{ENGINE_MARK}={own}:"),
        };
        processes()
            .into_iter()
            .filter(|p| p.parent == own && !p.zombie)
            .filter(|p| carries(p.pid, wanted.as_bytes(), mark.is_some()))
            .map(|p| match p.group == p.pid {
                true => Target::Group(p.pid),
                false => Target::Process(p.pid),
            })
            .collect()
    }

    /// Whether process `pid`'s environment holds `entry` (the whole entry when `exact`, else
    /// an entry starting with it).
    fn carries(pid: libc::pid_t, entry: &[u8], exact: bool) -> bool {
        let Ok(environment) = std::fs::read(format!("/proc/{pid}/environ")) else {
            return false;
        };
        environment
            .split(|&byte| byte == 0)
            .any(|variable| match exact {
                true => variable == entry,
                false => variable.starts_with(entry),
            })
    }

    /// Reaps the zombie children of this process that came to it from engines (outside its
    /// own group, leading no registered engine group, whose `Child` reaps them): processes
    /// that left an engine's group, or members of a group whose parent ended first.
    pub(super) fn reap_strays(registry: &Registry) {
        let own = libc::pid_t::try_from(std::process::id()).unwrap_or(0);
        // SAFETY: a plain system call on this process.
        let own_group = unsafe { libc::getpgrp() };
        for process in processes() {
            let stray = process.parent == own
                && process.zombie
                && process.group != own_group
                && !registry.running.contains(&process.pid);
            if stray {
                let mut status = 0;
                // SAFETY: reaps one zombie child of this process that no `Child` owns.
                unsafe { libc::waitpid(process.pid, &mut status, libc::WNOHANG) };
            }
        }
    }

    #[cfg(test)]
    mod tests {
        use super::parse_stat;

        #[test]
        fn a_stat_line_gives_state_parent_and_group_whatever_the_name() {
            let process = parse_stat(7, "7 (a) b (c)) Z 1 7 7 0 -1").unwrap();
            assert_eq!(
                (process.parent, process.group, process.zombie),
                (1, 7, true)
            );
            let process = parse_stat(8, "8 (sh) S 3 5 5 0").unwrap();
            assert_eq!(
                (process.parent, process.group, process.zombie),
                (3, 5, false)
            );
            assert!(parse_stat(9, "9 (sh").is_none());
        }
    }
}
