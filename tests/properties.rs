//! Property tests: every metric against a naive reference written straight from its formula,
//! and the invariances the metrics promise (label permutation, weights, monotone score
//! transforms, f32 = f64, tie grouping), over small random inputs with many ties.
//!
//! The reference ranks labels by O(L²) pairwise comparisons, without the crate's kernel.

use proptest::prelude::*;
use proptest::sample::select;
use rankmetrics::*;

/// Scores drawn from this set tie often; `-0.0` ties with `0.0`.
static TIED: [f64; 5] = [0.0, -0.0, 0.25, 0.5, 1.0];
const TOL: f64 = 1e-12;

// ---------------------------------------------------------------------------------------------
// The metrics under test, by name.

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Coverage,
    CoverageOneBased,
    AveragePrecision,
    RankingLoss,
    ErrorSetSize,
    IsError,
    OneError,
}

const KINDS: [Kind; 7] = [
    Kind::Coverage,
    Kind::CoverageOneBased,
    Kind::AveragePrecision,
    Kind::RankingLoss,
    Kind::ErrorSetSize,
    Kind::IsError,
    Kind::OneError,
];

/// Builds metric `$kind` with `$ties` and `$grouping` as `$m`, then evaluates `$body`.
macro_rules! with_metric {
    ($kind:expr, $ties:expr, $grouping:expr, |$m:ident| $body:expr) => {
        match $kind {
            Kind::Coverage => {
                let $m = Coverage::new($ties).with_grouping($grouping);
                $body
            }
            Kind::CoverageOneBased => {
                let $m = Coverage::new($ties)
                    .one_based(true)
                    .with_grouping($grouping);
                $body
            }
            Kind::AveragePrecision => {
                let $m = AveragePrecision::new($ties).with_grouping($grouping);
                $body
            }
            Kind::RankingLoss => {
                let $m = RankingLoss::new($ties).with_grouping($grouping);
                $body
            }
            Kind::ErrorSetSize => {
                let $m = ErrorSetSize::new($ties).with_grouping($grouping);
                $body
            }
            Kind::IsError => {
                let $m = IsError::new($ties).with_grouping($grouping);
                $body
            }
            Kind::OneError => {
                let $m = OneError::new($ties).with_grouping($grouping);
                $body
            }
        }
    };
}

type Labels = Vec<Vec<u8>>;

fn evaluate_g<T: Score>(
    kind: Kind, ties: TiePolicy, grouping: TieGrouping, y: &[Vec<u8>], s: &[Vec<T>],
    w: Option<&[f64]>,
) -> Result<f64, Error> {
    with_metric!(kind, ties, grouping, |m| m.evaluate(y, s, w))
}

fn evaluate<T: Score>(
    kind: Kind, ties: TiePolicy, y: &[Vec<u8>], s: &[Vec<T>], w: Option<&[f64]>,
) -> Result<f64, Error> {
    evaluate_g(kind, ties, TieGrouping::Exact, y, s, w)
}

fn per_sample_g<T: Score>(
    kind: Kind, ties: TiePolicy, grouping: TieGrouping, y: &[Vec<u8>], s: &[Vec<T>],
) -> Vec<f64> {
    let values = with_metric!(kind, ties, grouping, |m| m.per_sample(y, s)).unwrap();
    // The default row rules never skip a row.
    values.into_iter().map(|v| v.unwrap()).collect()
}

fn per_sample<T: Score>(kind: Kind, ties: TiePolicy, y: &[Vec<u8>], s: &[Vec<T>]) -> Vec<f64> {
    per_sample_g(kind, ties, TieGrouping::Exact, y, s)
}

// ---------------------------------------------------------------------------------------------
// The naive reference.

/// One row ranked naively: each label's rank, the error weight of every (relevant λ,
/// irrelevant μ) pair, and the one-error.
struct NaiveRow {
    rank: Vec<f64>,
    /// `pair_error[λ][μ]`: how much μ counts as ranked above λ.
    pair_error: Vec<Vec<f64>>,
    one_error: f64,
}

/// Whether label j precedes label k in the strict order of `First` (`last == false`) or
/// `Last` (ties: the higher column first).
fn strictly_before(s: &[f64], j: usize, k: usize, last: bool) -> bool {
    s[j] > s[k] || (s[j] == s[k] && if last { j > k } else { j < k })
}

/// The naive ranking of one row under a deterministic policy.
fn naive_ranking(ties: TiePolicy, y: &[u8], s: &[f64]) -> NaiveRow {
    let l = s.len();
    let rel = |j: usize| y[j] != 0;
    let shared = |tie: f64| {
        let rank = (0..l)
            .map(|j| {
                let max = (0..l).filter(|&k| s[k] >= s[j]).count() as f64;
                let min = 1.0 + (0..l).filter(|&k| s[k] > s[j]).count() as f64;
                match ties {
                    TiePolicy::Max => max,
                    TiePolicy::Min => min,
                    _ => (min + max) / 2.0,
                }
            })
            .collect();
        let pair_error = (0..l)
            .map(|a| {
                (0..l)
                    .map(|b| match s[b].partial_cmp(&s[a]) {
                        Some(std::cmp::Ordering::Greater) => 1.0,
                        Some(std::cmp::Ordering::Equal) => tie,
                        _ => 0.0,
                    })
                    .collect()
            })
            .collect();
        let top_score = s.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let top: Vec<usize> = (0..l).filter(|&j| s[j] == top_score).collect();
        let top_relevant = top.iter().filter(|&&j| rel(j)).count();
        let one_error = match ties {
            TiePolicy::Max => f64::from(u8::from(top_relevant < top.len())),
            TiePolicy::Min => f64::from(u8::from(top_relevant == 0)),
            _ => (top.len() - top_relevant) as f64 / top.len() as f64,
        };
        NaiveRow {
            rank,
            pair_error,
            one_error,
        }
    };
    match ties {
        TiePolicy::Max => shared(1.0),
        TiePolicy::Min => shared(0.0),
        TiePolicy::Average => shared(0.5),
        TiePolicy::First | TiePolicy::Last => {
            let last = ties == TiePolicy::Last;
            let position: Vec<usize> = (0..l)
                .map(|j| (0..l).filter(|&k| strictly_before(s, k, j, last)).count())
                .collect();
            naive_strict(y, &position)
        }
        other => panic!("no naive reference for {other:?}"),
    }
}

/// The naive ranking of one row from an explicit strict order: `position[j]` = how many labels
/// precede label j.
fn naive_strict(y: &[u8], position: &[usize]) -> NaiveRow {
    let l = position.len();
    let first = (0..l).find(|&j| position[j] == 0).unwrap();
    NaiveRow {
        rank: position.iter().map(|&p| p as f64 + 1.0).collect(),
        pair_error: (0..l)
            .map(|a| {
                (0..l)
                    .map(|b| f64::from(u8::from(position[b] < position[a])))
                    .collect()
            })
            .collect(),
        one_error: f64::from(u8::from(y[first] == 0)),
    }
}

/// Metric `kind` of one row from its naive ranking, with the metric's default row rules.
fn naive_value(kind: Kind, y: &[u8], r: &NaiveRow) -> f64 {
    let l = y.len();
    let relevant: Vec<usize> = (0..l).filter(|&j| y[j] != 0).collect();
    let irrelevant: Vec<usize> = (0..l).filter(|&j| y[j] == 0).collect();
    let pairs: f64 = relevant
        .iter()
        .flat_map(|&a| irrelevant.iter().map(move |&b| (a, b)))
        .map(|(a, b)| r.pair_error[a][b])
        .sum();
    let worst = relevant.iter().map(|&j| r.rank[j]).fold(0.0, f64::max);
    match kind {
        Kind::Coverage if relevant.is_empty() => 0.0,
        Kind::Coverage => worst - 1.0,
        Kind::CoverageOneBased => worst,
        Kind::AveragePrecision if relevant.is_empty() => 1.0,
        Kind::AveragePrecision => {
            relevant
                .iter()
                .map(|&a| {
                    let at_or_above = relevant.iter().filter(|&&b| r.rank[b] <= r.rank[a]).count();
                    at_or_above as f64 / r.rank[a]
                })
                .sum::<f64>()
                / relevant.len() as f64
        }
        Kind::RankingLoss if relevant.is_empty() || irrelevant.is_empty() => 0.0,
        Kind::RankingLoss => pairs / (relevant.len() * irrelevant.len()) as f64,
        Kind::ErrorSetSize => pairs,
        Kind::IsError => f64::from(u8::from(pairs > 0.0)),
        Kind::OneError => r.one_error,
    }
}

fn naive_rows(kind: Kind, ties: TiePolicy, y: &[Vec<u8>], s: &[Vec<f64>]) -> Vec<f64> {
    y.iter()
        .zip(s)
        .map(|(y, s)| naive_value(kind, y, &naive_ranking(ties, y, s)))
        .collect()
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

/// Equal up to `TOL`, relative to the magnitude (NaN equals NaN).
fn close(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || (a - b).abs() <= TOL * a.abs().max(b.abs()).max(1.0)
}

fn all_close(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(&x, &y)| close(x, y))
}

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

// ---------------------------------------------------------------------------------------------
// Inputs.

/// A label row: planted all-irrelevant and all-relevant rows, and mixed ones.
fn label_row(l: usize) -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        1 => Just(vec![0u8; l]),
        1 => Just(vec![1u8; l]),
        4 => prop::collection::vec(0u8..=1, l),
    ]
}

/// A score row: mostly from the tied set, sometimes continuous, sometimes a mix.
fn score_row(l: usize) -> impl Strategy<Value = Vec<f64>> {
    let tied = || select(TIED.to_vec());
    prop_oneof![
        4 => prop::collection::vec(tied(), l),
        1 => prop::collection::vec(-1.0f64..1.0, l),
        1 => prop::collection::vec(prop_oneof![tied(), -1.0f64..1.0], l),
    ]
}

/// n in 1..8 rows, L in 1..9 labels.
fn dataset() -> impl Strategy<Value = (Labels, Vec<Vec<f64>>)> {
    (1usize..8, 1usize..9).prop_flat_map(|(n, l)| {
        (
            prop::collection::vec(label_row(l), n),
            prop::collection::vec(score_row(l), n),
        )
    })
}

/// A dataset whose rows have distinct scores (no ties at all).
fn distinct_dataset() -> impl Strategy<Value = (Labels, Vec<Vec<f64>>)> {
    (1usize..8, 1usize..9).prop_flat_map(|(n, l)| {
        let row = Just((0..l).map(|j| j as f64 * 0.125 - 0.5).collect::<Vec<_>>()).prop_shuffle();
        (
            prop::collection::vec(label_row(l), n),
            prop::collection::vec(row, n),
        )
    })
}

/// A dataset with one small integer weight per row.
fn weighted_dataset() -> impl Strategy<Value = (Labels, Vec<Vec<f64>>, Vec<u8>)> {
    dataset().prop_flat_map(|(y, s)| {
        let n = y.len();
        (Just(y), Just(s), prop::collection::vec(0u8..4, n))
    })
}

fn columns_permuted<T: Copy>(m: &[Vec<T>], perm: &[usize]) -> Vec<Vec<T>> {
    m.iter()
        .map(|row| perm.iter().map(|&j| row[j]).collect())
        .collect()
}

/// Row i repeated `times[i]` times.
fn rows_repeated<T: Copy>(m: &[Vec<T>], times: &[u8]) -> Vec<Vec<T>> {
    m.iter()
        .zip(times)
        .flat_map(|(row, &k)| std::iter::repeat_n(row.clone(), k.into()))
        .collect()
}

fn columns_reversed<T: Copy>(m: &[Vec<T>]) -> Vec<Vec<T>> {
    m.iter()
        .map(|row| row.iter().rev().copied().collect())
        .collect()
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 200,
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------------------------------------
// Properties.

proptest! {
    #![proptest_config(config())]

    /// evaluate and per_sample equal the naive reference, for every metric and policy.
    #[test]
    fn metrics_equal_the_naive_reference((y, s) in dataset()) {
        for ties in TiePolicy::R_METHODS {
            for kind in KINDS {
                let expected = naive_rows(kind, ties, &y, &s);
                let rows = per_sample(kind, ties, &y, &s);
                prop_assert!(all_close(&rows, &expected), "{kind:?} {ties:?}: {rows:?} != {expected:?}");
                let value = evaluate(kind, ties, &y, &s, None).unwrap();
                prop_assert!(close(value, mean(&expected)), "{kind:?} {ties:?}: {value} != {expected:?}");
            }
        }
    }

    /// The toolkit presets equal the naive reference under their documented convention.
    #[test]
    fn presets_equal_the_naive_reference((y, s) in dataset()) {
        let max = |kind| naive_rows(kind, TiePolicy::Max, &y, &s);
        let last = |kind| naive_rows(kind, TiePolicy::Last, &y, &s);
        let first = |kind| naive_rows(kind, TiePolicy::First, &y, &s);
        let lrap = sklearn::label_ranking_average_precision_score(&y, &s, None).unwrap();
        prop_assert!(close(lrap, mean(&max(Kind::AveragePrecision))));
        let l = y[0].len();
        if l >= 2 {
            let cov = sklearn::coverage_error(&y, &s, None).unwrap();
            prop_assert!(close(cov, mean(&max(Kind::CoverageOneBased))));
            let rl = sklearn::label_ranking_loss(&y, &s, None).unwrap();
            prop_assert!(close(rl, mean(&max(Kind::RankingLoss))));
            let rl = torchmetrics::MULTILABEL_RANKING_LOSS.evaluate(&y, &s, None).unwrap();
            prop_assert!(close(rl, mean(&last(Kind::RankingLoss))));
        }
        let ap = mldr::average_precision(&y, &s, TiePolicy::Last).unwrap();
        prop_assert!(close(ap, mean(&last(Kind::AveragePrecision))));
        prop_assert!(close(mldr::coverage(&y, &s, TiePolicy::Last).unwrap(), mean(&last(Kind::Coverage))));
        prop_assert!(close(mldr::one_error(&y, &s).unwrap(), mean(&first(Kind::OneError))));
        prop_assert!(close(mldr::ranking_loss(&y, &s).unwrap(), mean(&max(Kind::RankingLoss))));
    }

    /// MULAN's presets (Last, Weka's 1e-6 tolerance) equal the naive `Last` reference when no
    /// two distinct scores of a row are closer than 1e-6; its AveragePrecision skips rows
    /// without a relevant label.
    #[test]
    fn mulan_presets_equal_the_naive_reference((y, s) in dataset()) {
        let far_apart = s.iter().all(|row| {
            row.iter().all(|a| row.iter().all(|b| a == b || (a - b).abs() >= 1e-6))
        });
        prop_assume!(far_apart);
        let last = |kind| naive_rows(kind, TiePolicy::Last, &y, &s);
        prop_assert!(close(mulan::Coverage.evaluate(&y, &s, None).unwrap(), mean(&last(Kind::Coverage))));
        prop_assert!(close(mulan::RankingLoss.evaluate(&y, &s, None).unwrap(), mean(&last(Kind::RankingLoss))));
        prop_assert!(close(mulan::ErrorSetSize.evaluate(&y, &s, None).unwrap(), mean(&last(Kind::ErrorSetSize))));
        prop_assert!(close(mulan::IsError.evaluate(&y, &s, None).unwrap(), mean(&last(Kind::IsError))));
        prop_assert!(close(mulan::OneError.evaluate(&y, &s, None).unwrap(), mean(&last(Kind::OneError))));
        let counted: Vec<f64> = last(Kind::AveragePrecision)
            .into_iter()
            .zip(&y)
            .filter(|(_, y)| y.contains(&1))
            .map(|(v, _)| v)
            .collect();
        let ap = mulan::AveragePrecision.evaluate(&y, &s, None).unwrap();
        if counted.is_empty() {
            prop_assert!(ap.is_nan());
        } else {
            prop_assert!(close(ap, mean(&counted)));
        }
    }

    /// Random(seed) gives bitwise the same values on every run.
    #[test]
    fn random_is_reproducible((y, s) in dataset(), seed in any::<u64>()) {
        for kind in KINDS {
            let ties = TiePolicy::Random(seed);
            let a = evaluate(kind, ties, &y, &s, None).unwrap();
            let b = evaluate(kind, ties, &y, &s, None).unwrap();
            prop_assert_eq!(a.to_bits(), b.to_bits());
            prop_assert_eq!(bits(&per_sample(kind, ties, &y, &s)), bits(&per_sample(kind, ties, &y, &s)));
        }
    }

    /// Random(seed) ranks each row in a strict order that sorts scores descending, and every
    /// metric equals the naive strict metric applied to that order.
    #[test]
    fn random_equals_the_naive_metric_on_its_order((y, s) in dataset(), seed in any::<u64>()) {
        let ties = TiePolicy::Random(seed);
        let mut ranker = Ranker::new();
        let mut expected = vec![Vec::new(); KINDS.len()];
        for (i, (yi, si)) in y.iter().zip(&s).enumerate() {
            let gains: Vec<f64> = yi.iter().map(|&v| f64::from(v)).collect();
            let order = ranker.rank(si.as_slice(), &gains, Ranking::new(ties), i).order().to_vec();
            let mut sorted = order.clone();
            sorted.sort_unstable();
            prop_assert_eq!(sorted, (0..si.len() as u32).collect::<Vec<_>>());
            prop_assert!(order.windows(2).all(|w| si[w[0] as usize] >= si[w[1] as usize]));
            let mut position = vec![0; si.len()];
            for (p, &j) in order.iter().enumerate() {
                position[j as usize] = p;
            }
            let naive = naive_strict(yi, &position);
            for (k, kind) in KINDS.into_iter().enumerate() {
                expected[k].push(naive_value(kind, yi, &naive));
            }
        }
        for (k, kind) in KINDS.into_iter().enumerate() {
            let rows = per_sample(kind, ties, &y, &s);
            prop_assert!(all_close(&rows, &expected[k]), "{kind:?}: {rows:?} != {:?}", expected[k]);
        }
    }

    /// Without ties every policy, Random included, gives the same ranking.
    #[test]
    fn without_ties_every_policy_agrees((y, s) in distinct_dataset(), seed in any::<u64>()) {
        for kind in KINDS {
            let first = per_sample(kind, TiePolicy::First, &y, &s);
            for ties in TiePolicy::R_METHODS.into_iter().chain([TiePolicy::Random(seed)]) {
                prop_assert_eq!(bits(&per_sample(kind, ties, &y, &s)), bits(&first), "{:?} {:?}", kind, ties);
            }
        }
    }

    /// Permuting the label columns changes nothing under the rank-sharing policies.
    #[test]
    fn sharing_policies_ignore_column_order(
        (y, s, perm) in dataset().prop_flat_map(|(y, s)| {
            let l = y[0].len();
            (Just(y), Just(s), Just((0..l).collect::<Vec<usize>>()).prop_shuffle())
        })
    ) {
        let (yp, sp) = (columns_permuted(&y, &perm), columns_permuted(&s, &perm));
        for ties in [TiePolicy::Max, TiePolicy::Min, TiePolicy::Average] {
            for kind in KINDS {
                prop_assert_eq!(
                    bits(&per_sample(kind, ties, &yp, &sp)),
                    bits(&per_sample(kind, ties, &y, &s)),
                    "{:?} {:?}", kind, ties
                );
            }
        }
    }

    /// Reversing the columns of both matrices turns First into Last.
    #[test]
    fn reversed_columns_turn_first_into_last((y, s) in dataset()) {
        let (yr, sr) = (columns_reversed(&y), columns_reversed(&s));
        for kind in KINDS {
            prop_assert_eq!(
                bits(&per_sample(kind, TiePolicy::First, &yr, &sr)),
                bits(&per_sample(kind, TiePolicy::Last, &y, &s)),
                "{:?}", kind
            );
            prop_assert_eq!(
                evaluate(kind, TiePolicy::First, &yr, &sr, None).unwrap().to_bits(),
                evaluate(kind, TiePolicy::Last, &y, &s, None).unwrap().to_bits()
            );
        }
    }

    /// An integer weight equals repeating the row that many times (zero: removing it).
    #[test]
    fn integer_weights_equal_repeated_rows((y, s, w) in weighted_dataset()) {
        let weights: Vec<f64> = w.iter().map(|&k| f64::from(k)).collect();
        let (yr, sr) = (rows_repeated(&y, &w), rows_repeated(&s, &w));
        for ties in TiePolicy::R_METHODS {
            for kind in KINDS {
                let weighted = evaluate(kind, ties, &y, &s, Some(&weights));
                if yr.is_empty() {
                    prop_assert_eq!(weighted, Err(Error::ZeroTotalWeight));
                    prop_assert_eq!(evaluate(kind, ties, &yr, &sr, None), Err(Error::NoSamples));
                } else {
                    let repeated = evaluate(kind, ties, &yr, &sr, None).unwrap();
                    prop_assert!(close(weighted.unwrap(), repeated), "{:?} {:?}", kind, ties);
                }
            }
        }
    }

    /// A zero weight equals removing the row.
    #[test]
    fn zero_weight_equals_removing_the_row(
        (y, s, k) in dataset()
            .prop_filter("two rows or more", |(y, _)| y.len() >= 2)
            .prop_flat_map(|(y, s)| { let n = y.len(); (Just(y), Just(s), 0..n) })
    ) {
        let mut weights = vec![1.0; y.len()];
        weights[k] = 0.0;
        let (mut yr, mut sr) = (y.clone(), s.clone());
        yr.remove(k);
        sr.remove(k);
        for ties in TiePolicy::R_METHODS {
            for kind in KINDS {
                let weighted = evaluate(kind, ties, &y, &s, Some(&weights)).unwrap();
                let removed = evaluate(kind, ties, &yr, &sr, None).unwrap();
                prop_assert!(close(weighted, removed), "{:?} {:?}: {} != {}", kind, ties, weighted, removed);
            }
        }
    }

    /// Scaling every weight leaves the result unchanged (bitwise for a power of two); unit
    /// weights are bitwise the same as no weights.
    #[test]
    fn weights_are_scale_free(
        (y, s, w) in dataset().prop_flat_map(|(y, s)| {
            let n = y.len();
            let weight = prop_oneof![1 => Just(0.0), 4 => 0.01f64..5.0];
            (Just(y), Just(s), prop::collection::vec(weight, n))
        })
    ) {
        prop_assume!(w.iter().any(|&x| x > 0.0));
        let scaled = |c: f64| w.iter().map(|x| x * c).collect::<Vec<_>>();
        let ones = vec![1.0; y.len()];
        for ties in TiePolicy::R_METHODS {
            for kind in KINDS {
                let base = evaluate(kind, ties, &y, &s, Some(&w)).unwrap();
                let doubled = evaluate(kind, ties, &y, &s, Some(&scaled(2.0))).unwrap();
                prop_assert_eq!(base.to_bits(), doubled.to_bits(), "{:?} {:?}", kind, ties);
                let shrunk = evaluate(kind, ties, &y, &s, Some(&scaled(0.3))).unwrap();
                prop_assert!(close(base, shrunk), "{:?} {:?}: {} != {}", kind, ties, base, shrunk);
                let unit = evaluate(kind, ties, &y, &s, Some(&ones)).unwrap();
                let none = evaluate(kind, ties, &y, &s, None).unwrap();
                prop_assert_eq!(unit.to_bits(), none.to_bits(), "{:?} {:?}", kind, ties);
            }
        }
    }

    /// A strictly increasing transform of the scores changes nothing.
    #[test]
    fn increasing_transforms_change_nothing((y, s) in dataset(), which in 0usize..4) {
        let f = |x: f64| match which {
            0 => 3.0 * x + 1.0,
            1 => x * x * x,
            2 => x.exp(),
            _ => x.atan() - 7.0,
        };
        let t: Vec<Vec<f64>> = s.iter().map(|row| row.iter().map(|&x| f(x)).collect()).collect();
        // Rounding may merge two continuous scores that are very close; skip those inputs.
        let order_kept = s.iter().zip(&t).all(|(a, b)| {
            (0..a.len()).all(|j| (0..a.len()).all(|k| a[j].partial_cmp(&a[k]) == b[j].partial_cmp(&b[k])))
        });
        prop_assume!(order_kept);
        for ties in TiePolicy::R_METHODS.into_iter().chain([TiePolicy::Random(9)]) {
            for kind in KINDS {
                prop_assert_eq!(
                    bits(&per_sample(kind, ties, &y, &t)),
                    bits(&per_sample(kind, ties, &y, &s)),
                    "{:?} {:?}", kind, ties
                );
            }
        }
    }

    /// All relevant labels above all irrelevant ones, distinct scores: the best values.
    #[test]
    fn a_perfect_ranking_scores_best(
        (y, s) in (1usize..8, 1usize..9).prop_flat_map(|(n, l)| {
            prop::collection::vec(
                (label_row(l), Just((0..l).collect::<Vec<usize>>()).prop_shuffle()),
                n,
            )
        })
        .prop_map(|rows| {
            // Relevant labels take the scores 10 + tiebreak, irrelevant ones 0 + tiebreak.
            rows.into_iter()
                .map(|(y, perm)| {
                    let s = y.iter().zip(&perm).map(|(&r, &p)| f64::from(r) * 10.0 + p as f64 * 0.5).collect();
                    (y, s)
                })
                .unzip::<_, _, Labels, Vec<Vec<f64>>>()
        })
    ) {
        for ties in TiePolicy::R_METHODS {
            for (i, (yi, si)) in y.iter().zip(&s).enumerate() {
                let (row_y, row_s) = (vec![yi.clone()], vec![si.clone()]);
                let n_rel = yi.iter().filter(|&&v| v != 0).count();
                let value = |kind| evaluate(kind, ties, &row_y, &row_s, None).unwrap();
                let coverage = n_rel.saturating_sub(1) as f64;
                prop_assert_eq!(value(Kind::Coverage), coverage, "row {} {:?}", i, ties);
                prop_assert_eq!(value(Kind::AveragePrecision), 1.0);
                prop_assert_eq!(value(Kind::RankingLoss), 0.0);
                prop_assert_eq!(value(Kind::ErrorSetSize), 0.0);
                prop_assert_eq!(value(Kind::IsError), 0.0);
                if n_rel > 0 {
                    prop_assert_eq!(value(Kind::OneError), 0.0);
                }
            }
        }
    }

    /// f32 scores and weights give bitwise the same results as the same values in f64.
    #[test]
    fn f32_equals_f64(
        (y, s32, w) in (1usize..8, 1usize..9).prop_flat_map(|(n, l)| {
            let tied32 = select(vec![0.0f32, -0.0, 0.25, 0.5, 1.0]);
            let row = prop_oneof![
                2 => prop::collection::vec(tied32, l),
                1 => prop::collection::vec(-1.0f32..1.0, l),
            ];
            (
                prop::collection::vec(label_row(l), n),
                prop::collection::vec(row, n),
                prop::collection::vec(prop_oneof![Just(0.0f32), 0.5f32..3.0], n),
            )
        })
    ) {
        let s64: Vec<Vec<f64>> = s32.iter().map(|r| r.iter().map(|&x| f64::from(x)).collect()).collect();
        let w64: Vec<f64> = w.iter().map(|&x| f64::from(x)).collect();
        for ties in TiePolicy::R_METHODS.into_iter().chain([TiePolicy::Random(5)]) {
            for grouping in [TieGrouping::Exact, TieGrouping::WEKA] {
                for kind in KINDS {
                    prop_assert_eq!(
                        bits(&per_sample_g(kind, ties, grouping, &y, &s32)),
                        bits(&per_sample_g(kind, ties, grouping, &y, &s64))
                    );
                    let (a, b) = (
                        evaluate_g(kind, ties, grouping, &y, &s32, Some(&w64)),
                        evaluate_g(kind, ties, grouping, &y, &s64, Some(&w64)),
                    );
                    prop_assert_eq!(a.map(f64::to_bits), b.map(f64::to_bits), "{:?} {:?}", kind, ties);
                }
            }
        }
    }

    /// Weka's tolerance: scores less than 1e-6 apart tie. Perturbing each tied-set score by
    /// less than eps/2 and grouping with `Within(1e-6)` gives exactly the exact-tie result on
    /// the unperturbed scores; on the unperturbed scores both groupings agree.
    #[test]
    fn weka_tolerance_groups_near_ties(
        (y, s, jitter) in (1usize..8, 1usize..9).prop_flat_map(|(n, l)| {
            (
                prop::collection::vec(label_row(l), n),
                prop::collection::vec(prop::collection::vec(select(TIED.to_vec()), l), n),
                prop::collection::vec(prop::collection::vec(0u8..5, l), n),
            )
        })
    ) {
        let near: Vec<Vec<f64>> = s.iter().zip(&jitter).map(|(row, jit)| {
            row.iter().zip(jit).map(|(&x, &k)| x + f64::from(k) * 1e-7).collect()
        }).collect();
        for ties in TiePolicy::R_METHODS {
            for kind in KINDS {
                let exact = per_sample(kind, ties, &y, &s);
                prop_assert_eq!(bits(&per_sample_g(kind, ties, TieGrouping::WEKA, &y, &s)), bits(&exact));
                prop_assert_eq!(
                    bits(&per_sample_g(kind, ties, TieGrouping::WEKA, &y, &near)),
                    bits(&exact),
                    "{:?} {:?}", kind, ties
                );
            }
        }
    }

    /// `Within(0.0)` groups nothing, not even exact ties: Weka's rule joins a score only when
    /// it is *less than* eps above the group's smallest, and an equal score is 0 above. Every
    /// label is then its own group, in the kernel's order (descending score, ties by column),
    /// so every policy behaves as `First` with exact grouping. This is what the documented rule
    /// implies; `Within(0.0)` is not the same as `Exact`.
    #[test]
    fn within_zero_is_first((y, s) in dataset()) {
        for ties in TiePolicy::R_METHODS {
            for kind in KINDS {
                prop_assert_eq!(
                    bits(&per_sample_g(kind, ties, TieGrouping::Within(0.0), &y, &s)),
                    bits(&per_sample(kind, TiePolicy::First, &y, &s)),
                    "{:?} {:?}", kind, ties
                );
            }
        }
    }
}
