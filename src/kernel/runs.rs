//! Ranking a vector kept as runs: its distinct scores, best first, each with how many of its
//! relevant and irrelevant items hold it. The blocks are those [`assign`](Ranker::assign)
//! gives the same items in any order, under every policy that does not read the items' order:
//! a tie group's block under a rank-sharing policy; one block per item under optimistic
//! (relevant items first in each group) and pessimistic (last).

use super::{Block, RankedRow, Ranker, Ranking};
use crate::score::Score;
use crate::ties::{TieGrouping, TiePolicy};

/// One distinct score of a vector and how many of its items (labels 0 or 1) hold it.
///
/// Serialised as `[score bits, relevant, irrelevant]`: a state holds one per distinct score of
/// each label, so the field names would be most of its JSON.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(from = "(u64, u64, u64)", into = "(u64, u64, u64)")
)]
pub(crate) struct ScoreRun {
    /// The score, as the items gave it (`-0.0` and `0.0` share a run: they tie).
    pub(crate) score: f64,
    /// Items labelled 1.
    pub(crate) relevant: u64,
    /// Items labelled 0.
    pub(crate) irrelevant: u64,
}

impl ScoreRun {
    /// The items holding the score (saturating: a state read back may hold any counts).
    #[cfg(feature = "serde")]
    pub(crate) fn items(&self) -> u64 {
        self.relevant.saturating_add(self.irrelevant)
    }
}

impl From<(u64, u64, u64)> for ScoreRun {
    fn from((bits, relevant, irrelevant): (u64, u64, u64)) -> Self {
        ScoreRun {
            score: f64::from_bits(bits),
            relevant,
            irrelevant,
        }
    }
}

impl From<ScoreRun> for (u64, u64, u64) {
    fn from(run: ScoreRun) -> Self {
        (run.score.to_bits(), run.relevant, run.irrelevant)
    }
}

impl Ranker {
    /// The runs of a vector: its distinct scores, best first (`-0.0` and `0.0` as `0.0`), with
    /// how many of its items are relevant (label non-zero) and irrelevant: exact ties, as
    /// [`sort`](Self::sort) groups them. The items' order is not kept, so the (key, relevant)
    /// pairs are sorted whole: pattern-defeating quicksort takes few distinct scores (rounded
    /// probabilities, a floor score) in near-linear time, where the radix sort makes every pass.
    pub(crate) fn runs(&mut self, scores: &[f64], labels: &[f64]) -> Vec<ScoreRun> {
        self.forget_assignment();
        let keys = &mut self.keys;
        keys.clear();
        keys.extend(
            scores
                .iter()
                .zip(labels)
                .map(|(s, &y)| (!s.order_key(), u32::from(y != 0.0))),
        );
        keys.sort_unstable();
        coalesced(keys.iter().map(|&(key, relevant)| {
            let relevant = u64::from(relevant);
            (key, relevant, 1 - relevant)
        }))
    }
}

/// Runs from (descending key, relevant, irrelevant) triples sorted by key: the counts of one
/// key added into one run, whose score is read back from its key.
fn coalesced(sorted: impl Iterator<Item = (u64, u64, u64)>) -> Vec<ScoreRun> {
    let mut out: Vec<ScoreRun> = Vec::new();
    let mut last = None;
    for (k, relevant, irrelevant) in sorted {
        if last != Some(k) {
            out.push(ScoreRun {
                score: score_of(k),
                ..ScoreRun::default()
            });
            last = Some(k);
        }
        if let Some(run) = out.last_mut() {
            run.relevant += relevant;
            run.irrelevant += irrelevant;
        }
    }
    out
}

/// The score whose descending key (`!order_key`) is `key`: `order_key` inverted (0.0 for the
/// key -0.0 and 0.0 share).
fn score_of(key: u64) -> f64 {
    let k = !key;
    let bits = match k >> 63 {
        1 => k & !(1 << 63),
        _ => !k,
    };
    f64::from_bits(bits)
}

/// A run's place in best-first order (the kernel's descending key).
fn key(run: &ScoreRun) -> u64 {
    !run.score.order_key()
}

/// Checks that `runs` read back from a serialised state are best first with distinct, finite
/// scores (0.0, not -0.0), and none is empty.
#[cfg(feature = "serde")]
pub(crate) fn check_ranked(runs: &[ScoreRun]) -> Result<(), crate::error::StateFault> {
    use crate::error::StateFault;
    for (i, r) in runs.iter().enumerate() {
        if !(r.score.is_finite() && r.score.to_bits() != (-0.0f64).to_bits() && r.items() > 0) {
            let expected = "runs of finite scores (0.0, not -0.0), each of at least one item";
            return Err(StateFault::Value { expected });
        }
        if i > 0 && key(&runs[i - 1]) >= key(r) {
            return Err(StateFault::Order);
        }
    }
    Ok(())
}

/// The runs of `a` and `b` (each best first) together into `out` (cleared first), best
/// first, runs of one score added.
pub(crate) fn merge_runs_into(a: &[ScoreRun], b: &[ScoreRun], out: &mut Vec<ScoreRun>) {
    out.clear();
    out.reserve(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while let (Some(x), Some(y)) = (a.get(i), b.get(j)) {
        let (kx, ky) = (key(x), key(y));
        out.push(if kx == ky {
            (i, j) = (i + 1, j + 1);
            ScoreRun {
                score: x.score,
                relevant: x.relevant + y.relevant,
                irrelevant: x.irrelevant + y.irrelevant,
            }
        } else if kx < ky {
            i += 1;
            *x
        } else {
            j += 1;
            *y
        });
    }
    out.extend_from_slice(a.get(i..).unwrap_or_default());
    out.extend_from_slice(b.get(j..).unwrap_or_default());
}

/// The runs of several vectors pooled (the micro average's), best first: one sort of all the
/// runs, runs of one score added (not a merge per vector, which would walk the growing pool
/// once per vector).
pub(crate) fn pooled_runs<'a>(
    vectors: impl IntoIterator<Item = &'a Vec<ScoreRun>>,
) -> Vec<ScoreRun> {
    let mut all: Vec<ScoreRun> = vectors.into_iter().flatten().copied().collect();
    all.sort_unstable_by_key(key);
    coalesced(all.iter().map(|r| (key(r), r.relevant, r.irrelevant)))
}

impl Ranker {
    /// Ranks a vector given as `runs` (distinct scores, best first): the blocks and relevant
    /// counts [`rank`](Self::rank) gives its items, without an order (no item has a column).
    /// `None` under [`TiePolicy::First`], [`TiePolicy::Last`] and [`TiePolicy::Random`], which
    /// order a tie group by its items' positions.
    pub(crate) fn rank_runs<'a>(
        &'a mut self, runs: &[ScoreRun], ranking: Ranking,
    ) -> Option<RankedRow<'a>> {
        let sharing = ranking.ties.sharing();
        let relevant_first = match ranking.ties {
            TiePolicy::First | TiePolicy::Last | TiePolicy::Random(_) => return None,
            TiePolicy::Pessimistic => false,
            _ => true,
        };
        self.forget_assignment();
        group_runs(runs, ranking.grouping, &mut self.groups);
        let Ranker {
            groups,
            blocks,
            order,
            relevant_at,
            ..
        } = self;
        blocks.clear();
        order.clear();
        relevant_at.clear();
        let mut start = 0usize;
        for &(first, len) in groups.iter() {
            let group = &runs[first..first + len];
            let count = |class: fn(&ScoreRun) -> u64| group.iter().map(class).sum::<u64>() as usize;
            let (relevant, irrelevant) = (count(|r| r.relevant), count(|r| r.irrelevant));
            let items = relevant + irrelevant;
            if sharing.is_some() {
                if relevant > 0 {
                    relevant_at.push(blocks.len() as u32);
                }
                blocks.push(Block {
                    start,
                    len: items,
                    relevant,
                    gain: relevant as f64,
                });
            } else {
                // `assign` sorts a group by gain, descending (optimistic) or ascending.
                let classes = match relevant_first {
                    true => [(relevant, 1), (irrelevant, 0)],
                    false => [(irrelevant, 0), (relevant, 1)],
                };
                for (members, relevant) in classes {
                    for _ in 0..members {
                        if relevant > 0 {
                            relevant_at.push(blocks.len() as u32);
                        }
                        blocks.push(Block {
                            start: blocks.len(),
                            len: 1,
                            relevant,
                            gain: relevant as f64,
                        });
                    }
                }
            }
            start += items;
        }
        let n_relevant = runs.iter().map(|r| r.relevant as usize).sum();
        Some(RankedRow {
            blocks,
            order,
            gains: &[],
            n_labels: start,
            n_relevant,
            sharing,
            relevant_at: Some(relevant_at),
            member_columns: None,
            covered: start,
        })
    }
}

/// The tie groups of `runs` as (first run, run count), best first: each run alone when
/// grouping is exact (runs have distinct scores), Weka's anchored groups otherwise, formed as
/// [`group`](Ranker::group) forms them on the items (for `eps > 0`: a smaller or NaN `eps`
/// splits a run's items, which the label-wise runs refuse).
fn group_runs(runs: &[ScoreRun], grouping: TieGrouping, groups: &mut Vec<(usize, usize)>) {
    groups.clear();
    match grouping {
        TieGrouping::Exact => groups.extend((0..runs.len()).map(|i| (i, 1))),
        TieGrouping::Within(eps) => {
            // From the smallest score up, each group anchored at its smallest score.
            let mut end = runs.len();
            while end > 0 {
                let anchor = runs[end - 1].score;
                let mut start = end - 1;
                while start > 0 && runs[start - 1].score - anchor < eps {
                    start -= 1;
                }
                groups.push((start, end - start));
                end = start;
            }
            groups.reverse();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labelwise::pairs::tests::draws;

    /// The runs of a vector, best first.
    fn runs_of(scores: &[f64], gains: &[f64]) -> Vec<ScoreRun> {
        let mut items: Vec<(u64, f64, f64)> = scores
            .iter()
            .zip(gains)
            .map(|(&s, &g)| (!s.order_key(), s, g))
            .collect();
        items.sort_by_key(|i| i.0);
        let mut runs: Vec<(u64, ScoreRun)> = Vec::new();
        for (key, score, gain) in items {
            if runs.last().map_or(true, |r| r.0 != key) {
                runs.push((
                    key,
                    ScoreRun {
                        score: score + 0.0,
                        ..ScoreRun::default()
                    },
                ));
            }
            let run = &mut runs.last_mut().expect("pushed above").1;
            match gain != 0.0 {
                true => run.relevant += 1,
                false => run.irrelevant += 1,
            }
        }
        runs.into_iter().map(|r| r.1).collect()
    }

    #[test]
    fn runs_rank_into_the_blocks_of_the_items() {
        let mut draw = draws(0x5EED);
        let policies = [
            TiePolicy::Max,
            TiePolicy::Min,
            TiePolicy::Average,
            TiePolicy::Expected,
            TiePolicy::Optimistic,
            TiePolicy::Pessimistic,
        ];
        for case in 0..400 {
            let len = draw(40) as usize;
            // Scores a few millionths apart too, so that Weka's groups span several runs.
            let scores: Vec<f64> = (0..len)
                .map(|_| match draw(3) {
                    0 => -0.0,
                    _ => (draw(6) as f64 - 2.0) * 4e-7,
                })
                .collect();
            let gains: Vec<f64> = (0..len).map(|_| draw(2) as f64).collect();
            let runs = runs_of(&scores, &gains);
            assert_eq!(
                Ranker::new().runs(&scores, &gains),
                runs,
                "{scores:?} {gains:?}"
            );
            for grouping in [TieGrouping::Exact, TieGrouping::WEKA] {
                for ties in policies {
                    let ranking = Ranking::new(ties).with_grouping(grouping);
                    let mut items = Ranker::new();
                    let want = items.rank(&scores, &gains, ranking, case);
                    let mut ranker = Ranker::new();
                    let got = ranker
                        .rank_runs(&runs, ranking)
                        .expect("an order-free policy");
                    let strip = |bs: &[Block]| -> Vec<_> {
                        bs.iter().map(|b| (b.start, b.len, b.relevant)).collect()
                    };
                    let msg = format!("{scores:?} {gains:?} {ties:?} {grouping:?}");
                    assert_eq!(strip(got.blocks()), strip(want.blocks()), "{msg}");
                    let relevant = |r: &RankedRow<'_>| -> Vec<_> {
                        r.relevant_blocks()
                            .map(|b| (b.start, b.len, b.relevant))
                            .collect()
                    };
                    assert_eq!(relevant(&got), relevant(&want), "{msg}");
                    assert_eq!(
                        (got.n_labels(), got.n_relevant(), got.sharing()),
                        (want.n_labels(), want.n_relevant(), want.sharing())
                    );
                }
            }
        }
    }

    #[test]
    fn policies_that_read_the_items_order_are_refused() {
        let runs = [ScoreRun {
            score: 0.5,
            relevant: 1,
            irrelevant: 1,
        }];
        for ties in [TiePolicy::First, TiePolicy::Last, TiePolicy::Random(7)] {
            assert!(Ranker::new().rank_runs(&runs, Ranking::new(ties)).is_none());
        }
    }
}
