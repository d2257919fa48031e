//! The kernel's two paths (sort the row, or count around its relevant labels) must give every
//! row-wise metric that reads only relevant blocks bitwise the same per-sample values, under
//! every tie policy.
//!
//! One test only: the path switch is process-wide, so nothing else in this binary may run
//! while it is set.

use proptest::prelude::*;
use proptest::sample::select;
use rankmetrics::*;

/// Few distinct scores, so rows are full of ties; `-0.0` ties with `0.0`.
static SCORES: [f64; 6] = [0.0, -0.0, 0.25, 0.5, 0.5, 1.0];
/// Mostly irrelevant labels, graded and negative gains too (every metric here is told to take
/// any finite label).
static LABELS: [f64; 9] = [0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 2.5, -1.0, 0.1];

fn dataset() -> impl Strategy<Value = (Vec<Vec<f64>>, Vec<Vec<f64>>)> {
    (1usize..12, 1usize..9).prop_flat_map(|(n, l)| {
        let row = |set: &'static [f64]| prop::collection::vec(select(set), l);
        (
            prop::collection::vec(row(&LABELS), n),
            prop::collection::vec(row(&SCORES), n),
        )
    })
}

fn bits(v: Vec<Option<f64>>) -> Vec<Option<u64>> {
    v.into_iter().map(|x| x.map(f64::to_bits)).collect()
}

/// The per-sample values of every row-wise metric under `ties`, as bits.
fn all_metrics(ties: TiePolicy, y: &[Vec<f64>], s: &[Vec<f64>]) -> Vec<Vec<Option<u64>>> {
    let any = LabelDomain::NonZero;
    let coverage = Coverage::new(ties).with_label_domain(any);
    let mut out = vec![
        bits(coverage.per_sample(y, s).unwrap()),
        bits(coverage.one_based(true).per_sample(y, s).unwrap()),
        bits(
            AveragePrecision::new(ties)
                .with_label_domain(any)
                .per_sample(y, s)
                .unwrap(),
        ),
        bits(
            RankingLoss::new(ties)
                .with_label_domain(any)
                .per_sample(y, s)
                .unwrap(),
        ),
        bits(
            ErrorSetSize::new(ties)
                .with_label_domain(any)
                .per_sample(y, s)
                .unwrap(),
        ),
        bits(
            IsError::new(ties)
                .with_label_domain(any)
                .per_sample(y, s)
                .unwrap(),
        ),
        bits(
            OneError::new(ties)
                .with_label_domain(any)
                .per_sample(y, s)
                .unwrap(),
        ),
    ];
    // scikit-learn's presets check the label type in the row pass: on 0/1 labels.
    let binary: Vec<Vec<f64>> = y
        .iter()
        .map(|row| row.iter().map(|&g| f64::from(u8::from(g != 0.0))).collect())
        .collect();
    let sklearn_coverage = sklearn::COVERAGE_ERROR.with_ties(ties).with_min_labels(1);
    out.push(bits(sklearn_coverage.per_sample(&binary, s).unwrap()));
    for k in [None, Some(1), Some(3)] {
        let dcg = Dcg::new(ties).with_k(k).unwrap();
        out.push(bits(dcg.per_sample(y, s).unwrap()));
        let ndcg = Ndcg::new(ties).with_k(k).unwrap().with_label_domain(any);
        out.push(bits(ndcg.per_sample(y, s).unwrap()));
    }
    for k in [1, 3, 8] {
        let precision = PrecisionAtK::new(ties, k).unwrap().with_label_domain(any);
        out.push(bits(precision.per_sample(y, s).unwrap()));
        let recall = RecallAtK::new(ties, k).unwrap().with_label_domain(any);
        out.push(bits(recall.per_sample(y, s).unwrap()));
        let ndcg = NdcgAtK::new(ties, k).unwrap().with_label_domain(any);
        out.push(bits(ndcg.per_sample(y, s).unwrap()));
    }
    out
}

/// The one block [`Ranker::rank_relevant_end`] yields is the first (last) relevant block of
/// the full ranking, and the counts are the whole row's.
fn check_ends(ties: TiePolicy, y: &[Vec<f64>], s: &[Vec<f64>]) -> Result<(), TestCaseError> {
    let (mut full, mut ends) = (Ranker::new(), Ranker::new());
    for (i, (gains, scores)) in y.iter().zip(s).enumerate() {
        let ranking = Ranking::new(ties);
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn counting_and_sorting_agree_bitwise((y, s) in dataset(), seed in any::<u64>()) {
        let policies = TiePolicy::R_METHODS
            .into_iter()
            .chain(TiePolicy::ANALYSIS)
            .chain([TiePolicy::Random(seed)]);
        for ties in policies {
            set_kernel_path(KernelPath::Full);
            let full = all_metrics(ties, &y, &s);
            set_kernel_path(KernelPath::Counting);
            let counted = all_metrics(ties, &y, &s);
            set_kernel_path(KernelPath::Auto);
            let auto = all_metrics(ties, &y, &s);
            prop_assert_eq!(&full, &counted, "{:?}", ties);
            prop_assert_eq!(&full, &auto, "{:?}", ties);
            check_ends(ties, &y, &s)?;
        }
    }
}
