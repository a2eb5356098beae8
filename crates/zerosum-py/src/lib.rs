//! The Python package `zerosum` (module `zerosum._zerosum`, wrapped by the Python sources in
//! `python/zerosum`): bindings only, every rule, search and referee decision is the library's.
//!
//! ```text
//! errors    Python exceptions from our errors; panics caught at the boundary
//! state     Game: one position (moves as text and action ids, observation, perft)
//! vector    VectorEnv: N games of one spec stepped together, GIL released, threads
//! answers   solve, search, analyze: the command line's answers as Python objects
//! arena     Python callables as players; matches and tournaments through the arena's run
//! ```

mod answers;
mod arena;
mod errors;
mod state;
mod vector;

use pyo3::prelude::*;

/// The extension module.
#[pymodule]
fn _zerosum(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    m.add_class::<state::PyGame>()?;
    m.add_function(wrap_pyfunction!(state::games, m)?)?;
    m.add_function(wrap_pyfunction!(state::perft, m)?)?;
    vector::register(m)?;
    answers::register(m)?;
    arena::register(m)?;
    Ok(())
}
