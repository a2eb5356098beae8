//! Prompt threads: the threads that must act at a deadline (a seat's thread, which stamps a
//! player's answer and, for the built-in engine, answers its best move at the hard stop) run
//! under the real-time policy where the process may use it, so that a machine busy with other
//! work still gives them a processor the moment they wake. They only wait and hand things on;
//! everything that computes runs on ordinary threads.
//!
//! On Linux the policy is `SCHED_FIFO` at the lowest real-time priority with
//! `SCHED_RESET_ON_FORK`, so that threads and processes started from a prompt thread (an
//! engine's search thread, an external engine) start ordinary. A process may use it as root,
//! with `CAP_SYS_NICE`, or under a real-time limit (`ulimit -r 1`); elsewhere a prompt thread
//! stays ordinary and deadlines rest on the engine's reserves alone.

use std::sync::atomic::{AtomicBool, Ordering};

/// The process was refused the real-time policy once: it does not ask again.
static REFUSED: AtomicBool = AtomicBool::new(false);

/// Makes the calling thread prompt, if the process may; true if it now is.
pub fn make_prompt() -> bool {
    if REFUSED.load(Ordering::Relaxed) {
        return false;
    }
    let prompt = set_policy(true);
    if !prompt {
        REFUSED.store(true, Ordering::Relaxed);
    }
    prompt
}

/// Makes the calling thread ordinary again (always allowed).
pub fn make_ordinary() {
    set_policy(false);
}

/// True when this process's prompt threads run under the real-time policy: it was not
/// refused so far (a first [`make_prompt`] tells for sure).
pub fn prompt_allowed() -> bool {
    !REFUSED.load(Ordering::Relaxed)
}

/// While alive, the calling prompt thread runs ordinary (for work that computes, such as an
/// untimed search or allocating an engine's table); it is prompt again when dropped.
pub struct Ordinary {
    was_prompt: bool,
}

impl Ordinary {
    /// Makes the calling thread ordinary for the guard's life; `was_prompt` says whether to
    /// make it prompt again after.
    pub fn for_now(was_prompt: bool) -> Ordinary {
        if was_prompt {
            make_ordinary();
        }
        Ordinary { was_prompt }
    }
}

impl Drop for Ordinary {
    fn drop(&mut self) {
        if self.was_prompt {
            make_prompt();
        }
    }
}

#[cfg(target_os = "linux")]
fn set_policy(prompt: bool) -> bool {
    let (policy, priority) = if prompt {
        (libc::SCHED_FIFO | libc::SCHED_RESET_ON_FORK, 1)
    } else {
        (libc::SCHED_OTHER, 0)
    };
    let param = libc::sched_param {
        sched_priority: priority,
    };
    // SAFETY: `param` is a valid sched_param; pid 0 is the calling thread.
    unsafe { libc::sched_setscheduler(0, policy, &param) == 0 }
}

#[cfg(not(target_os = "linux"))]
fn set_policy(_prompt: bool) -> bool {
    false
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    fn policy() -> i32 {
        // SAFETY: pid 0 is the calling thread.
        unsafe { libc::sched_getscheduler(0) }
    }

    #[test]
    fn a_prompt_thread_starts_ordinary_threads_and_turns_ordinary_for_work() {
        std::thread::spawn(|| {
            if !make_prompt() {
                // Not allowed here (no root, no CAP_SYS_NICE, no real-time limit).
                assert_eq!(policy(), libc::SCHED_OTHER);
                return;
            }
            assert_eq!(policy() & !libc::SCHED_RESET_ON_FORK, libc::SCHED_FIFO);
            let child = std::thread::spawn(policy).join().unwrap();
            assert_eq!(child, libc::SCHED_OTHER, "a thread it starts is ordinary");
            {
                let _work = Ordinary::for_now(true);
                assert_eq!(policy(), libc::SCHED_OTHER);
            }
            assert_eq!(policy() & !libc::SCHED_RESET_ON_FORK, libc::SCHED_FIFO);
            make_ordinary();
            assert_eq!(policy(), libc::SCHED_OTHER);
        })
        .join()
        .unwrap();
    }
}
