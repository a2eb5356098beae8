//! What the command-line tests share: running the binary, its output as text, and scratch
//! directories. Every module of this test binary runs in one process, so scratch directories are
//! named by module (`area`) as well as by test.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// Runs `zerosum` with `args` and no input, to the end.
pub fn zerosum(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zerosum"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Runs `zerosum` with `args`, `input` on its standard input, to the end.
pub fn zerosum_with_input(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_zerosum"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// Bytes the binary printed, as text (it prints UTF-8 only).
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// A fresh, empty scratch directory for the test `name` of the module `area`.
pub fn scratch(area: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("zerosum-{area}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
