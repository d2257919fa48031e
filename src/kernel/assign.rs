//! Ranking a sorted row's tie groups into blocks under a tie policy.

use super::{Block, RankedRow, Ranker};
use crate::ties::TiePolicy;

/// Whether the last assignment serves every policy, and its relevant count.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct UntiedAssignment {
    pub(super) valid: bool,
    pub(super) n_relevant: usize,
}

impl Ranker {
    /// Ranks the row last given to [`sort`](Self::sort) under `ties`. `gains[j]` is label j's
    /// value (relevant when non-zero; a missing gain counts as 0); `row` seeds
    /// [`TiePolicy::Random`]. The sorted row is left as it was, for the next policy.
    pub fn assign<'a>(
        &'a mut self, gains: &'a [f64], ties: TiePolicy, row: usize,
    ) -> RankedRow<'a> {
        let sharing = ties.sharing();
        let n = self.keys.len().min(gains.len());
        let Ranker {
            keys,
            groups,
            blocks,
            order,
            members,
            sorted_gains,
            untied,
            relevant_at,
            ..
        } = self;
        blocks.clear();
        order.clear();
        let gain = |j: u32| gains.get(j as usize).copied().unwrap_or(0.0);
        let relevant = |j: u32| usize::from(gain(j) != 0.0);
        let mut rng = match ties {
            TiePolicy::Random(seed) => Some(SplitMix64::for_row(seed, row)),
            _ => None,
        };
        sorted_gains.clear();
        // Without ties every group is one label: its block, one tight loop whose independent
        // loads overlap (a shared block's gain is 0.0 plus the member's, as below).
        let tied_groups = if groups.len() == keys.len() {
            let zero = if sharing.is_some() { 0.0 } else { -0.0 };
            blocks.extend(keys.iter().enumerate().map(|(start, k)| {
                let x = gain(k.1);
                Block {
                    start,
                    len: 1,
                    relevant: usize::from(x != 0.0),
                    gain: zero + x,
                }
            }));
            order.extend(keys.iter().map(|k| k.1));
            &[][..]
        } else {
            // Gathered in one tight loop, whose independent loads overlap: on a long vector
            // each is a cache miss, which the per-group loop below would wait for one by one.
            sorted_gains.extend(keys.iter().map(|k| gain(k.1)));
            &groups[..]
        };
        for &(start, len) in tied_groups {
            let group = &keys[start..start + len];
            if sharing.is_some() {
                let (mut r, mut g) = (0, 0.0);
                for &x in &sorted_gains[start..start + len] {
                    r += usize::from(x != 0.0);
                    g += x;
                }
                blocks.push(Block {
                    start,
                    len,
                    relevant: r,
                    gain: g,
                });
                order.extend(group.iter().map(|k| k.1));
                continue;
            }
            // The policy orders a copy, so the sorted row serves the next policy unchanged.
            members.clear();
            members.extend(group.iter().map(|k| k.1));
            match (ties, rng.as_mut()) {
                (TiePolicy::Last, _) => members.reverse(),
                (_, Some(rng)) => rng.shuffle(members),
                // Stable sorts: equal gains keep column order.
                (TiePolicy::Optimistic, _) => members.sort_by(|&a, &b| gain(b).total_cmp(&gain(a))),
                (TiePolicy::Pessimistic, _) => {
                    members.sort_by(|&a, &b| gain(a).total_cmp(&gain(b)))
                }
                _ => {}
            }
            for (k, &j) in members.iter().enumerate() {
                blocks.push(Block {
                    start: start + k,
                    len: 1,
                    relevant: relevant(j),
                    gain: gain(j),
                });
                order.push(j);
            }
        }
        let n_relevant = blocks.iter().map(|b| b.relevant).sum();
        relevant_at.clear();
        if blocks.len() <= 1 << 12 {
            // Branch-free, as `gather`: every block is written, relevant ones advance the end.
            relevant_at.resize(blocks.len() + 1, 0);
            let mut count = 0;
            for (i, b) in blocks.iter().enumerate() {
                relevant_at[count] = i as u32;
                count += usize::from(b.relevant > 0);
            }
            relevant_at.truncate(count);
        } else {
            // Pushed: a buffer as long as the blocks would have all its pages touched for the
            // few relevant items of a long vector.
            let relevant = blocks.iter().enumerate().filter(|(_, b)| b.relevant > 0);
            relevant_at.extend(relevant.map(|(i, _)| i as u32));
        }
        // A shared block's gain is 0.0 + the member's, which turns -0.0 into 0.0: with such a
        // gain the policies' blocks differ in that bit, so none is reused.
        *untied = UntiedAssignment {
            valid: groups.len() == keys.len()
                && !gains.iter().any(|g| g.to_bits() == (-0.0f64).to_bits()),
            n_relevant,
        };
        RankedRow {
            blocks,
            order,
            gains: &gains[..n],
            n_labels: n,
            n_relevant,
            sharing,
            relevant_at: Some(relevant_at),
            member_columns: None,
            covered: keys.len(),
        }
    }

    /// [`assign`](Self::assign) for a caller that has assigned the current sort already, with
    /// these same gains: without ties every policy gives the same blocks and order (a group of
    /// one has one order and one rank), so that assignment is handed on as it is.
    pub(crate) fn reassign<'a>(
        &'a mut self, gains: &'a [f64], ties: TiePolicy, row: usize,
    ) -> RankedRow<'a> {
        if !self.untied.valid {
            return self.assign(gains, ties, row);
        }
        let n = self.keys.len().min(gains.len());
        RankedRow {
            blocks: &self.blocks,
            order: &self.order,
            gains: &gains[..n],
            n_labels: n,
            n_relevant: self.untied.n_relevant,
            sharing: ties.sharing(),
            relevant_at: Some(&self.relevant_at),
            member_columns: None,
            covered: self.keys.len(),
        }
    }
}

/// SplitMix64 (Steele, Lea & Flood 2014): tiny, fast, and good enough to shuffle tie groups.
pub(super) struct SplitMix64(u64);

impl SplitMix64 {
    pub(super) fn for_row(seed: u64, row: usize) -> Self {
        let mut s = SplitMix64(seed ^ (row as u64).wrapping_mul(0xD1B5_4A32_D192_ED03));
        s.next();
        s
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// An unbiased draw from `0..bound` (Lemire's multiply-and-reject), `bound > 0`.
    pub(super) fn below(&mut self, bound: u64) -> u64 {
        let threshold = bound.wrapping_neg() % bound;
        loop {
            let m = u128::from(self.next()) * u128::from(bound);
            if (m as u64) >= threshold {
                return (m >> 64) as u64;
            }
        }
    }

    /// Fisher–Yates.
    fn shuffle<X>(&mut self, items: &mut [X]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::kernel::testing::{order, snapshot};
    use crate::kernel::{Ranker, Ranking};
    use crate::ties::{TieGrouping, TiePolicy};

    #[test]
    fn first_and_last_order_ties_by_column() {
        let s = [0.5, 0.9, 0.5, 0.5];
        assert_eq!(
            order(&s, TiePolicy::First, TieGrouping::Exact),
            [1, 0, 2, 3]
        );
        assert_eq!(order(&s, TiePolicy::Last, TieGrouping::Exact), [1, 3, 2, 0]);
    }

    #[test]
    fn random_is_a_reproducible_permutation_within_groups() {
        let s = [0.5; 12];
        let a = order(&s, TiePolicy::Random(3), TieGrouping::Exact);
        let b = order(&s, TiePolicy::Random(3), TieGrouping::Exact);
        let c = order(&s, TiePolicy::Random(4), TieGrouping::Exact);
        assert_eq!(a, b);
        assert_ne!(a, c);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..12).collect::<Vec<_>>());
    }

    #[test]
    fn one_sort_ranked_under_every_policy_equals_a_fresh_ranking() {
        // Untied rows hand one assignment on across policies (`reassign`): it must be exactly
        // what a fresh ranking gives, also when a gain is -0.0 and after the counting path used
        // the same kernel; new gains take a new `assign`.
        let policies: Vec<TiePolicy> = TiePolicy::R_METHODS
            .into_iter()
            .chain([TiePolicy::Random(7)])
            .chain(TiePolicy::ANALYSIS)
            .collect();
        let untied = [0.3, 0.9, 0.1, 0.5, 0.7, 0.2];
        let tied = [0.3, 0.9, 0.3, 0.5, 0.9, 0.3];
        let mut shared = Ranker::new();
        for scores in [&untied[..], &tied[..], &[][..]] {
            let n = scores.len();
            let mut gains: Vec<f64> = (0..n).map(|j| [0.0, 1.0, 2.0][j % 3]).collect();
            shared.sort(scores, TieGrouping::Exact);
            for (k, &ties) in policies.iter().enumerate() {
                let new_gains = (k == 3 || k == 6) && n > 0;
                if k == 3 && n > 0 {
                    gains[0] = 1.0 - gains[0]; // same buffer, new content
                }
                if k == 6 && n > 0 {
                    gains[2] = -0.0;
                }
                let fresh = snapshot(&Ranker::new().rank(scores, &gains, Ranking::new(ties), 4));
                let row = match k == 0 || new_gains {
                    true => shared.assign(&gains, ties, 4),
                    false => shared.reassign(&gains, ties, 4),
                };
                assert_eq!(snapshot(&row), fresh, "{ties:?}");
            }
            // The counting path rewrites keys and blocks; a new sort then starts afresh.
            let ranking = Ranking::new(TiePolicy::Last);
            let _ = shared.rank_relevant(scores, &gains, ranking, 0);
            shared.sort(scores, TieGrouping::Exact);
            let fresh = snapshot(&Ranker::new().rank(scores, &gains, ranking, 0));
            assert_eq!(snapshot(&shared.assign(&gains, TiePolicy::Last, 0)), fresh);
        }
    }

    #[test]
    fn an_untied_row_is_one_block_per_label_under_every_policy() {
        let scores = [0.25, 0.75, -0.5, 0.0, 1.5];
        let gains = [1.0, -0.0, 0.0, 2.0, 0.0];
        let order = [4u32, 1, 0, 3, 2];
        for ties in TiePolicy::R_METHODS
            .into_iter()
            .chain(TiePolicy::ANALYSIS)
            .chain([TiePolicy::Random(1)])
        {
            let mut ranker = Ranker::new();
            let row = ranker.rank(&scores, &gains, Ranking::new(ties), 0);
            assert_eq!(row.order(), &order);
            for (i, (b, &j)) in row.blocks().iter().zip(&order).enumerate() {
                let g = gains[j as usize];
                // A shared block sums its members' gains from 0.0: -0.0 becomes 0.0.
                let gain = if ties.sharing().is_some() { 0.0 + g } else { g };
                assert_eq!((b.start, b.len, b.relevant), (i, 1, usize::from(g != 0.0)));
                assert_eq!(b.gain.to_bits(), gain.to_bits(), "{ties:?} block {i}");
            }
            let relevant: Vec<usize> = row.relevant_blocks().map(|b| b.start).collect();
            assert_eq!(relevant, [2, 3]);
        }
    }
}
