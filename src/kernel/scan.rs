//! The branch-free passes over a whole row that the counting path makes, each compiled for
//! the baseline CPU and for AVX2 (`crate::wide`): the columns of the relevant labels gathered,
//! the labels above and equal to a score counted.

use crate::score::Score;

crate::wide::wide! {
    /// How many labels score above `t`, and how many equal it (`==`, so `-0.0` ties with
    /// `0.0`; scores are finite).
    pub(super) fn count_above_and_equal<T: Score>(scores: &[T], t: T) -> (usize, usize) = count_above_and_equal_body;
}

/// [`count_above_and_equal`]'s loop. Branch-free, so it vectorises; u32 counters (rows have at
/// most u32::MAX labels) keep f32 comparisons four to a register, where u64 ones halve them.
#[inline(always)]
fn count_above_and_equal_body<T: Score>(scores: &[T], t: T) -> (usize, usize) {
    let (mut above, mut equal) = (0u32, 0u32);
    for &s in scores {
        above = above.wrapping_add(u32::from(s > t));
        equal = equal.wrapping_add(u32::from(s == t));
    }
    (above as usize, equal as usize)
}

crate::wide::wide! {
    /// The columns of the non-zero gains, in column order, into `columns`.
    pub(super) fn gather_nonzero<>(gains: &[f64], columns: &mut Vec<u32>) -> () = gather_by_masks | gather_by_steps;
}

/// [`gather_nonzero`] with a 4-bit mask per four gains and a table of where each mask's
/// columns go: no branch on relevance (which is unpredictable), a few instructions per four
/// labels where the compiler forms the mask with one vector compare (AVX2).
#[inline(always)]
pub(super) fn gather_by_masks(gains: &[f64], columns: &mut Vec<u32>) {
    /// For each 4-bit mask, the positions of its set bits, lowest first.
    const PACKED: [[u32; 4]; 16] = {
        let mut table = [[0; 4]; 16];
        let mut mask = 0;
        while mask < 16 {
            let (mut k, mut j) = (0, 0);
            while j < 4 {
                if mask & (1 << j) != 0 {
                    table[mask][k] = j as u32;
                    k += 1;
                }
                j += 1;
            }
            mask += 1;
        }
        table
    };
    columns.resize(gains.len() + 4, 0);
    let mut count = 0;
    let mut fours = gains.chunks_exact(4);
    let mut base = 0u32;
    for four in fours.by_ref() {
        let mask = four
            .iter()
            .enumerate()
            .fold(0, |m, (j, &g)| m | (usize::from(g != 0.0) << j));
        if let Some(slots) = columns.get_mut(count..count + 4) {
            for (slot, &j) in slots.iter_mut().zip(&PACKED[mask]) {
                *slot = base + j;
            }
        }
        count += mask.count_ones() as usize;
        base = base.wrapping_add(4); // rows of over u32::MAX labels are not ranked (`ranked_len`)
    }
    columns.truncate(count);
    gather_by_steps_from(fours.remainder(), base, columns);
}

/// [`gather_nonzero`] one label at a time, branch-free: every label is written, only relevant
/// ones advance the end (faster than a branch per label, and, without a one-instruction mask
/// and population count, than [`gather_by_masks`]).
#[inline(always)]
pub(super) fn gather_by_steps(gains: &[f64], columns: &mut Vec<u32>) {
    columns.clear();
    gather_by_steps_from(gains, 0, columns);
}

/// Appends `first + j` for each non-zero `gains[j]` to `columns`.
#[inline(always)]
fn gather_by_steps_from(gains: &[f64], first: u32, columns: &mut Vec<u32>) {
    let mut count = columns.len();
    columns.resize(count + gains.len() + 1, 0);
    for (j, &g) in gains.iter().enumerate() {
        if let Some(slot) = columns.get_mut(count) {
            *slot = first.wrapping_add(j as u32);
        }
        count += usize::from(g != 0.0);
    }
    columns.truncate(count);
}
