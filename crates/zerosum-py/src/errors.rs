//! Our errors as Python exceptions (`zerosum.ZerosumError` and its kinds, with the library's
//! messages), and the boundary that turns a panic into one instead of aborting the caller.

use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use zerosum_core::{MoveError, SpecError};

create_exception!(
    zerosum,
    ZerosumError,
    PyException,
    "Every error of zerosum: a bad spec, an illegal move, a bad argument."
);
create_exception!(
    zerosum,
    GameSpecError,
    ZerosumError,
    "A game spec that names no game, or a game with impossible parameters."
);
create_exception!(
    zerosum,
    IllegalMoveError,
    ZerosumError,
    "A move that cannot be read, is off the board or is not legal in the position."
);
create_exception!(
    zerosum,
    InternalError,
    ZerosumError,
    "A fault inside zerosum (a caught panic): please report it."
);

/// Adds the exception classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("ZerosumError", py.get_type::<ZerosumError>())?;
    m.add("GameSpecError", py.get_type::<GameSpecError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("InternalError", py.get_type::<InternalError>())?;
    Ok(())
}

/// A bad spec as `GameSpecError`.
pub fn spec_error(error: SpecError) -> PyErr {
    GameSpecError::new_err(error.to_string())
}

/// A bad move as `IllegalMoveError`.
pub fn move_error(error: MoveError) -> PyErr {
    IllegalMoveError::new_err(error.to_string())
}

/// Any other error of ours (a bad argument, a failed run) as `ZerosumError`, with its causes.
pub fn error(error: impl std::fmt::Display) -> PyErr {
    ZerosumError::new_err(error.to_string())
}

/// `InternalError` with `message`: a fault inside zerosum.
pub fn internal_error(message: impl Into<String>) -> PyErr {
    InternalError::new_err(message.into())
}

/// A bad argument value (a size, a shape, a range) as Python's `ValueError`.
pub fn value_error(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(message.into())
}

/// Runs `work`, turning a panic into `InternalError` with the panic's message.
pub fn guarded<T>(work: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(work)).unwrap_or_else(|panic| {
        let message = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or("unknown cause");
        Err(InternalError::new_err(format!(
            "internal error in zerosum: {message}"
        )))
    })
}
