//! Finds a JDK for the Java course-player tests, Chromium with chromedriver for the browser
//! test, tmux for the terminal test of `play`, and Slurm with munge (and root, to start a local
//! cluster) for the Slurm test (see `build-support/detect.rs`).

#[path = "../../build-support/detect.rs"]
mod detect;

fn main() {
    let javac = detect::program(None, &["javac"]);
    detect::require(
        "zerosum_no_javac",
        javac,
        "ZEROSUM_REQUIRE_TOOLS",
        "javac is not on PATH (Debian: apt-get install default-jdk-headless)",
    );
    let chromium = detect::program(
        Some("CHROMIUM"),
        &["chromium", "chromium-browser", "google-chrome"],
    );
    let chromedriver = detect::program(Some("CHROMEDRIVER"), &["chromedriver"]);
    detect::require(
        "zerosum_no_browser",
        chromium && chromedriver,
        "ZEROSUM_REQUIRE_TOOLS",
        "chromium and chromedriver are not both on PATH \
         (Debian: apt-get install chromium chromium-driver)",
    );
    detect::require(
        "zerosum_no_tmux",
        detect::program(None, &["tmux"]),
        "ZEROSUM_REQUIRE_TOOLS",
        "tmux is not on PATH (Debian: apt-get install tmux)",
    );
    // The daemons are in /usr/sbin, which a user's PATH may not hold.
    let slurm = [
        "sbatch",
        "squeue",
        "scancel",
        "sinfo",
        "slurmctld",
        "slurmd",
        "munged",
    ]
    .iter()
    .all(|name| {
        detect::program(None, &[name]) || std::path::Path::new("/usr/sbin").join(name).is_file()
    });
    detect::require(
        "zerosum_no_slurm",
        slurm && is_root(),
        "ZEROSUM_REQUIRE_TOOLS",
        "Slurm cannot run here: it needs slurm-wlm and munge (Debian: apt-get install slurm-wlm \
         munge) and root, to start a local cluster",
    );
}

/// Whether this build runs as root (the Slurm test starts the cluster's daemons).
fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status").is_ok_and(|status| {
        status
            .lines()
            .find_map(|line| line.strip_prefix("Uid:"))
            .and_then(|ids| ids.split_whitespace().next())
            == Some("0")
    })
}
