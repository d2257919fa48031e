//! The counting path: a row with few relevant labels ranked without sorting it, by counting
//! for each relevant score the labels above and equal to it. It gives the relevant blocks
//! exactly as the full ranking does.

use std::cmp::Ordering;

use super::path::{counts_in_one_pass, may_count};
use super::scan::{count_above_and_equal, count_above_equal_near, gather_nonzero};
use super::sort::sort_few;
use super::{Block, RankedRow, Ranker, Ranking, Reach, RelevantEnd};
use crate::score::{Label, Score};
use crate::ties::{RankSharing, TieGrouping, TiePolicy};

/// The most relevant members of a tie group placed by counting, under `Optimistic` and
/// `Pessimistic`, rather than by sorting them by gain.
const FEW_MEMBERS: usize = 16;

/// A tie group holding relevant labels, found by counting: its relevant members are
/// `keys[first..first + members]`, `start` labels rank above it, `len` are in it.
#[derive(Debug, Clone, Copy)]
pub(super) struct CountedGroup {
    pub(super) first: usize,
    pub(super) members: usize,
    pub(super) start: usize,
    pub(super) len: usize,
}

/// The reach and tie grouping a row's groups were counted for (a tolerance grouping is counted
/// only where its row was looked at), the positions they cover, its relevant count.
#[derive(Debug, Clone, Copy)]
pub(super) struct CountedFor {
    reach: Reach,
    grouping: TieGrouping,
    covered: usize,
    n_relevant: usize,
}

impl Ranker {
    /// Ranks one row for a formula that reads only [`RankedRow::relevant_blocks`] (and the
    /// counts, sharing and gains): the blocks holding a relevant label are exactly those
    /// [`rank`](Self::rank) gives, but a row with few relevant labels is ranked without
    /// sorting it, by counting for each relevant score the labels scored above and equal to
    /// it (O(r·L) instead of O(L log L)). Such a row has no [`order`](RankedRow::order) and
    /// may lack the blocks without a relevant label. `Random` always sorts, and so does
    /// tolerance grouping unless no other score lies within its tolerance of a relevant score.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{Ranker, Ranking, TiePolicy};
    /// let mut ranker = Ranker::new();
    /// let row = ranker.rank_relevant(&[0.2f64, 0.7, 0.7, 0.9], &[0.0, 0.0, 1.0, 0.0],
    ///     Ranking::new(TiePolicy::Last), 0);
    /// let b: Vec<_> = row.relevant_blocks().collect();
    /// assert_eq!((b.len(), b[0].start), (1, 1)); // Last: column 2 before column 1
    /// ```
    pub fn rank_relevant<'a, T: Score>(
        &'a mut self, scores: &[T], gains: &'a [f64], ranking: Ranking, row: usize,
    ) -> RankedRow<'a> {
        self.gather(gains);
        self.rank_gathered(scores, gains, ranking, row, Reach::All)
    }

    /// Ranks one row for a formula that reads a single relevant block: the first (one-error)
    /// or the last (coverage). The row's [`relevant_blocks`](RankedRow::relevant_blocks)
    /// then yield that block only (or all of them, when the row had to be sorted), exactly
    /// as [`rank`](Self::rank) gives it; the counts and gains describe the whole row. No
    /// sort: the best (worst) relevant score is found among the relevant labels, and one pass
    /// counts the labels above and equal to it, whatever the number of relevant labels.
    /// `Random` sorts, and so does tolerance grouping unless no other score lies within its
    /// tolerance of that end's score.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{Ranker, Ranking, RelevantEnd, TiePolicy};
    /// let mut ranker = Ranker::new();
    /// let (scores, gains) = ([0.2f64, 0.7, 0.7, 0.9], [1.0, 0.0, 1.0, 1.0]);
    /// let ranking = Ranking::new(TiePolicy::Max);
    /// let last = *ranker.rank_relevant_end(&scores, &gains, ranking, 0, RelevantEnd::Last)
    ///     .relevant_blocks().next_back().unwrap();
    /// assert_eq!((last.start, last.len), (3, 1));
    /// let first = ranker.rank_relevant_end(&scores, &gains, ranking, 0, RelevantEnd::First);
    /// assert_eq!((first.relevant_blocks().count(), first.n_relevant()), (1, 3));
    /// ```
    pub fn rank_relevant_end<'a, T: Score>(
        &'a mut self, scores: &[T], gains: &'a [f64], ranking: Ranking, row: usize,
        end: RelevantEnd,
    ) -> RankedRow<'a> {
        self.gather(gains);
        self.rank_gathered(scores, gains, ranking, row, Reach::End(end))
    }

    /// Puts the columns of the non-zero gains into the gathered columns, in column order: the
    /// row's gains, or its labels where each gain is its label's value.
    pub(crate) fn gather<L: Label>(&mut self, gains: &[L]) {
        gather_nonzero(gains, &mut self.gathered);
    }

    /// How many relevant columns [`gather`](Self::gather) found.
    #[inline]
    pub(crate) fn gathered_len(&self) -> usize {
        self.gathered.len()
    }

    /// [`rank_relevant`](Self::rank_relevant) ([`Reach::All`]),
    /// [`rank_relevant_end`](Self::rank_relevant_end) ([`Reach::End`]) or the relevant blocks
    /// of the top k ([`Reach::Top`]), once the relevant columns are gathered.
    pub(crate) fn rank_gathered<'a, T: Score>(
        &'a mut self, scores: &[T], gains: &'a [f64], ranking: Ranking, row: usize, reach: Reach,
    ) -> RankedRow<'a> {
        self.forget_assignment();
        let n = ranked_len(scores, gains);
        if !may_count(ranking, n, self.gathered.len(), reach) {
            return self.rank_sorted(scores, gains, ranking, row, reach);
        }
        let (all_scores, all_gains) = (scores, gains);
        let (scores, gains) = (&scores[..n], &gains[..n]);
        // Under a tolerance grouping each count also looks for a score near the counted one:
        // where there is one, the row is sorted instead (`count_near`).
        let tolerance = match ranking.grouping {
            TieGrouping::Within(eps) => Some(eps),
            TieGrouping::Exact => None,
        };
        if let (Reach::End(end), Some(sharing)) = (reach, ranking.ties.sharing()) {
            let extreme = end_score(&self.gathered, scores, end);
            let counted = extreme.map(|(_, t)| count_near(scores, t, tolerance));
            return match counted {
                Some(None) => self.rank_sorted(all_scores, all_gains, ranking, row, reach),
                _ => self.rank_end_shared(scores, gains, extreme, counted.flatten(), sharing),
            };
        }
        self.keys.clear();
        self.keys.extend(
            self.gathered
                .iter()
                .filter_map(|&j| Some((!scores.get(j as usize)?.order_key(), j))),
        );
        let n_relevant = self.keys.len();
        // The best score has the smallest key.
        let extreme = match reach {
            Reach::End(RelevantEnd::First) => self.keys.iter().map(|k| k.0).min(),
            Reach::End(RelevantEnd::Last) => self.keys.iter().map(|k| k.0).max(),
            _ => None,
        };
        let one_pass = counts_in_one_pass(n, n_relevant, reach);
        match extreme {
            // One tie group's relevant members, gathered in column order: sorted already.
            Some(key) => self.keys.retain(|k| k.0 == key),
            // In column order: equal keys arrive in index order, as the radix sort needs.
            None if one_pass => crate::radix::sort_pairs(&mut self.keys, &mut self.radix_scratch),
            None => sort_few(&mut self.keys, &mut self.radix_scratch, true),
        }
        let top = match reach {
            Reach::Top(k) => k,
            _ => n,
        };
        // `may_count` rules out one pass under a tolerance grouping.
        let covered = match (one_pass, tolerance) {
            (true, None) => Some(self.count_groups_in_one_pass(scores, gains)),
            (true, Some(_)) => None,
            (false, _) => self.count_groups(scores, top, tolerance),
        };
        let Some(covered) = covered else {
            return self.rank_sorted(all_scores, all_gains, ranking, row, reach);
        };
        self.counted_for = Some(CountedFor {
            reach,
            grouping: ranking.grouping,
            covered,
            n_relevant,
        });
        let ranked = self.place_counted(scores, gains, ranking.ties, covered);
        gathered_row(ranked, reach, n_relevant)
    }

    /// [`rank_gathered`](Self::rank_gathered) for a caller that has ranked this same row (the
    /// same scores, gains and gathered columns) with the same `reach` just before, under
    /// another policy: the counted groups are placed again under the new policy, not counted
    /// again.
    pub(crate) fn rank_gathered_again<'a, T: Score>(
        &'a mut self, scores: &[T], gains: &'a [f64], ranking: Ranking, row: usize, reach: Reach,
    ) -> RankedRow<'a> {
        let n = ranked_len(scores, gains);
        // One end under a rank-sharing policy is not placed from the groups (`rank_end_shared`).
        let shared_end = matches!(reach, Reach::End(_)) && ranking.ties.sharing().is_some();
        match self.counted_for {
            Some(c)
                if c.reach == reach
                    && c.grouping == ranking.grouping
                    && !shared_end
                    && may_count(ranking, n, self.gathered.len(), reach) =>
            {
                let ranked = self.place_counted(&scores[..n], &gains[..n], ranking.ties, c.covered);
                gathered_row(ranked, reach, c.n_relevant)
            }
            _ => self.rank_gathered(scores, gains, ranking, row, reach),
        }
    }

    /// The sort of the whole row (of its top k for [`Reach::Top`]) that
    /// [`rank_gathered`](Self::rank_gathered) falls back on where it cannot count. Kept out of
    /// line: most rows are counted.
    #[inline(never)]
    fn rank_sorted<'a, T: Score>(
        &'a mut self, scores: &[T], gains: &'a [f64], ranking: Ranking, row: usize, reach: Reach,
    ) -> RankedRow<'a> {
        match reach {
            Reach::Top(k) => self.rank_top(scores, gains, ranking, row, k),
            _ => self.rank(scores, gains, ranking, row),
        }
    }

    /// [`rank_gathered`](Self::rank_gathered) for one end under a rank-sharing policy: the
    /// end's tie group is one block, whose relevant members are the gathered columns scored
    /// as the best (worst) of them. `extreme`: the end's relevant count and score
    /// ([`end_score`]); `counted`: the labels above and equal to that score.
    fn rank_end_shared<'a, T: Score>(
        &'a mut self, scores: &[T], gains: &'a [f64], extreme: Option<(usize, T)>,
        counted: Option<(usize, usize)>, sharing: RankSharing,
    ) -> RankedRow<'a> {
        self.forget_assignment();
        self.blocks.clear();
        self.order.clear();
        let n_relevant = extreme.map_or(0, |(n, _)| n);
        if let (Some((_, t)), Some((start, len))) = (extreme, counted) {
            let members = self.gathered.iter().map(|&j| j as usize);
            let member_gains = members
                .filter(|&j| scores.get(j) == Some(&t))
                .map(|j| gains[j]);
            self.blocks.push(shared_block(start, len, member_gains));
        }
        RankedRow {
            blocks: &self.blocks,
            order: &self.order,
            gains,
            n_labels: scores.len(),
            n_relevant,
            sharing: Some(sharing),
            relevant_at: None,
            member_columns: None,
            covered: scores.len(),
        }
    }

    /// The counting path of [`rank_relevant`](Self::rank_relevant), its policy-free half:
    /// `keys` holds the relevant labels, sorted. Each run of equal keys is one tie group's
    /// relevant members; one pass over the row counts the group's labels above (`start`) and in
    /// it (`len`). Stops at the first group that starts at position `top` or below; returns the
    /// positions the groups cover. Under a tolerance grouping (`tolerance`: its eps), `None`
    /// as soon as a score lies near a counted one (`count_near`): the row must be sorted.
    fn count_groups<T: Score>(
        &mut self, scores: &[T], top: usize, tolerance: Option<f64>,
    ) -> Option<usize> {
        self.counted.clear();
        self.places_known = false;
        // The narrowed copy counts exact groups; the near test takes the scores as they are.
        let narrowed = tolerance.is_none() && self.narrowed.of(scores, self.keys.len());
        let mut first = 0;
        while let Some(&(key, column)) = self.keys.get(first) {
            let members = self.keys[first..].iter().take_while(|k| k.0 == key).count();
            let group = first;
            first += members;
            let Some(&t) = scores.get(column as usize) else {
                continue;
            };
            let (start, len) = match narrowed.then(|| self.narrowed.count(t, members)) {
                Some(Some(counted)) => counted,
                _ => count_near(scores, t, tolerance)?,
            };
            if start >= top {
                return Some(start);
            }
            self.counted.push(CountedGroup {
                first: group,
                members,
                start,
                len,
            });
        }
        Some(scores.len())
    }

    /// The members' places in column order among their counted group (`equal_before`, by
    /// key), needed by ordering policies only when irrelevant labels share the group.
    fn count_places<T: Score>(&mut self, scores: &[T]) {
        if self.places_known {
            return;
        }
        let Ranker {
            keys,
            counted,
            equal_before,
            ..
        } = self;
        equal_before.clear();
        equal_before.resize(keys.len(), 0);
        for g in counted.iter() {
            let run = &keys[g.first..g.first + g.members];
            let places = &mut equal_before[g.first..g.first + g.members];
            let t = scores.get(run[0].1 as usize).copied();
            match t.filter(|_| g.len > g.members) {
                Some(t) => {
                    let (mut equal, mut from) = (0, 0);
                    for (m, (&(_, column), place)) in run.iter().zip(places).enumerate() {
                        let segment = scores.get(from..column as usize).unwrap_or(&[]);
                        (equal, from) = (
                            equal + count_above_and_equal(segment, t).1,
                            column as usize + 1,
                        );
                        *place = equal + m;
                    }
                }
                None => places.iter_mut().enumerate().for_each(|(m, p)| *p = m),
            }
        }
        self.places_known = true;
    }

    /// The counting path's other half: the counted groups' blocks under `ties`.
    fn place_counted<'a, T: Score>(
        &'a mut self, scores: &[T], gains: &'a [f64], ties: TiePolicy, covered: usize,
    ) -> RankedRow<'a> {
        let sharing = ties.sharing();
        if sharing.is_none() {
            self.count_places(scores);
        }
        let Ranker {
            keys,
            counted,
            equal_before,
            blocks,
            order,
            member_columns,
            placed,
            ..
        } = self;
        blocks.clear();
        order.clear();
        member_columns.clear();
        for g in counted.iter() {
            let run = &keys[g.first..g.first + g.members];
            let (start, len) = (g.start, g.len);
            if sharing.is_some() {
                let member_gains = run.iter().map(|k| gains[k.1 as usize]);
                blocks.push(shared_block(start, len, member_gains));
                // The run is in column order (its keys are equal).
                member_columns.extend(run.iter().map(|k| k.1));
                continue;
            }
            if let ([(_, column)], 1) = (run, len) {
                // A group of one relevant label alone: at `start` under every ordering policy.
                blocks.push(Block {
                    start,
                    len: 1,
                    relevant: 1,
                    gain: gains[*column as usize],
                });
                member_columns.push(*column);
                continue;
            }
            let equal_before = &equal_before[g.first..g.first + g.members];
            let gain = |k: &(u64, u32)| gains[k.1 as usize];
            let irrelevant = len - g.members;
            placed.clear();
            // A long run (a column's tie group) is placed by a stable sort of its members by
            // gain, `by_gain[m]` being member m's place; a short one by counting, below.
            let by_gain_order = match ties {
                TiePolicy::Optimistic => Some(Ordering::Greater),
                TiePolicy::Pessimistic => Some(Ordering::Less),
                _ => None,
            };
            let by_gain: Option<Vec<usize>> = by_gain_order
                .filter(|_| run.len() > FEW_MEMBERS)
                .map(|better| {
                    let mut members: Vec<usize> = (0..run.len()).collect();
                    members.sort_by(|&a, &b| match gain(&run[a]).total_cmp(&gain(&run[b])) {
                        c if c == better => Ordering::Less,
                        Ordering::Equal => Ordering::Equal,
                        _ => Ordering::Greater,
                    });
                    let mut place = vec![0; run.len()];
                    for (at, &m) in members.iter().enumerate() {
                        place[m] = at;
                    }
                    place
                });
            for (m, k) in run.iter().enumerate() {
                let g = gain(k);
                // The place the full path's stable sort by gain gives: members of higher
                // (lower) gain first, then equal gains in column order; irrelevant members
                // have gain 0.
                let placed_by_gain = |better: Ordering, zero_before: bool| {
                    let before = match &by_gain {
                        Some(place) => place[m],
                        None => run
                            .iter()
                            .enumerate()
                            .filter(|&(i, o)| {
                                let c = gain(o).total_cmp(&g);
                                c == better || (c == Ordering::Equal && i < m)
                            })
                            .count(),
                    };
                    before + if zero_before { irrelevant } else { 0 }
                };
                let place = match ties {
                    TiePolicy::Last => len - 1 - equal_before[m],
                    TiePolicy::Optimistic => placed_by_gain(Ordering::Greater, g < 0.0),
                    TiePolicy::Pessimistic => placed_by_gain(Ordering::Less, g > 0.0),
                    _ => equal_before[m],
                };
                let block = Block {
                    start: start + place,
                    len: 1,
                    relevant: 1,
                    gain: g,
                };
                placed.push((block, k.1));
            }
            placed.sort_unstable_by_key(|(b, _)| b.start);
            blocks.extend(placed.iter().map(|&(b, _)| b));
            member_columns.extend(placed.iter().map(|&(_, column)| column));
        }
        RankedRow {
            blocks,
            order,
            gains,
            n_labels: scores.len(),
            n_relevant: keys.len(),
            sharing,
            relevant_at: None,
            member_columns: Some(member_columns),
            covered,
        }
    }
}

/// The block of a tie group of `len` labels below `start` others, under a rank-sharing
/// policy, whose relevant members have `member_gains` in column order.
fn shared_block(start: usize, len: usize, member_gains: impl Iterator<Item = f64>) -> Block {
    // In column order, as the full path sums (its zeros change nothing).
    let (relevant, gain) = member_gains.fold((0, 0.0), |(r, g), x| (r + 1, g + x));
    Block {
        start,
        len,
        relevant,
        gain,
    }
}

/// A counted row as its reach reads it: the end's block alone for one end; the row's relevant
/// count.
fn gathered_row(mut ranked: RankedRow<'_>, reach: Reach, n_relevant: usize) -> RankedRow<'_> {
    ranked.n_relevant = n_relevant;
    let blocks = ranked.blocks;
    ranked.blocks = match reach {
        Reach::End(RelevantEnd::First) => blocks.get(..1).unwrap_or(blocks),
        Reach::End(RelevantEnd::Last) => &blocks[blocks.len().saturating_sub(1)..],
        _ => blocks,
    };
    if let Reach::End(_) = reach {
        // One end's block: the columns of the others no longer line up.
        ranked.member_columns = None;
    }
    ranked
}

/// The labels above `t` and equal to it, as [`count_above_and_equal`] counts them; under a
/// tolerance grouping (`tolerance`: its eps), `None` where another score lies within eps of `t`.
/// Otherwise `t`'s group under the tolerance is its equals alone (a group that holds `t` and a
/// different score holds one within eps of `t`, however it chains) and no group spans it, so
/// its block is the exact grouping's.
#[inline(always)]
fn count_near<T: Score>(scores: &[T], t: T, tolerance: Option<f64>) -> Option<(usize, usize)> {
    match tolerance {
        None => Some(count_above_and_equal(scores, t)),
        Some(eps) => match count_above_equal_near(scores, t, eps) {
            (_, _, true) => None,
            (above, equal, false) => Some((above, equal)),
        },
    }
}

/// How many of the `gathered` columns have a score, and the best (`First`) or worst (`Last`) of
/// their scores.
fn end_score<T: Score>(gathered: &[u32], scores: &[T], end: RelevantEnd) -> Option<(usize, T)> {
    // Float comparisons: -0.0 and 0.0 are one score, as the keys say.
    let beats = |s: T, t: T| match end {
        RelevantEnd::First => s > t,
        RelevantEnd::Last => s < t,
    };
    let mut relevant_scores = gathered.iter().filter_map(|&j| scores.get(j as usize));
    // A select, not a branch: which relevant score wins is unpredictable.
    relevant_scores.next().map(|&first| {
        relevant_scores.fold((1, first), |(n, t), &s| {
            (n + 1, if beats(s, t) { s } else { t })
        })
    })
}

/// The labels a row ranks: as many as it has both scores and gains for, at most u32::MAX
/// (columns are stored as u32).
fn ranked_len<T>(scores: &[T], gains: &[f64]) -> usize {
    scores.len().min(gains.len()).min(u32::MAX as usize)
}

#[cfg(test)]
mod tests {
    use crate::kernel::testing::snapshot;
    use crate::kernel::{Block, RankedRow, Ranker, Ranking, Reach, RelevantEnd};
    use crate::ties::{TieGrouping, TiePolicy};

    fn relevant(row: RankedRow<'_>) -> Vec<Block> {
        row.relevant_blocks().copied().collect()
    }

    #[test]
    fn tolerance_grouping_counts_rows_without_near_scores_and_sorts_the_others() {
        let weka = Ranking::new(TiePolicy::Last).with_grouping(TieGrouping::WEKA);
        let gains = [0.0, 1.0, 0.0];
        for (scores, counted) in [
            ([0.9, 0.5, 0.1], true),
            ([0.9, 0.5, 0.5000004], false), // near the relevant score: sorted
            ([0.5000004, 0.5, 0.1], false),
            ([0.9, 0.5, 0.5], true), // equal, not near: an exact tie
        ] {
            let mut ranker = Ranker::new();
            let row = ranker.rank_relevant(&scores, &gains, weka, 0);
            assert_eq!(row.order().is_empty(), counted, "{scores:?}");
            let blocks = relevant(row);
            assert_eq!(
                blocks,
                relevant(Ranker::new().rank(&scores, &gains, weka, 0))
            );
        }
    }

    #[test]
    fn a_count_under_exact_grouping_is_not_placed_again_under_a_tolerance() {
        // Exactly, column 0 ranks first; under Weka's grouping it ties with column 1, and
        // `Last` puts column 1 first.
        let (scores, gains) = ([0.5000004, 0.5, 0.1], [1.0, 0.0, 0.0]);
        let exact = Ranking::new(TiePolicy::Last);
        let weka = exact.with_grouping(TieGrouping::WEKA);
        let mut shared = Ranker::new();
        shared.gather(&gains);
        let _ = shared.rank_gathered(&scores, &gains, exact, 0, Reach::All);
        let again = relevant(shared.rank_gathered_again(&scores, &gains, weka, 0, Reach::All));
        let full = relevant(Ranker::new().rank(&scores, &gains, weka, 0));
        assert_eq!((again.clone(), full[0].start), (full, 1));
    }

    #[test]
    fn counted_groups_placed_again_equal_a_fresh_count() {
        let policies = [
            TiePolicy::Max,
            TiePolicy::First,
            TiePolicy::Last,
            TiePolicy::Optimistic,
            TiePolicy::Pessimistic,
            TiePolicy::Expected,
            TiePolicy::Random(5),
            TiePolicy::Min,
        ];
        let scores = [0.5, 0.9, 0.5, 0.1, 0.5, 0.9, 0.3];
        let gains = [1.0, 0.0, 2.0, 1.0, 0.0, 3.0, 0.0];
        let reaches = [
            Reach::All,
            Reach::Top(2),
            Reach::End(RelevantEnd::First),
            Reach::End(RelevantEnd::Last),
        ];
        for reach in reaches {
            let mut shared = Ranker::new();
            shared.gather(&gains);
            for (k, &ties) in policies.iter().enumerate() {
                let ranking = Ranking::new(ties);
                let mut fresh = Ranker::new();
                fresh.gather(&gains);
                let expected = snapshot(&fresh.rank_gathered(&scores, &gains, ranking, 3, reach));
                let row = match k {
                    0 => shared.rank_gathered(&scores, &gains, ranking, 3, reach),
                    _ => shared.rank_gathered_again(&scores, &gains, ranking, 3, reach),
                };
                assert_eq!(snapshot(&row), expected, "{reach:?} {ties:?}");
            }
        }
    }
}
