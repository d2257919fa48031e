//! Helpers shared by the integration tests (each test crate uses some of them).
#![allow(dead_code)]

/// xorshift64* (Vigna 2016): a small deterministic stream for generated inputs.
pub struct Rng(pub u64);

impl Rng {
    /// The stream of `fixed`, or, when `PROPTEST_RNG_SEED` is set (CI sets it per commit), of
    /// `fixed` mixed with that seed: the same variable replays the proptest cases and these.
    pub fn seeded(fixed: u64) -> Rng {
        let seed = std::env::var("PROPTEST_RNG_SEED")
            .ok()
            .and_then(|s| s.trim().parse::<u64>().ok());
        let Some(seed) = seed else {
            return Rng(fixed);
        };
        // SplitMix64's finaliser spreads the seed over every bit; xorshift needs a state ≠ 0.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        match fixed ^ z ^ (z >> 31) {
            0 => Rng(fixed | 1),
            state => Rng(state),
        }
    }

    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A draw from `0..n` (`n > 0`; the modulo bias is irrelevant for test inputs).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The cells (flat row-major indices) of each row of an n × l matrix.
pub fn row_vectors(n: usize, l: usize) -> Vec<Vec<usize>> {
    (0..n).map(|i| (i * l..(i + 1) * l).collect()).collect()
}

/// Every order of `items`.
pub fn permutations(items: &[usize]) -> Vec<Vec<usize>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = vec![];
    for k in 0..items.len() {
        let mut rest = items.to_vec();
        let first = rest.remove(k);
        for mut p in permutations(&rest) {
            p.insert(0, first);
            out.push(p);
        }
    }
    out
}

/// Every strict re-scoring of `scores` that keeps the order between distinct scores of each
/// vector and orders each tie group one way; `None` if there are more than `cap`.
pub fn strict_rescorings(
    scores: &[f64], vectors: &[Vec<usize>], cap: usize,
) -> Option<Vec<Vec<f64>>> {
    // For each vector, its tie groups (best first), each with all its member orders.
    let mut choices: Vec<(usize, Vec<Vec<usize>>)> = vec![]; // (vector length, group orders)
    let mut layout: Vec<Vec<usize>> = vec![]; // per choice slot: vector index
    let mut total = 1usize;
    for (v, cells) in vectors.iter().enumerate() {
        let mut sorted = cells.clone();
        sorted.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
        let mut start = 0;
        while start < sorted.len() {
            let end = start
                + sorted[start..]
                    .iter()
                    .take_while(|&&c| scores[c] == scores[sorted[start]])
                    .count();
            let orders = permutations(&sorted[start..end]);
            total = total.checked_mul(orders.len())?;
            if total > cap {
                return None;
            }
            choices.push((cells.len(), orders));
            layout.push(vec![v]);
            start = end;
        }
    }
    let mut out = vec![];
    let mut counter = vec![0usize; choices.len()];
    loop {
        let mut strict = scores.to_vec();
        let mut position = vec![0usize; vectors.len()];
        for (slot, (len, orders)) in choices.iter().enumerate() {
            let v = layout[slot][0];
            for &cell in &orders[counter[slot]] {
                // Distinct values in (0, 1), decreasing with the position in the vector.
                strict[cell] = (len - position[v]) as f64 / (len + 1) as f64;
                position[v] += 1;
            }
        }
        out.push(strict);
        let mut k = 0;
        loop {
            if k == counter.len() {
                return Some(out);
            }
            counter[k] += 1;
            if counter[k] < choices[k].1.len() {
                break;
            }
            counter[k] = 0;
            k += 1;
        }
    }
}

/// Equal to 1e-12 relative (NaN equals NaN).
pub fn same(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1.0)
}
