//! The programs and connections the arena talks to (external engines, network clients, the
//! game server): their lines read with deadlines and bounded, their text made safe to show,
//! and the process groups of the engines running now.

#[cfg(unix)]
pub(crate) mod engine_groups;
pub(crate) mod lines;
pub mod text;
