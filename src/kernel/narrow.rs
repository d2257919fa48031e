//! The counting path's counts on a row's scores narrowed to f32, where they are exact.

use super::scan::count_above_and_equal;
use crate::score::Score;

/// A row's f64 scores rounded to f32, for counting four to a vector where f64 goes two: the
/// rounding is monotone (s <= t gives f32(s) <= f32(t)), so a label above (below) a group in
/// f32 is above (below) it exactly. Only labels rounding onto the group's own f32 value are in
/// doubt; when they are just the group's members, the f32 counts are the exact counts, else the
/// group is counted again in f64. Rows where that keeps happening (ties with irrelevant labels)
/// stop being narrowed for a while: the counts are exact either way, only the time differs.
#[derive(Debug, Default, Clone)]
pub(super) struct Narrowed {
    /// The last row narrowed, padded with NaN to a multiple of [`PADDED_TO`].
    scores: Vec<f32>,
    /// Rows left before narrowing is tried again after a row where it did not pay.
    rest: u32,
    /// This row's groups counted again in f64, and counted in all.
    recounted: u32,
    counted: u32,
}

impl Narrowed {
    /// How many rows narrowing rests after a row where at least a quarter of its groups had
    /// to be counted again.
    const REST: u32 = 32;

    /// Narrows a row whose `groups` (at most) relevant tie groups are about to be counted,
    /// when that pays: f64 scores, two groups or more, and not resting. Whether it narrowed
    /// the row: then [`count`](Self::count) counts on it, until the next row is narrowed.
    pub(super) fn of<T: Score>(&mut self, scores: &[T], groups: usize) -> bool {
        if self.counted > 0 && 4 * self.recounted >= self.counted {
            self.rest = Self::REST;
        }
        (self.recounted, self.counted) = (0, 0);
        if self.rest > 0 {
            self.rest -= 1;
            return false;
        }
        if core::mem::size_of::<T>() <= 4 || groups < 2 {
            return false;
        }
        narrow_into(scores, &mut self.scores);
        true
    }

    /// (labels above, labels equal) in the row last narrowed by [`of`](Self::of), for the
    /// group scored `t` with `members` relevant labels, when the f32 counts are exact; None
    /// when the group must be counted in f64. The whole padded row is counted: its padding
    /// counts for nothing.
    pub(super) fn count<T: Score>(&mut self, t: T, members: usize) -> Option<(usize, usize)> {
        self.counted += 1;
        let (above, equal) = count_above_and_equal(&self.scores, t.as_f64() as f32);
        if equal == members {
            return Some((above, equal));
        }
        self.recounted += 1;
        None
    }
}

crate::wide::wide! {
    /// `scores` rounded to f32, into `out` ([`Narrowed`]).
    fn narrow_into<T: Score>(scores: &[T], out: &mut Vec<f32>) -> () = narrow_into_body;
}

/// The narrowed row is padded with NaN (neither above nor equal to any score) to a multiple
/// of this many scores: the count's vector loop takes 32 f32 a step with AVX2 and leaves the
/// rest to narrower loops, which on short rows cost most of the count. (With AVX-512 it takes
/// 64 a step; padding to 64 gains nothing there: docs/performance.md, "Measured choices".)
const PADDED_TO: usize = 32;

/// [`narrow_into`]'s loop.
#[inline(always)]
fn narrow_into_body<T: Score>(scores: &[T], out: &mut Vec<f32>) {
    out.clear();
    out.extend(scores.iter().map(|&s| s.as_f64() as f32));
    out.resize(scores.len().div_ceil(PADDED_TO) * PADDED_TO, f32::NAN);
}

#[cfg(test)]
mod tests {
    use super::Narrowed;
    use crate::kernel::assign::SplitMix64;
    use crate::kernel::scan::{count_above_and_equal, gather_by_bits, gather_by_steps};
    use crate::kernel::{Ranker, Ranking, Reach};
    use crate::ties::TiePolicy;

    /// Both gather paths list every column of a non-zero gain, in column order, across the
    /// 64-label words of `gather_by_bits`.
    #[test]
    fn gathers_agree_on_long_rows() {
        // Rows across the 64-label words of `gather_by_bits`, with -0.0 (not relevant).
        for row in 0..400 {
            let mut rng = SplitMix64::for_row(11, row);
            let n = rng.below(200) as usize;
            let dense = 1 + rng.below(8);
            let gains: Vec<f64> = (0..n)
                .map(|_| match rng.below(16) {
                    0 => -0.0,
                    v if v < dense => 1.0 + v as f64,
                    _ => 0.0,
                })
                .collect();
            let expected: Vec<u32> = (0..n as u32)
                .filter(|&j| gains[j as usize] != 0.0)
                .collect();
            for gather in [gather_by_bits, gather_by_steps] {
                let mut columns = vec![7; 5];
                gather(&gains, &mut columns);
                assert_eq!(columns, expected, "{gains:?}");
            }
        }
    }

    /// Gathering from labels gives the columns their gains give: u8, i32, bool and f32
    /// labels (with -0.0 and negative values), on both gather paths, across 64-label words.
    #[test]
    fn labels_gather_as_their_gains() {
        fn check<L: crate::score::Label>(labels: &[L]) {
            let gains: Vec<f64> = labels.iter().map(|l| l.value()).collect();
            for gather in [gather_by_bits::<L>, gather_by_steps::<L>] {
                let mut expected = vec![1];
                gather_by_steps(&gains, &mut expected);
                let mut columns = vec![3; 2];
                gather(labels, &mut columns);
                assert_eq!(columns, expected, "{gains:?}");
            }
        }
        for row in 0..300 {
            let mut rng = SplitMix64::for_row(13, row);
            let n = rng.below(150) as usize;
            let draws: Vec<u64> = (0..n).map(|_| rng.below(7)).collect();
            check(&draws.iter().map(|&d| (d % 4) as u8).collect::<Vec<_>>());
            check(&draws.iter().map(|&d| d as i32 - 3).collect::<Vec<_>>());
            check(&draws.iter().map(|&d| d > 4).collect::<Vec<_>>());
            let f = [0.0f32, -0.0, 1.0, 0.5, -2.0, 0.0, 3.0];
            check(&draws.iter().map(|&d| f[d as usize]).collect::<Vec<_>>());
        }
    }

    /// The counting path's f32 narrowing: scores that differ in f64 but round to one f32 (or
    /// to infinity, or to zero) are counted again exactly; the relevant blocks are the full
    /// ranking's, and the gathered columns are every non-zero gain's, on both gather paths.
    #[test]
    fn narrowed_counts_equal_the_full_ranking() {
        let near = 0.5 + f64::EPSILON;
        let set = [
            0.5,
            near,
            0.5 - 1e-12,
            1e300,
            2e300,
            -1e300,
            1e-310,
            0.0,
            -0.0,
            3.0,
            0.25,
        ];
        let policies = [
            TiePolicy::Max,
            TiePolicy::Min,
            TiePolicy::First,
            TiePolicy::Last,
        ];
        let (mut narrowed, mut recounted) = (0, 0);
        for row in 0..3000 {
            let mut rng = SplitMix64::for_row(7, row);
            let n = 2 + rng.below(40) as usize;
            let scores: Vec<f64> = (0..n)
                .map(|_| set[rng.below(set.len() as u64) as usize])
                .collect();
            let gains: Vec<f64> = (0..n)
                .map(|_| [0.0, 0.0, 0.0, 0.0, 1.0, 2.0][rng.below(6) as usize])
                .collect();
            let expected: Vec<u32> = (0..n as u32)
                .filter(|&j| gains[j as usize] != 0.0)
                .collect();
            let mut ranker = Ranker::new();
            for gather in [gather_by_bits, gather_by_steps] {
                let mut columns = vec![9; 3];
                gather(&gains, &mut columns);
                assert_eq!(columns, expected, "{gains:?}");
            }
            ranker.gather(&gains);
            for ties in policies {
                let ranking = Ranking::new(ties);
                let full = Ranker::new()
                    .rank(&scores, &gains, ranking, row)
                    .blocks()
                    .to_vec();
                let relevant: Vec<_> = full.iter().filter(|b| b.relevant > 0).copied().collect();
                let counted = ranker.rank_gathered(&scores, &gains, ranking, row, Reach::All);
                let counted: Vec<_> = counted.relevant_blocks().copied().collect();
                assert_eq!(counted, relevant, "{scores:?} {gains:?} {ties:?}");
            }
            // The f32 counts themselves, whichever path the row took above (another test may
            // force one, process-wide): exact whenever they are given.
            let mut narrow = Narrowed::default();
            if !narrow.of(&scores, 2) {
                continue;
            }
            for &j in &expected {
                let t = scores[j as usize];
                let members = expected
                    .iter()
                    .filter(|&&o| scores[o as usize] == t)
                    .count();
                match narrow.count(t, members) {
                    Some(counts) => {
                        assert_eq!(counts, count_above_and_equal(&scores, t), "{scores:?} {t}");
                        narrowed += 1;
                    }
                    None => recounted += 1,
                }
            }
        }
        // Both outcomes of the f32 count were exercised.
        assert!(
            narrowed > 1000 && recounted > 1000,
            "{narrowed} {recounted}"
        );
    }
}
