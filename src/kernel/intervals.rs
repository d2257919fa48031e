//! The counting path for a long vector with many relevant items (a column of a label-wise
//! metric): its relevant tie groups counted in one pass over the vector, each score located
//! among the relevant groups' scores, instead of one pass per group or a sort of the whole
//! vector. It gives the same counted groups (and places inside them) as
//! [`count_groups`](Ranker::count_groups) and [`count_places`](Ranker::count_places).

use super::counting::CountedGroup;
use super::Ranker;
use crate::score::Score;

/// The most bits of a key the lookup table indexes: 2^20 entries (4 MiB) at most, about two
/// buckets a relevant group up to half a million groups. Past the second-level cache a table
/// entry may miss, but fewer than the binary search through a crowded bucket it replaces (a
/// pooled micro vector of 10^7 cells holds ~5·10^5 groups: 2^16 entries left ~8 a bucket).
const MAX_TABLE_BITS: u32 = 20;

/// What [`Intervals::locate_batch_body`] gives a score it leaves to [`Intervals::locate`].
const CROWDED: usize = usize::MAX;

/// Scores located at a time, before their counts are added: the locations are independent of
/// each other and of the counts, so a vector of them is found at once.
const BATCH: usize = 64;

/// Where keys fall among the sorted, distinct keys of the relevant groups: a key `x` is at
/// interval `2p + 1` when it equals the p-th group's key and at `2p` when it lies strictly
/// between the keys of groups p − 1 and p (p = the number of group keys below `x`).
#[derive(Debug, Default, Clone)]
pub(super) struct Intervals {
    /// The groups' keys, ascending (best score first), then `u64::MAX`.
    keys: Vec<u64>,
    /// `first[b]`: the first group whose key falls in bucket b (or after it), for b in
    /// 0..=buckets; a bucket is a run of 2^shift keys from the smallest group key on.
    first: Vec<u32>,
    shift: u32,
    /// Items counted in each interval.
    counts: Vec<u32>,
    /// For each group, where in the kernel's keys its next relevant member met goes (the
    /// group's first member plus the members met so far).
    next: Vec<u32>,
}

/// Where [`Intervals::locate`] looks: the group keys (and the sentinel), the table of each
/// bucket's first group, and the bucket's width in bits.
#[derive(Debug, Clone, Copy)]
struct Lookup<'a> {
    keys: &'a [u64],
    first: &'a [u32],
    shift: u32,
}

impl Intervals {
    /// Prepares the lookup for group keys `keys` (ascending, distinct, at least one).
    fn build(&mut self, keys: impl Iterator<Item = u64>) {
        self.keys.clear();
        self.keys.extend(keys);
        let g = self.keys.len();
        let (low, high) = (self.keys[0], self.keys[g - 1]);
        // About two buckets a group: most buckets then hold at most one group key.
        let bits = (usize::BITS - g.leading_zeros() + 1).min(MAX_TABLE_BITS);
        let span_bits = u64::BITS - (high - low).leading_zeros();
        self.shift = span_bits.saturating_sub(bits);
        let buckets = (((high - low) >> self.shift) + 1) as usize;
        self.first.clear();
        self.first.resize(buckets + 1, g as u32);
        let mut b = 0;
        for (p, &k) in self.keys.iter().enumerate() {
            let of = ((k - low) >> self.shift) as usize;
            while b <= of {
                self.first[b] = p as u32;
                b += 1;
            }
        }
        // The sentinel: no finite score's key reaches it (keys of NaN only).
        self.keys.push(u64::MAX);
        self.counts.clear();
        self.counts.resize(2 * g + 3, 0);
        self.next.clear();
    }

    /// The interval of `x` (`2p + 1` when it equals the p-th group key, `2p` when p group
    /// keys are below it).
    #[inline(always)]
    fn locate(Lookup { keys, first, shift }: Lookup<'_>, x: u64) -> usize {
        // `keys` ends with a sentinel above every finite score's key.
        let (low, high) = (keys[0], keys[keys.len().saturating_sub(2)]);
        let inside = x.clamp(low, high);
        // Every key of an earlier bucket is below `inside` and every key of a later one above
        // it, so p lies among the bucket's own keys. A skewed spread of keys (scores of both
        // signs, or one far from the rest) can crowd thousands into one bucket: past two keys,
        // the rest of the bucket is searched.
        let b = ((inside - low) >> shift) as usize;
        let mut p = first.get(b).map_or(0, |&p| p as usize);
        // Most buckets hold at most two keys below `inside`: two steps without a branch (a walk
        // whose length varies from score to score is a branch the processor mispredicts).
        let below = |p: usize| keys.get(p).is_some_and(|&k| k < inside);
        p += usize::from(below(p));
        p += usize::from(below(p));
        if below(p) {
            let to = first.get(b + 1).map_or(p, |&to| to as usize).max(p);
            let rest = keys.get(p..to).unwrap_or_default();
            p += rest.partition_point(|&k| k < inside);
        }
        p += usize::from(x > high);
        let equal = keys.get(p).is_some_and(|&k| k == x);
        2 * p + usize::from(equal)
    }

    /// [`locate`](Self::locate)'s interval for each score of a batch, in a loop without
    /// branches: compiled for AVX-512 it reads the table and the group keys for a vector of
    /// scores at once (gathers; AVX2 loads them lane by lane). Where a score's bucket and two
    /// steps do not reach its place (a crowded bucket), `at[k]` is [`CROWDED`], left for
    /// `locate`.
    #[inline(always)]
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // the wide paths' body only
    fn locate_batch_body<T: Score>(lookup: Lookup<'_>, scores: &[T], at: &mut [usize]) {
        let Lookup { keys, first, shift } = lookup;
        // `keys` holds at least one group key and the sentinel; `first` at least two entries.
        let (Some(last), Some(last_bucket)) =
            (keys.len().checked_sub(1), first.len().checked_sub(1))
        else {
            // No group keys (never: `build` has at least one): every score left to `locate`.
            at.fill(CROWDED);
            return;
        };
        let (low, high) = (keys[0], keys[last.saturating_sub(1)]);
        for (s, at) in scores.iter().zip(at.iter_mut()) {
            let x = !s.order_key();
            let inside = x.clamp(low, high);
            let b = (((inside - low) >> shift) as usize).min(last_bucket);
            let mut p = first[b] as usize;
            p += usize::from(keys[p.min(last)] < inside);
            p += usize::from(keys[p.min(last)] < inside);
            let at_or_above = keys[p.min(last)];
            // Past the highest group key, p moves to the sentinel (`u64::MAX`); otherwise x is
            // `inside` and p's key is the first at or above it.
            let above = x > high;
            let equal = if above {
                x == u64::MAX
            } else {
                at_or_above == x
            };
            *at = match at_or_above < inside {
                true => CROWDED,
                false => 2 * (p + usize::from(above)) + usize::from(equal),
            };
        }
    }

    /// [`locate_batch_body`](Self::locate_batch_body) for the baseline CPU: `locate` one score
    /// at a time, crowded buckets searched at once (without gathers, the branch-free loop is
    /// slower than this).
    #[inline(always)]
    fn locate_each<T: Score>(lookup: Lookup<'_>, scores: &[T], at: &mut [usize]) {
        for (s, at) in scores.iter().zip(at.iter_mut()) {
            *at = Self::locate(lookup, !s.order_key());
        }
    }
}

crate::wide::wide! {
    /// The intervals of a batch of scores ([`Intervals::locate_batch_body`]), a vector at a
    /// time where the CPU has AVX2 or AVX-512 (gathered with AVX-512).
    fn locate_batch<T: Score>(lookup: Lookup<'_>, scores: &[T], at: &mut [usize]) -> ()
        = Intervals::locate_batch_body | Intervals::locate_each;
}

impl Ranker {
    /// [`count_groups`](Self::count_groups) for a whole long vector with many relevant items,
    /// and its places ([`count_places`](Self::count_places)): `keys` holds the relevant items,
    /// sorted; one pass in column order counts, for each relevant group, the items above and in
    /// it and, for each relevant member, the items of its group in lower columns. Returns the
    /// positions covered: all of them.
    #[inline(never)] // inlined into `rank_gathered`, its loop compiles slower
    pub(super) fn count_groups_in_one_pass<T: Score>(
        &mut self, scores: &[T], gains: &[f64],
    ) -> usize {
        self.counted.clear();
        self.places_known = false;
        let Ranker {
            keys,
            counted,
            equal_before,
            intervals,
            ..
        } = self;
        if keys.is_empty() {
            return scores.len();
        }
        // The groups: runs of equal keys.
        let mut first = 0;
        while let Some(&(key, _)) = keys.get(first) {
            let members = keys[first..].iter().take_while(|k| k.0 == key).count();
            counted.push(CountedGroup {
                first,
                members,
                start: 0,
                len: 0,
            });
            first += members;
        }
        intervals.build(counted.iter().map(|g| keys[g.first].0));
        // Group firsts are positions among at most u32::MAX items.
        let firsts = counted.iter().map(|g| g.first as u32);
        intervals.next.extend(firsts);
        equal_before.clear();
        equal_before.resize(keys.len(), 0);
        let Intervals {
            keys: group_keys,
            first: bucket_first,
            shift,
            counts,
            next,
        } = intervals;
        let lookup = Lookup {
            keys: group_keys,
            first: bucket_first,
            shift: *shift,
        };
        let mut located = [0; BATCH];
        for (batch, scores) in scores.chunks(BATCH).enumerate() {
            let located = &mut located[..scores.len()];
            locate_batch(lookup, scores, located);
            for (k, &at) in located.iter().enumerate() {
                let j = batch * BATCH + k;
                let at = match at {
                    CROWDED => Intervals::locate(lookup, !scores[k].order_key()),
                    _ => at,
                };
                let Some(count) = counts.get_mut(at) else {
                    continue; // past the sentinel: not a finite score's key
                };
                if at % 2 == 1 && gains.get(j).is_some_and(|&g| g != 0.0) {
                    // The relevant members of group at / 2 come in column order, as in `keys`.
                    if let Some(next) = next.get_mut(at / 2) {
                        if let Some(place) = equal_before.get_mut(*next as usize) {
                            *place = *count as usize;
                        }
                        *next += 1;
                    }
                }
                *count += 1;
            }
        }
        let mut above = 0;
        for (p, g) in counted.iter_mut().enumerate() {
            above += intervals.counts[2 * p] as usize;
            g.start = above;
            g.len = intervals.counts[2 * p + 1] as usize;
            above += g.len;
        }
        self.places_known = true;
        scores.len()
    }
}

#[cfg(test)]
mod tests {
    use super::{locate_batch, Intervals, Lookup, CROWDED};
    use crate::kernel::path::force_one_pass;
    use crate::kernel::{set_kernel_path, KernelPath, Ranker, Ranking, Reach};
    use crate::labelwise::pairs::tests::draws;
    use crate::score::Score;
    use crate::ties::TiePolicy;
    use crate::wide;

    /// Scores drawn from `values` distinct values spread over `scale` (ties when few), with
    /// edge values mixed in: ±0.0, subnormals, the extremes of f64.
    fn vector(draw: &mut impl FnMut(u64) -> u64, n: usize, values: u64) -> Vec<f64> {
        let edges = [
            0.0,
            -0.0,
            f64::MIN_POSITIVE / 4.0,
            -f64::MIN_POSITIVE / 8.0,
            f64::MAX,
            f64::MIN,
            1e-300,
            -1e300,
        ];
        (0..n)
            .map(|_| match draw(10) {
                0 => edges[draw(edges.len() as u64) as usize],
                _ => draw(values) as f64 / values as f64 - 0.5,
            })
            .collect()
    }

    #[test]
    fn counted_in_one_pass_equals_the_full_ranking() {
        let mut draw = draws(0x1_7E57);
        let policies = TiePolicy::R_METHODS
            .into_iter()
            .filter(|t| !matches!(t, TiePolicy::Random(_)))
            .chain(TiePolicy::ANALYSIS);
        let policies: Vec<TiePolicy> = policies.collect();
        for case in 0..200 {
            let n = [1, 2, 7, 40, 300, 3000][case % 6];
            let values = [1, 3, 50, 1 << 40][case % 4];
            let scores = vector(&mut draw, n, values);
            // Dense relevance (the case this path is for), graded and negative gains, -0.0.
            let gains: Vec<f64> = (0..n)
                .map(|_| [0.0, 1.0, 2.0, -1.0, -0.0, 0.0][draw(6) as usize])
                .collect();
            // One kernel counts once and places the groups again under each later policy.
            let mut shared = Ranker::new();
            shared.gather(&gains);
            for (k, &ties) in policies.iter().enumerate() {
                let ranking = Ranking::new(ties);
                let full = snapshot_relevant(&mut Ranker::new(), &scores, &gains, ranking, None);
                let mut ranker = Ranker::new();
                ranker.gather(&gains);
                let counted = snapshot_relevant(&mut ranker, &scores, &gains, ranking, Some(false));
                assert_eq!(counted, full, "case {case} {ties:?}");
                let again = snapshot_relevant(&mut shared, &scores, &gains, ranking, Some(k > 0));
                assert_eq!(again, full, "case {case} {ties:?} placed again");
            }
        }
    }

    /// The batch's locations, on the widest path the CPU has, in the vector loop's body and in
    /// the baseline's loop, are `locate`'s wherever they are not marked crowded, and the vector
    /// loop marks those whose bucket needed the search: keys spread evenly, crowded (both
    /// signs, far outliers), tied to the group keys, below and above them all, the edges of
    /// f64, and scores no finite one equals (NaN, the all-ones NaN whose key is the sentinel's,
    /// the infinities). tests/wide.rs compares every path through the metrics.
    #[test]
    fn batches_locate_as_one_at_a_time() {
        let mut draw = draws(0xBA7C4);
        // Scores marked crowded, and located on a group key, over all cases.
        let (mut seen_crowded, mut seen_equal) = (0, 0);
        for case in 0..300 {
            let n = [1, 5, 63, 64, 65, 700][case % 6];
            let groups = 1 + draw([1, 4, 300, 5000][case % 4]) as usize;
            let spread = |draw: &mut dyn FnMut(u64) -> u64| match case % 3 {
                0 => draw(1 << 40) as f64 / (1u64 << 40) as f64,
                1 => (draw(2000) as f64 - 1000.0) * 10f64.powi(draw(30) as i32 - 15),
                _ => [f64::MAX, f64::MIN, 0.0, -0.0, 1e-310, -1e-310][draw(6) as usize],
            };
            let mut group_keys: Vec<u64> = (0..groups)
                .map(|_| !spread(&mut draw).order_key())
                .collect();
            group_keys.sort_unstable();
            group_keys.dedup();
            let mut intervals = Intervals::default();
            intervals.build(group_keys.iter().copied());
            let not_finite = [
                f64::NAN,
                f64::from_bits(u64::MAX),
                f64::INFINITY,
                -f64::INFINITY,
            ];
            let scores: Vec<f64> = (0..n)
                .map(|_| match draw(40) {
                    0 => not_finite[draw(4) as usize],
                    // A group key's score: `order_key` undone.
                    1..=13 => {
                        let key = !group_keys[draw(group_keys.len() as u64) as usize];
                        f64::from_bits(if key >> 63 == 1 {
                            key ^ (1 << 63)
                        } else {
                            !key
                        })
                    }
                    _ => spread(&mut draw),
                })
                .collect();
            let Intervals {
                keys, first, shift, ..
            } = &intervals;
            let lookup = Lookup {
                keys,
                first,
                shift: *shift,
            };
            let one_at_a_time: Vec<usize> = scores
                .iter()
                .map(|s| Intervals::locate(lookup, !s.order_key()))
                .collect();
            let mut located = vec![0; n];
            for run in 0..3 {
                match run {
                    0 => locate_batch(lookup, &scores, &mut located),
                    1 => Intervals::locate_batch_body(lookup, &scores, &mut located),
                    _ => Intervals::locate_each(lookup, &scores, &mut located),
                }
                for (k, x) in scores.iter().map(|s| !s.order_key()).enumerate() {
                    // Whether more than two group keys of x's bucket are below x.
                    let searched = {
                        let (low, high) = (keys[0], keys[keys.len() - 2]);
                        let inside = x.clamp(low, high);
                        let p = first[((inside - low) >> shift) as usize] as usize;
                        keys[p..].iter().take_while(|&&key| key < inside).count() > 2
                    };
                    let (at, crowded) = (located[k], located[k] == CROWDED);
                    // The widest path is the vector loop unless this CPU runs the baseline.
                    let vector = run == 1 || (run == 0 && wide::widest() != wide::BASELINE);
                    assert_eq!(
                        crowded,
                        vector && searched,
                        "case {case} run {run} score {k}"
                    );
                    if !crowded {
                        assert_eq!(at, one_at_a_time[k], "case {case} run {run} score {k}");
                    }
                    seen_crowded += usize::from(crowded);
                    seen_equal += one_at_a_time[k] % 2;
                }
            }
        }
        assert!(
            seen_crowded > 1000 && seen_equal > 10_000,
            "{seen_crowded} {seen_equal}"
        );
    }

    /// The relevant blocks of a ranking, bit for bit: from a full sort (`counted` None) or the
    /// one-pass count (forced for short vectors too), placed again (`Some(true)`) after a
    /// count under another policy.
    fn snapshot_relevant(
        ranker: &mut Ranker, scores: &[f64], gains: &[f64], ranking: Ranking, counted: Option<bool>,
    ) -> String {
        force_one_pass(true);
        let row = match counted {
            None => ranker.rank(scores, gains, ranking, 0),
            Some(false) => ranker.rank_gathered(scores, gains, ranking, 0, Reach::All),
            Some(true) => ranker.rank_gathered_again(scores, gains, ranking, 0, Reach::All),
        };
        force_one_pass(false);
        let blocks: Vec<_> = row
            .relevant_blocks()
            .map(|b| (b.start, b.len, b.relevant, b.gain.to_bits()))
            .collect();
        format!("{blocks:?} {} {}", row.n_labels(), row.n_relevant())
    }

    #[test]
    fn long_vectors_with_many_relevant_items_take_the_one_pass_in_auto() {
        let mut draw = draws(0xA11);
        let n = 5000;
        let scores = vector(&mut draw, n, 100);
        let gains: Vec<f64> = (0..n).map(|_| (draw(3) == 0) as u8 as f64).collect();
        let ranking = Ranking::new(TiePolicy::Last);
        set_kernel_path(KernelPath::Auto);
        let mut ranker = Ranker::new();
        let row = ranker.rank_relevant(&scores, &gains, ranking, 0);
        // Counted: no order.
        assert!(row.order().is_empty());
        let counted: Vec<_> = row.relevant_blocks().copied().collect();
        let full = Ranker::new()
            .rank(&scores, &gains, ranking, 0)
            .relevant_blocks()
            .copied()
            .collect::<Vec<_>>();
        assert_eq!(counted, full);
    }
}
