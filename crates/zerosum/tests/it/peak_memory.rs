//! The peak memory of a child process, read when it is reaped: a bound on what a misbehaving
//! peer made zerosum hold, measured after the fact, never against a clock.

use std::os::unix::process::ExitStatusExt;
use std::process::{Child, ExitStatus};

/// Waits for `child` to end; its exit status and its peak resident memory in MiB.
///
/// The kernel starts a child's count from the peak of the process that spawned it (the child
/// shares its parent's memory until it executes the program), so a test measuring a child must
/// not hold large buffers of its own before spawning it.
pub fn wait_with_peak_rss(child: &mut Child) -> (ExitStatus, u64) {
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    let mut status = 0;
    // SAFETY: `usage` is a plain struct for the kernel to fill; all zeroes is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: waits for our own child, writing into the two locals above.
        let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if reaped == pid {
            break;
        }
        let error = std::io::Error::last_os_error();
        assert_eq!(
            error.kind(),
            std::io::ErrorKind::Interrupted,
            "wait4: {error}"
        );
    }
    // Linux counts `ru_maxrss` in KiB.
    let peak_mib = u64::try_from(usage.ru_maxrss).unwrap_or(0) / 1024;
    (ExitStatus::from_raw(status), peak_mib)
}

/// As [`wait_with_peak_rss`], but a child still running after `limit` is killed (SIGKILL)
/// first: a hang ends the wait. The child is looked at without reaping it until it has ended,
/// so the signal can only reach it.
pub fn wait_with_peak_rss_within(
    child: &mut Child,
    limit: std::time::Duration,
) -> (ExitStatus, u64) {
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    let deadline = std::time::Instant::now() + limit;
    loop {
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: looks at our own child without reaping it (WNOWAIT), filling `info`.
        let looked = unsafe {
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            )
        };
        // SAFETY: `si_pid` is set when waitid found the child ended (0 otherwise).
        if looked == 0 && unsafe { info.si_pid() } == pid {
            break;
        }
        if std::time::Instant::now() >= deadline {
            // Still unreaped: the pid is still our child's.
            let _ = child.kill();
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    wait_with_peak_rss(child)
}
