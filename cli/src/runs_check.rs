//! When `eval` takes label-wise runs out of the stream: where the scores rarely repeat, runs
//! save nothing over the data read whole and merge slowly.

use rankmetrics::registry::PresetAccumulator;

use crate::input::CHUNK_ROWS;

/// The rows at which [`RunsCheck`] counts the runs, and the rows at which it counts them again
/// and compares: 2 and 4 chunks.
pub(crate) const RUNS_FIRST_MARK: usize = 2 * CHUNK_ROWS;
pub(crate) const RUNS_CHECK_ROWS: usize = 4 * CHUNK_ROWS;

/// Takes label-wise runs of scores that rarely repeat out of the stream, for the data read
/// whole: there runs save nothing (a run takes 24 bytes where a cell read whole takes 16, the
/// score and the label as float64), and merging them chunk after chunk is slower than ranking
/// the columns held in memory. Each label's runs are counted at the first chunk end at or past
/// [`RUNS_FIRST_MARK`] rows and again at the first at or past [`RUNS_CHECK_ROWS`]; a preset
/// leaves when more than two thirds of its labels made more than 99 new runs in 100 rows in
/// between ([`scores_rarely_repeat`]), once, unless the chunk read next is the data's last (a
/// short one: data that ends on a chunk's boundary is seen to end only at the next read).
/// Where scores clipped to 0 and 1 fill more than one cell in a hundred of a third of the
/// labels or more, the preset keeps its runs, trading time for memory.
#[derive(Default)]
pub(crate) enum RunsCheck {
    /// Before the first mark.
    #[default]
    Counting,
    /// The rows and each preset's runs a label at the first mark.
    Marked(usize, Vec<Option<Vec<usize>>>),
    /// Compared: nothing more to do.
    Done,
}

impl RunsCheck {
    /// After a chunk, with `seen` rows fed: counts, or compares and takes the presets whose
    /// scores rarely repeat out (`None`). True when no preset is left.
    pub(crate) fn after_chunk(
        &mut self, accumulators: &mut [Option<PresetAccumulator>], seen: usize,
    ) -> bool {
        let runs = |slot: &Option<PresetAccumulator>| {
            slot.as_ref().and_then(PresetAccumulator::label_run_counts)
        };
        match self {
            RunsCheck::Counting if seen >= RUNS_FIRST_MARK => {
                *self = RunsCheck::Marked(seen, accumulators.iter().map(runs).collect());
            }
            RunsCheck::Marked(marked, before) if seen >= RUNS_CHECK_ROWS => {
                let mut left = false;
                for (slot, before) in accumulators.iter_mut().zip(before.iter()) {
                    if let (Some(now), Some(before)) = (runs(slot), before) {
                        if scores_rarely_repeat(before, &now, seen - *marked) {
                            *slot = None;
                            left = true;
                        }
                    }
                }
                *self = RunsCheck::Done;
                return left && accumulators.iter().all(Option::is_none);
            }
            _ => {}
        }
        false
    }
}

/// Whether the runs of each label, `before` and `now` after `rows` more rows, say that the
/// scores rarely repeat: more than two thirds of the labels made more than 99 new runs in 100
/// rows. Those labels' runs alone then take about as much memory as every cell read whole, or
/// more (24 bytes a run against 16 a cell), while a label whose scores repeat (a constant
/// column, a few values) does not keep the others' runs in the stream. (Scores drawn evenly
/// from D values make about e^(-n/D) new runs a row at row n: more than 0.99 between rows
/// 8,192 and 16,384 only for D above about 1.2 million.)
fn scores_rarely_repeat(before: &[usize], now: &[usize], rows: usize) -> bool {
    // In u128, where a usize times 100 does not overflow.
    let rarely = |(&before, &now): (&usize, &usize)| {
        now.saturating_sub(before) as u128 * 100 > rows as u128 * 99
    };
    let labels = now.len().min(before.len());
    let rare = before.iter().zip(now).filter(|&pair| rarely(pair)).count();
    3 * rare as u128 > 2 * labels as u128
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_rarely_repeat_where_two_thirds_of_the_labels_make_99_new_runs_in_100_rows() {
        assert!(scores_rarely_repeat(&[0, 0], &[10, 10], 10));
        assert!(scores_rarely_repeat(&[5, 5], &[105, 105], 100));
        // 99 new runs in 100 rows is not more than 99.
        assert!(!scores_rarely_repeat(&[5, 5], &[104, 105], 100));
        // Three labels of four rarely repeat (more than two thirds), though 301 new runs in
        // 400 cells is far from 99 in 100; two of three, or of four, do not.
        assert!(scores_rarely_repeat(&[0; 4], &[100, 100, 100, 1], 100));
        assert!(!scores_rarely_repeat(&[0; 3], &[100, 100, 1], 100));
        assert!(!scores_rarely_repeat(&[0; 4], &[100, 100, 1, 1], 100));
        assert!(!scores_rarely_repeat(&[], &[], 0));
        assert!(!scores_rarely_repeat(&[0], &[0], 0));
        // No overflow at the extremes.
        assert!(scores_rarely_repeat(&[0], &[usize::MAX], usize::MAX));
        assert!(!scores_rarely_repeat(&[0], &[usize::MAX / 2], usize::MAX));
    }
}
