//! The branch-free passes over a whole row that the counting path makes, each compiled for
//! the baseline CPU, for AVX2 and for AVX-512 (`crate::wide`): the columns of the relevant
//! labels gathered, the labels above and equal to a score counted (and, under a tolerance
//! grouping, the scores near it looked for in the same pass).

use crate::score::{Label, Score};

crate::wide::wide! {
    /// How many labels score above `t`, and how many equal it (`==`, so `-0.0` ties with
    /// `0.0`; scores are finite).
    pub(super) fn count_above_and_equal<T: Score>(scores: &[T], t: T) -> (usize, usize) = count_above_and_equal_body;
}

/// [`count_above_and_equal`]'s loop. Branch-free, so it vectorises; u32 counters (rows have at
/// most u32::MAX labels) keep f32 comparisons four to a register, where u64 ones halve them
/// (for f64 scores, docs/performance.md, "Measured choices").
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
    /// [`count_above_and_equal`], and whether some label scores near `t` without equalling
    /// it: above it by less than `eps`, or below it by less than `eps`, the difference taken in
    /// f64 as tolerance grouping ([`TieGrouping::Within`](crate::TieGrouping::Within)) takes it
    /// (scores are finite). One pass for both: a separate check costs a second walk over the
    /// row.
    pub(super) fn count_above_equal_near<T: Score>(scores: &[T], t: T, eps: f64) -> (usize, usize, bool) = count_above_equal_near_body;
}

/// [`count_above_equal_near`]'s loop, branch-free. `|s − t| < eps` and `s ≠ t` is the
/// grouping's test (`s − t < eps` above `t`, `t − s < eps` below): finite `s ≠ t` have a
/// non-zero difference (subnormals keep it from rounding to 0), and `t − s` is `−(s − t)`
/// exactly. Compared in f64 throughout, with u64 counters: the comparisons' lanes are the
/// counters' (u32 ones made every f64 comparison be narrowed first).
#[inline(always)]
fn count_above_equal_near_body<T: Score>(scores: &[T], t: T, eps: f64) -> (usize, usize, bool) {
    let t = t.as_f64();
    let (mut above, mut equal, mut near) = (0u64, 0u64, 0u64);
    for &s in scores {
        let s = s.as_f64();
        above += u64::from(s > t);
        equal += u64::from(s == t);
        near |= u64::from(((s - t).abs() < eps) & (s != t));
    }
    (above as usize, equal as usize, near != 0)
}

crate::wide::wide! {
    /// The columns of the non-zero values, in column order, into `columns`: a row's gains, or
    /// its labels where they are its gains (no label weights), which are narrower to read
    /// (a byte each for `u8` labels, where gains take eight).
    pub(super) fn gather_nonzero<L: Label>(values: &[L], columns: &mut Vec<u32>) -> () = gather_by_bits | gather_by_steps;
}

/// [`gather_nonzero`] with one 64-bit mask per 64 values, whose set bits are then walked: the
/// mask is formed by vector compares (a few instructions per four labels with AVX2, no branch on
/// relevance, which is unpredictable), and the walk costs a few instructions per relevant label
/// rather than per label (rows hold few relevant labels).
#[inline(always)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // the wide paths' body only
pub(super) fn gather_by_bits<L: Label>(values: &[L], columns: &mut Vec<u32>) {
    columns.clear();
    let mut base = 0u32;
    for chunk in values.chunks(64) {
        let mut bits = chunk
            .iter()
            .enumerate()
            .fold(0u64, |m, (j, &v)| m | (u64::from(v.value() != 0.0) << j));
        while bits != 0 {
            columns.push(base.wrapping_add(bits.trailing_zeros()));
            bits &= bits - 1;
        }
        base = base.wrapping_add(64); // rows of over u32::MAX labels are not ranked (`ranked_len`)
    }
}

/// [`gather_nonzero`] one value at a time, branch-free: every column is written, only relevant
/// ones advance the end (faster than a branch per label). The baseline CPU's path; the AVX2 and
/// AVX-512 one is [`gather_by_bits`].
#[inline(always)]
pub(super) fn gather_by_steps<L: Label>(values: &[L], columns: &mut Vec<u32>) {
    columns.clear();
    let mut count = 0;
    columns.resize(values.len() + 1, 0);
    for (j, &v) in values.iter().enumerate() {
        if let Some(slot) = columns.get_mut(count) {
            *slot = j as u32;
        }
        count += usize::from(v.value() != 0.0);
    }
    columns.truncate(count);
}
