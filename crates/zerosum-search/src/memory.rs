//! How much memory transposition tables may take: a share of the machine's physical memory,
//! as the kernel reports it in `/proc/meminfo`, so that no setting can make the engine swap
//! or be killed for memory.

use std::fmt;
use std::path::Path;

use zerosum_core::capped_read;

/// Most MB any one table may have, whatever the machine (16 GB).
pub const MAX_TABLE_MB: usize = 16_384;

/// The share of physical memory all the tables of one process may take together: a half.
const SHARE_DIVISOR: u64 = 2;

/// The machine's memory, in MB, as `/proc/meminfo` gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PhysicalMemory {
    /// `MemTotal`.
    pub total_mb: u64,
    /// `MemAvailable`: what can be had now without swapping.
    pub available_mb: u64,
}

impl PhysicalMemory {
    /// The machine's memory, or `None` where `/proc/meminfo` cannot be read (not Linux).
    pub fn read() -> Option<Self> {
        let meminfo = capped_read::read_text_file(Path::new("/proc/meminfo"), 1 << 20).ok()?;
        Self::parse(&meminfo)
    }

    /// Reads the `MemTotal` and `MemAvailable` lines (`MemTotal:  24576000 kB`).
    pub fn parse(meminfo: &str) -> Option<Self> {
        let field = |name: &str| {
            meminfo.lines().find_map(|line| {
                let rest = line.strip_prefix(name)?.strip_prefix(':')?;
                let kb: u64 = rest.trim().trim_end_matches("kB").trim().parse().ok()?;
                Some(kb / 1024)
            })
        };
        let total_mb = field("MemTotal")?;
        let available_mb = field("MemAvailable").unwrap_or(total_mb);
        Some(PhysicalMemory {
            total_mb,
            available_mb,
        })
    }
}

/// A table size that is refused, with the limit it breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableSizeError {
    /// MB asked for, all tables together.
    pub asked_mb: usize,
    /// How many tables share the limit (concurrent games times engines per game).
    pub tables: usize,
    /// The most allowed, all tables together.
    pub limit_mb: usize,
    /// The machine's memory, when known (the limit is then its share).
    pub memory: Option<PhysicalMemory>,
}

impl fmt::Display for TableSizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.asked_mb == 0 {
            return f.write_str("a transposition table needs at least 1 MB");
        }
        let what = if self.tables > 1 {
            format!(
                "{} transposition tables of {} MB at once ({} MB)",
                self.tables,
                self.asked_mb / self.tables,
                self.asked_mb
            )
        } else {
            format!("a transposition table of {} MB", self.asked_mb)
        };
        match self.memory {
            Some(memory) if self.limit_mb < MAX_TABLE_MB * self.tables => write!(
                f,
                "{what} is more than half of this machine's {} MB of memory: at most {} MB{}",
                memory.total_mb,
                self.limit_mb,
                if self.tables > 1 { " in all" } else { "" }
            ),
            _ => write!(f, "{what} is too large: at most {MAX_TABLE_MB} MB a table"),
        }
    }
}

impl std::error::Error for TableSizeError {}

/// Checks that `tables` tables of `table_mb` MB each may exist at once: each at least 1 MB
/// and at most [`MAX_TABLE_MB`], all together at most half of physical memory.
pub fn check_table_mb(table_mb: usize, tables: usize) -> Result<(), TableSizeError> {
    check_table_mb_on(table_mb, tables, PhysicalMemory::read())
}

/// The most MB all the tables of one process may take together on a machine with `memory`:
/// half of its physical memory; `None` when the memory is unknown.
pub fn tables_share_mb(memory: Option<PhysicalMemory>) -> Option<usize> {
    memory.map(|m| usize::try_from(m.total_mb / SHARE_DIVISOR).unwrap_or(usize::MAX))
}

/// [`check_table_mb`] on a machine with `memory` (unknown: only [`MAX_TABLE_MB`] applies).
pub fn check_table_mb_on(
    table_mb: usize,
    tables: usize,
    memory: Option<PhysicalMemory>,
) -> Result<(), TableSizeError> {
    let tables = tables.max(1);
    let share = tables_share_mb(memory).unwrap_or(usize::MAX);
    let limit_mb = share.min(MAX_TABLE_MB.saturating_mul(tables));
    let asked_mb = table_mb.saturating_mul(tables);
    if table_mb == 0 || table_mb > MAX_TABLE_MB || asked_mb > limit_mb {
        return Err(TableSizeError {
            asked_mb,
            tables,
            limit_mb,
            memory,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const MEMINFO: &str = "MemTotal:       24000000 kB\nMemFree:        20000000 kB\n\
                           MemAvailable:   22000000 kB\n";

    #[test]
    fn meminfo_is_read() {
        assert_eq!(
            PhysicalMemory::parse(MEMINFO),
            Some(PhysicalMemory {
                total_mb: 23_437,
                available_mb: 21_484
            })
        );
        assert_eq!(PhysicalMemory::parse("nothing"), None);
    }

    #[test]
    fn tables_are_capped_at_half_of_physical_memory() {
        let memory = PhysicalMemory::parse(MEMINFO);
        assert!(check_table_mb_on(11_000, 1, memory).is_ok());
        let error = check_table_mb_on(16_384, 1, memory).unwrap_err();
        assert_eq!(error.limit_mb, 11_718);
        assert_eq!(
            error.to_string(),
            "a transposition table of 16384 MB is more than half of this machine's 23437 MB \
             of memory: at most 11718 MB"
        );
        let error = check_table_mb_on(4_000, 4, memory).unwrap_err();
        assert!(error
            .to_string()
            .contains("4 transposition tables of 4000 MB"));
        assert!(check_table_mb_on(0, 1, memory).is_err());
        assert!(check_table_mb_on(16_385, 1, None).is_err());
        assert!(check_table_mb_on(16_384, 1, None).is_ok());
    }
}
