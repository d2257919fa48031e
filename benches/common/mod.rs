//! Benchmark inputs shared by the bench files: the shapes of benches/python/gen_data.py, drawn from a
//! fixed xorshift stream with gen_data.py's score formula, sigmoid(1.5·y + N(0, 1)).

use rankmetrics::RowMajor;

/// Labels per row in every shape used here.
pub const LABELS: usize = 100;
const DENSITY: f64 = 0.05;

/// xorshift64* (Vigna 2016): deterministic and dependency-free.
struct XorShift(u64);

impl XorShift {
    fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in (0, 1).
    fn uniform(&mut self) -> f64 {
        ((self.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }

    /// Standard normal (Box–Muller).
    fn normal(&mut self) -> f64 {
        let (u, v) = (self.uniform(), self.uniform());
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }
}

/// One benchmark input, row-major.
pub struct Input {
    pub rows: usize,
    pub y_true: Vec<u8>,
    pub y_score: Vec<f64>,
}

impl Input {
    /// `rows` × 100 with about 5 relevant labels per row; with `step`, scores rounded to
    /// multiples of it (shape C: heavy ties).
    pub fn generate(rows: usize, seed: u64, step: Option<f64>) -> Input {
        let mut rng = XorShift(seed);
        let y_true: Vec<u8> = (0..rows * LABELS)
            .map(|_| u8::from(rng.uniform() < DENSITY))
            .collect();
        let y_score = y_true
            .iter()
            .map(|&y| {
                let s = 1.0 / (1.0 + (-(1.5 * f64::from(y) + rng.normal())).exp());
                step.map_or(s, |q| (s / q).round() * q)
            })
            .collect();
        Input {
            rows,
            y_true,
            y_score,
        }
    }

    pub fn labels(&self) -> RowMajor<'_, u8> {
        RowMajor::new(&self.y_true, self.rows, LABELS).expect("rows × LABELS labels")
    }

    pub fn scores(&self) -> RowMajor<'_, f64> {
        RowMajor::new(&self.y_score, self.rows, LABELS).expect("rows × LABELS scores")
    }
}
