//! The merge contract, checked the same way for every accumulator kind: data with heavy ties
//! and weights cut into shards, each shard evaluated by its own accumulator (numbered from its
//! first row), and the shards merged in row order, reversed, as a tree and in a random order:
//! every merge gives bitwise the one-shot value and the state of one accumulator fed every
//! row; overlapping merges are refused and change nothing.
//!
//! Included with `#[path = "common/shards.rs"] mod shards;` by the tests that use it.
#![allow(dead_code)]

use std::fmt::Debug;
use std::ops::Range;

use rankmetrics::registry::PresetAccumulator;
use rankmetrics::{
    Error, Incompatibility, InterpolatedAveragePrecision, LabelAveragePrecision,
    LabelRunsAccumulator, LabelwiseAccumulator, RankingMetric, RocAuc, RowAccumulator, RowMajor,
    RowMetric,
};

use super::common::Rng;

/// A row-major dataset.
pub struct Data {
    pub n: usize,
    pub l: usize,
    pub y: Vec<f64>,
    pub s: Vec<f64>,
    pub w: Option<Vec<f64>>,
}

impl Data {
    /// 1 to 40 rows of 2 to 7 labels (0 or 1), scores on three levels (heavy ties), weights
    /// (some zero) in half the draws.
    pub fn random(rng: &mut Rng) -> Data {
        let (n, l) = (1 + rng.below(40), 2 + rng.below(6));
        let levels = [0.1, 0.5, 0.9];
        Data {
            n,
            l,
            y: (0..n * l).map(|_| rng.below(2) as f64).collect(),
            s: (0..n * l).map(|_| levels[rng.below(3)]).collect(),
            w: (rng.below(2) == 0).then(|| {
                (0..n)
                    .map(|_| [0.0, 0.5, 1.0, 3.25][rng.below(4)])
                    .collect()
            }),
        }
    }

    /// Rows `r` as matrices, with their weights.
    pub fn rows(&self, r: Range<usize>) -> (RowMajor<'_, f64>, RowMajor<'_, f64>, Option<&[f64]>) {
        let cells = r.start * self.l..r.end * self.l;
        (
            RowMajor::new(&self.y[cells.clone()], r.len(), self.l).unwrap(),
            RowMajor::new(&self.s[cells], r.len(), self.l).unwrap(),
            self.w.as_deref().map(|w| &w[r]),
        )
    }

    /// Random cut points splitting 0..n into 1 to 6 consecutive shards (some maybe empty).
    pub fn splits(&self, rng: &mut Rng) -> Vec<Range<usize>> {
        let mut cuts: Vec<usize> = (0..rng.below(6)).map(|_| rng.below(self.n + 1)).collect();
        cuts.extend([0, self.n]);
        cuts.sort_unstable();
        cuts.windows(2).map(|w| w[0]..w[1]).collect()
    }
}

/// What the checks need of an accumulator.
pub trait Accumulator: Clone + PartialEq + Debug {
    fn add(&mut self, d: &Data, r: Range<usize>) -> Result<(), Error>;
    fn join(&mut self, other: &Self) -> Result<(), Error>;
    fn read(&self) -> Result<f64, Error>;
    fn seen(&self) -> &[Range<usize>];
}

/// The same four calls on each accumulator type.
macro_rules! accumulator {
    ($t:ty $(, $m:ident: $bound:path)?) => {
        impl$(<$m: $bound + Clone + PartialEq + Debug>)? Accumulator for $t {
            fn add(&mut self, d: &Data, r: Range<usize>) -> Result<(), Error> {
                let (y, s, w) = d.rows(r);
                self.update(&y, &s, w)
            }
            fn join(&mut self, other: &Self) -> Result<(), Error> {
                self.merge(other)
            }
            fn read(&self) -> Result<f64, Error> {
                self.value()
            }
            fn seen(&self) -> &[Range<usize>] {
                self.rows()
            }
        }
    };
}
accumulator!(RowAccumulator<M>, M: RowMetric);
accumulator!(LabelwiseAccumulator<M>, M: RankingMetric<f64>);
accumulator!(PresetAccumulator);
accumulator!(LabelRunsAccumulator<RocAuc>);
accumulator!(LabelRunsAccumulator<LabelAveragePrecision>);
accumulator!(LabelRunsAccumulator<InterpolatedAveragePrecision>);

/// Bitwise the same value, or the same error.
pub fn identical(a: &Result<f64, Error>, b: &Result<f64, Error>) -> bool {
    match (a, b) {
        (Ok(x), Ok(y)) => x.to_bits() == y.to_bits(),
        (Err(x), Err(y)) => x == y,
        _ => false,
    }
}

/// Checks the merge contract on the shards `splits` of `d`: `make(r)` is an empty accumulator
/// whose first row is `r`, `one_shot` the one-shot value of all the rows, and `through` what
/// each shard goes through before it is merged (a clone, or a serde round trip).
pub fn check_shards<A: Accumulator>(
    what: &str, make: impl Fn(usize) -> A, one_shot: &Result<f64, Error>, d: &Data,
    splits: &[Range<usize>], rng: &mut Rng, through: impl Fn(&A) -> A,
) {
    // One accumulator fed every shard in row order: bitwise the one-shot value.
    let mut stream = make(0);
    let streamed = splits.iter().try_for_each(|r| stream.add(d, r.clone()));
    if let Err(e) = streamed {
        assert_eq!(Err(e), *one_shot, "{what}: a batch failed");
        return;
    }
    assert!(
        identical(&stream.read(), one_shot),
        "{what}: streamed {:?} vs one-shot {one_shot:?}",
        stream.read()
    );

    let mut shards = Vec::new();
    for r in splits {
        let mut shard = make(r.start);
        shard.add(d, r.clone()).unwrap();
        assert_eq!(
            shard.seen(),
            if r.is_empty() {
                vec![]
            } else {
                vec![r.clone()]
            }
        );
        shards.push(through(&shard));
    }
    let fold = |order: &[usize]| {
        let mut acc = shards[order[0]].clone();
        for &i in &order[1..] {
            acc.join(&shards[i])
                .unwrap_or_else(|e| panic!("{what}: merging shard {i}: {e}"));
        }
        acc
    };
    let k = shards.len();
    let in_order: Vec<usize> = (0..k).collect();
    let reversed: Vec<usize> = (0..k).rev().collect();
    let mut shuffled = in_order.clone();
    for i in (1..k).rev() {
        shuffled.swap(i, rng.below(i + 1));
    }
    let mut merged = vec![fold(&in_order), fold(&reversed), fold(&shuffled)];
    // A tree: neighbours merged pairwise, level by level, the right one into the left one or
    // the left into the right.
    let mut level = shards.clone();
    while level.len() > 1 {
        level = level
            .chunks(2)
            .map(|pair| match pair {
                [a, b] if rng.below(2) == 0 => {
                    let mut a = a.clone();
                    a.join(b).unwrap();
                    a
                }
                [a, b] => {
                    let mut b = b.clone();
                    b.join(a).unwrap();
                    b
                }
                [a] => a.clone(),
                _ => unreachable!(),
            })
            .collect();
    }
    merged.extend(level);
    for acc in &merged {
        assert!(
            identical(&acc.read(), one_shot),
            "{what}: merged {:?} vs one-shot {one_shot:?}",
            acc.read()
        );
        assert_eq!(
            *acc, stream,
            "{what}: merged state differs from the streamed state"
        );
    }

    // Rows seen twice: refused, nothing changed.
    let mut total = merged.swap_remove(0);
    for (shard, r) in shards.iter().zip(splits).filter(|(_, r)| !r.is_empty()) {
        let before = total.clone();
        let err = total.join(shard).unwrap_err();
        assert_eq!(
            err,
            Error::Incompatible(Incompatibility::Overlap {
                start: r.start,
                end: r.end
            }),
            "{what}"
        );
        assert_eq!(total, before, "{what}: a refused merge changed the state");
        let mut copy = shard.clone();
        assert!(matches!(
            copy.join(shard),
            Err(Error::Incompatible(Incompatibility::Overlap { .. }))
        ));
        assert_eq!(copy, *shard);
    }
    // Shards all numbered from 0 overlap (unless at most one holds rows).
    let from_zero: Vec<A> = splits
        .iter()
        .map(|r| {
            let mut a = make(0);
            a.add(d, r.clone()).unwrap();
            a
        })
        .collect();
    if splits.iter().filter(|r| !r.is_empty()).count() > 1 {
        let mut acc = from_zero[0].clone();
        let refused = from_zero[1..].iter().any(|b| acc.join(b).is_err());
        assert!(refused, "{what}: shards numbered from 0 merged");
    }
}
