//! The user's interrupt (Ctrl-C, Esc, a SIGINT) during a long call. The crate knows nothing
//! of R: the checks ride on its reads of the input. Each read of the R matrices (a column lent
//! in place, a block of rows gathered, `matrix.rs`) counts its cells, and every
//! [`CHECK_EVERY`] cells R is asked whether the user has interrupted (`src/interrupt.c`, R's
//! `R_CheckUserInterrupt` inside `R_ToplevelExec`, so that R's long jump never crosses a Rust
//! frame). When the user has, the read unwinds the computation with the payload
//! [`Interrupted`] (no panic message, no panic hook: `resume_unwind`), every Rust frame drops
//! what it holds, [`guarded`](crate::guarded) catches it, and the reply tells the R wrapper to
//! raise R's interrupt condition once Rust has returned. Cancellation by unwinding is the
//! pattern of salsa's `Cancelled`. What the crate keeps across calls is never in use at a read
//! (its thread-local scratch, nDCG's ideal ranking and DCG's discount table, serves one row
//! already read), so the next call starts clean.

use std::cell::Cell;
use std::panic::resume_unwind;

/// Cells read between two checks: about 4,000 rows of 16 labels, one column of 65,536 rows.
/// `rm_compare` on 800,000 × 10 cells makes about 90 checks a second, each an R context set
/// up and torn down: a negligible cost.
pub const CHECK_EVERY: usize = 1 << 16;

/// The payload that unwinds an interrupted computation.
pub struct Interrupted;

thread_local! {
    /// Whether this thread runs a call that may be interrupted (R's main thread, inside
    /// [`armed`]): a read elsewhere never calls R.
    static ARMED: Cell<bool> = const { Cell::new(false) };
    /// Cells read since the last check.
    static SINCE_CHECK: Cell<usize> = const { Cell::new(0) };
}

extern "C" {
    /// `src/interrupt.c`: 1 when the user has interrupted R (the interrupt is then used up).
    fn rankmetrics_interrupted() -> i32;
}

/// Counts `cells` read from R's memory and, every [`CHECK_EVERY`] cells, asks R whether the
/// user has interrupted; if so, unwinds with [`Interrupted`].
pub fn read(cells: usize) {
    if !ARMED.with(Cell::get) {
        return;
    }
    let since = SINCE_CHECK.with(Cell::get).saturating_add(cells);
    if since < CHECK_EVERY {
        SINCE_CHECK.with(|c| c.set(since));
        return;
    }
    SINCE_CHECK.with(|c| c.set(0));
    // SAFETY: called on R's main thread (ARMED is set only there, by a `.Call`), and the
    // function long-jumps only inside its own R_ToplevelExec.
    if unsafe { rankmetrics_interrupted() } != 0 {
        resume_unwind(Box::new(Interrupted));
    }
}

/// Runs `f` with the checks armed on this thread (disarmed however `f` ends, also by
/// unwinding).
pub fn armed<R>(f: impl FnOnce() -> R) -> R {
    /// Disarms the checks when dropped.
    struct Disarm;
    impl Drop for Disarm {
        fn drop(&mut self) {
            ARMED.with(|a| a.set(false));
        }
    }
    ARMED.with(|a| a.set(true));
    SINCE_CHECK.with(|c| c.set(0));
    let _disarm = Disarm;
    f()
}
