//! The kernel's two paths (sort the row, or count around its relevant labels) must give every
//! row-wise metric that reads only relevant blocks bitwise the same per-sample values, under
//! every tie policy, with exact tie grouping and with tolerance grouping (counted where no
//! other score lies within the tolerance of the relevant scores read).
//!
//! The path switch is process-wide: the tests here run one at a time (each takes the lock
//! below), and nothing else in this binary may run while it is set.

use proptest::prelude::*;
use proptest::sample::select;
use rankmetrics::*;

/// Few distinct scores, so rows are full of ties; `-0.0` ties with `0.0`.
static SCORES: [f64; 6] = [0.0, -0.0, 0.25, 0.5, 0.5, 1.0];
/// Mostly irrelevant labels, graded and negative gains too (every metric here is told to take
/// any finite label).
static LABELS: [f64; 9] = [0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 2.5, -1.0, 0.1];

/// Scores in and out of one another's tolerance of 1e-6: chains of near ties (0.5, 0.5 + 4e-7,
/// 0.5 + 9e-7, 0.5 + 1.3e-6), exact ties, ±0.0, a subnormal, and scores far from the rest
/// (differences that overflow to infinity among them).
static NEAR_SCORES: [f64; 13] = [
    0.0, -0.0, 5e-7, 5e-324, 0.5, 0.5, 0.5000004, 0.5000009, 0.5000013, 0.75, 1.0, 1.7e308,
    -1.7e308,
];

/// Tolerance groupings: MULAN's, wider, none in effect (0, below 0: equal scores stay apart),
/// everything within (infinite).
static GROUPINGS: [TieGrouping; 5] = [
    TieGrouping::WEKA,
    TieGrouping::Within(4.5e-7),
    TieGrouping::Within(0.0),
    TieGrouping::Within(-1.0),
    TieGrouping::Within(f64::INFINITY),
];

fn dataset() -> impl Strategy<Value = (Vec<Vec<f64>>, Vec<Vec<f64>>)> {
    dataset_of(&SCORES)
}

fn dataset_of(scores: &'static [f64]) -> impl Strategy<Value = (Vec<Vec<f64>>, Vec<Vec<f64>>)> {
    (1usize..12, 1usize..9).prop_flat_map(move |(n, l)| {
        let row = |set: &'static [f64]| prop::collection::vec(select(set), l);
        (
            prop::collection::vec(row(&LABELS), n),
            prop::collection::vec(row(scores), n),
        )
    })
}

/// Held by each test while it sets the process-wide path.
static PATH_SWITCH: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn bits(v: Vec<Option<f64>>) -> Vec<Option<u64>> {
    v.into_iter().map(|x| x.map(f64::to_bits)).collect()
}

/// The per-sample values of every row-wise metric under `ties`, as bits.
fn all_metrics(ties: TiePolicy, y: &[Vec<f64>], s: &[Vec<f64>]) -> Vec<Vec<Option<u64>>> {
    let mut out = grouped_metrics(ties, TieGrouping::Exact, y, s);
    // scikit-learn's presets check the label type in the row pass: on 0/1 labels.
    let binary: Vec<Vec<f64>> = y
        .iter()
        .map(|row| row.iter().map(|&g| f64::from(u8::from(g != 0.0))).collect())
        .collect();
    let sklearn_coverage = sklearn::COVERAGE_ERROR.with_ties(ties).with_min_labels(1);
    out.push(bits(sklearn_coverage.per_sample(&binary, s).unwrap()));
    out
}

/// The per-sample values of the metrics that take a tie grouping, under `ties` and
/// `grouping`, as bits.
fn grouped_metrics(
    ties: TiePolicy, grouping: TieGrouping, y: &[Vec<f64>], s: &[Vec<f64>],
) -> Vec<Vec<Option<u64>>> {
    let any = LabelDomain::NonZero;
    let coverage = Coverage::new(ties)
        .with_grouping(grouping)
        .with_label_domain(any);
    let mut out = vec![
        values(coverage, y, s),
        values(coverage.one_based(true), y, s),
        values(
            AveragePrecision::new(ties)
                .with_grouping(grouping)
                .with_label_domain(any),
            y,
            s,
        ),
        values(
            AveragePrecision::new(ties)
                .with_grouping(grouping)
                .with_label_domain(any)
                .summed_in_column_order(true),
            y,
            s,
        ),
        values(
            RankingLoss::new(ties)
                .with_grouping(grouping)
                .with_label_domain(any),
            y,
            s,
        ),
        values(
            ErrorSetSize::new(ties)
                .with_grouping(grouping)
                .with_label_domain(any),
            y,
            s,
        ),
        values(
            IsError::new(ties)
                .with_grouping(grouping)
                .with_label_domain(any),
            y,
            s,
        ),
        values(
            OneError::new(ties)
                .with_grouping(grouping)
                .with_label_domain(any),
            y,
            s,
        ),
    ];
    for k in [None, Some(1), Some(3)] {
        let dcg = Dcg::new(ties).with_k(k).unwrap().with_grouping(grouping);
        out.push(values(dcg, y, s));
        let ndcg = Ndcg::new(ties).with_k(k).unwrap().with_label_domain(any);
        out.push(values(ndcg.with_grouping(grouping), y, s));
    }
    for k in [1, 3, 8] {
        let precision = PrecisionAtK::new(ties, k).unwrap().with_label_domain(any);
        out.push(values(precision.with_grouping(grouping), y, s));
        let recall = RecallAtK::new(ties, k).unwrap().with_label_domain(any);
        out.push(values(recall.with_grouping(grouping), y, s));
        let ndcg = NdcgAtK::new(ties, k).unwrap().with_label_domain(any);
        out.push(values(ndcg.with_grouping(grouping), y, s));
    }
    out
}

/// MULAN's presets (Weka's grouping), on the labels made 0/1, as bits.
fn mulan_presets(y: &[Vec<f64>], s: &[Vec<f64>]) -> Vec<Vec<Option<u64>>> {
    let binary: Vec<Vec<f64>> = y
        .iter()
        .map(|row| row.iter().map(|&g| f64::from(u8::from(g != 0.0))).collect())
        .collect();
    vec![
        values(mulan::Coverage, &binary, s),
        values(mulan::RankingLoss, &binary, s),
        values(mulan::ErrorSetSize, &binary, s),
        values(mulan::IsError, &binary, s),
        values(mulan::OneError, &binary, s),
        values(mulan::AveragePrecision, &binary, s),
    ]
}

/// A metric's per-sample values, as bits.
fn values(m: impl RowMetric, y: &[Vec<f64>], s: &[Vec<f64>]) -> Vec<Option<u64>> {
    bits(m.per_sample(y, s).unwrap())
}

/// The one block [`Ranker::rank_relevant_end`] yields is the first (last) relevant block of
/// the full ranking, and the counts are the whole row's.
fn check_ends(ranking: Ranking, y: &[Vec<f64>], s: &[Vec<f64>]) -> Result<(), TestCaseError> {
    let ties = ranking.ties;
    let (mut full, mut ends) = (Ranker::new(), Ranker::new());
    for (i, (gains, scores)) in y.iter().zip(s).enumerate() {
        let row = full.rank(scores, gains, ranking, i);
        let (first, last) = (
            row.relevant_blocks().next(),
            row.relevant_blocks().next_back(),
        );
        let n_relevant = row.n_relevant();
        for (end, expected) in [(RelevantEnd::First, first), (RelevantEnd::Last, last)] {
            let one = ends.rank_relevant_end(scores, gains, ranking, i, end);
            let found = match end {
                RelevantEnd::First => one.relevant_blocks().next(),
                RelevantEnd::Last => one.relevant_blocks().next_back(),
            };
            prop_assert_eq!(found, expected, "{:?} {:?}", ties, end);
            prop_assert_eq!(one.n_relevant(), n_relevant);
        }
    }
    Ok(())
}

/// A metric with label weights (`gain_weights`, 0 for some columns) that reads only the
/// relevant blocks, or one end of them (`end`): a label of weight 0 is not relevant, on the
/// counting path (which gathers the relevant columns) as on the sorting one.
struct WeightedBlocks {
    ties: TiePolicy,
    weights: Vec<f64>,
    end: Option<RelevantEnd>,
}

impl RowMetric for WeightedBlocks {
    fn options(&self) -> RowOptions {
        let mut options = RowOptions::new(self.ties, RowRule::Formula, RowRule::Formula);
        options.labels = LabelDomain::NonZero;
        options
    }

    fn row_value(&self, row: &RankedRow<'_>) -> f64 {
        let mut blocks = row.relevant_blocks();
        let read: Vec<Block> = match self.end {
            Some(RelevantEnd::First) => blocks.next().into_iter().copied().collect(),
            Some(RelevantEnd::Last) => blocks.next_back().into_iter().copied().collect(),
            None => blocks.copied().collect(),
        };
        let blocks: f64 = read
            .iter()
            .map(|b| ((b.start + 1) * b.relevant) as f64 + b.gain)
            .sum();
        1000.0 * row.n_relevant() as f64 + blocks
    }

    fn gain_weights(&self) -> Option<&[f64]> {
        Some(&self.weights)
    }

    fn reads_only_relevant_blocks(&self) -> bool {
        true
    }

    fn reads_one_relevant_block(&self) -> Option<RelevantEnd> {
        self.end
    }
}

/// The values `values` gives on the sorting path, the counting path and the automatic choice
/// (`what` names the case) are the same.
fn paths_agree<V: PartialEq + std::fmt::Debug>(
    values: impl Fn() -> V, what: String,
) -> Result<(), TestCaseError> {
    set_kernel_path(KernelPath::Full);
    let full = values();
    set_kernel_path(KernelPath::Counting);
    let counted = values();
    set_kernel_path(KernelPath::Auto);
    let auto = values();
    prop_assert_eq!(&full, &counted, "{}", what);
    prop_assert_eq!(&full, &auto, "{}", what);
    Ok(())
}

/// Every tie policy: R's methods, the analysis policies and `Random(seed)`.
fn every_policy(seed: u64) -> impl Iterator<Item = TiePolicy> {
    TiePolicy::R_METHODS
        .into_iter()
        .chain(TiePolicy::ANALYSIS)
        .chain([TiePolicy::Random(seed)])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn counting_and_sorting_agree_bitwise((y, s) in dataset(), seed in any::<u64>()) {
        let _switch = PATH_SWITCH.lock().unwrap_or_else(|e| e.into_inner());
        for ties in every_policy(seed) {
            paths_agree(|| all_metrics(ties, &y, &s), format!("{ties:?}"))?;
            check_ends(Ranking::new(ties), &y, &s)?;
        }
    }

    #[test]
    fn weighted_labels_are_relevant_by_their_weighted_gains((y, s) in dataset(), seed in any::<u64>()) {
        let _switch = PATH_SWITCH.lock().unwrap_or_else(|e| e.into_inner());
        let l = y[0].len();
        let weights: Vec<f64> = (0..l).map(|j| [0.0, 1.0, 2.0][(j + seed as usize % 3) % 3]).collect();
        for ties in [TiePolicy::Max, TiePolicy::First, TiePolicy::Pessimistic] {
            for end in [None, Some(RelevantEnd::First), Some(RelevantEnd::Last)] {
                let metric = WeightedBlocks { ties, weights: weights.clone(), end };
                paths_agree(|| bits(metric.per_sample(&y, &s).unwrap()), format!("{ties:?} {end:?}"))?;
            }
        }
    }

    #[test]
    fn counting_and_sorting_agree_bitwise_under_tolerance_grouping(
        (y, s) in dataset_of(&NEAR_SCORES),
        seed in any::<u64>(),
    ) {
        let _switch = PATH_SWITCH.lock().unwrap_or_else(|e| e.into_inner());
        for ties in every_policy(seed) {
            for grouping in GROUPINGS {
                let values = || [grouped_metrics(ties, grouping, &y, &s), mulan_presets(&y, &s)];
                paths_agree(values, format!("{ties:?} {grouping:?}"))?;
                check_ends(Ranking::new(ties).with_grouping(grouping), &y, &s)?;
            }
        }
    }
}
