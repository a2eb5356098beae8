//! What finished games say: points under a scoring scheme, Elo with its error bar, the SPRT
//! of a match and its judge, the standings and crosstable, and their charts.

pub mod elo;
pub mod judge;
pub mod report;
pub mod scoring;
pub mod sprt;
pub mod standings;
