//! torchmetrics' logit normalisation ([`Logits`]) in the dtype of torch's preds, and which of
//! torch's CPU kernels computes each element's sigmoid ([`TorchCpu`], [`MemoryOrder`]).

use core::any::TypeId;
use core::ops::Range;
use core::str::FromStr;

use crate::error::{Error, Input};
use crate::matrix::{Matrix, RowReader};
use crate::score::Score;
use crate::validate::check_scores;

use super::dtype::PredsDtype;

/// The CPU kernel torch computes a sigmoid with: which elements of a dense tensor its vector
/// code takes. torch's CPU kernels run through a tensor in memory order, `2 × lanes` elements
/// at a time with a vectorised `exp` (SLEEF's), and the elements left at the end one at a time
/// (`1 / (1 + exp(-x))` with the platform's `exp`); the two differ by an ulp or so on a few
/// percent of values, which can split or merge a tie between neighbouring logits.
///
/// # Example
/// ```
/// use rankmetrics::torchmetrics::{PredsDtype, TorchCpu};
/// assert_eq!(TorchCpu::Avx512.block(PredsDtype::Float32), 32);
/// assert_eq!(TorchCpu::Avx2.block(PredsDtype::Float64), 8);
/// assert_eq!("avx2".parse::<TorchCpu>(), Ok(TorchCpu::Avx2));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum TorchCpu {
    /// Every element by the one-element formula: torch with `ATEN_CPU_CAPABILITY=default`,
    /// and a tensor that is not dense.
    #[default]
    Scalar,
    /// torch's AVX2 kernels (x86 CPUs with AVX2 and FMA): blocks of 16 `float32` or 8
    /// `float64` elements.
    Avx2,
    /// torch's AVX-512 kernels (x86 CPUs with AVX-512 F, BW, VL and DQ): blocks of 32 `float32`
    /// or 16 `float64` elements.
    Avx512,
}

impl TorchCpu {
    /// Every kernel, in the order of their names in messages.
    pub const ALL: [TorchCpu; 3] = [TorchCpu::Scalar, TorchCpu::Avx2, TorchCpu::Avx512];

    /// `scalar`, `avx2` or `avx512`.
    pub const fn name(self) -> &'static str {
        match self {
            TorchCpu::Scalar => "scalar",
            TorchCpu::Avx2 => "avx2",
            TorchCpu::Avx512 => "avx512",
        }
    }

    /// How many elements the vector code takes at a time for preds of `dtype` (0: none; the
    /// half types' two paths give the same values).
    pub const fn block(self, dtype: PredsDtype) -> usize {
        match (self, dtype) {
            (TorchCpu::Avx2, PredsDtype::Float32) => 16,
            (TorchCpu::Avx2, PredsDtype::Float64) => 8,
            (TorchCpu::Avx512, PredsDtype::Float32) => 32,
            (TorchCpu::Avx512, PredsDtype::Float64) => 16,
            _ => 0,
        }
    }

    /// The kernel torch picks on this machine: `ATEN_CPU_CAPABILITY` when set (`default`,
    /// `avx2` or `avx512`), else the CPU's: AVX-512 F, BW, VL and DQ give `Avx512`, AVX2 with
    /// FMA `Avx2`, anything else (other architectures included) `Scalar`.
    ///
    /// ```
    /// let cpu = rankmetrics::torchmetrics::TorchCpu::detect();
    /// assert!(rankmetrics::torchmetrics::TorchCpu::ALL.contains(&cpu));
    /// ```
    pub fn detect() -> TorchCpu {
        if let Ok(name) = std::env::var("ATEN_CPU_CAPABILITY") {
            match name.to_ascii_lowercase().as_str() {
                "default" => return TorchCpu::Scalar,
                "avx2" => return TorchCpu::Avx2,
                "avx512" => return TorchCpu::Avx512,
                _ => {}
            }
        }
        Self::of_this_cpu()
    }

    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    fn of_this_cpu() -> TorchCpu {
        if std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512vl")
            && std::is_x86_feature_detected!("avx512dq")
            && std::is_x86_feature_detected!("fma")
        {
            TorchCpu::Avx512
        } else if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
            TorchCpu::Avx2
        } else {
            TorchCpu::Scalar
        }
    }

    #[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
    fn of_this_cpu() -> TorchCpu {
        TorchCpu::Scalar
    }
}

/// Reads a kernel's name (`scalar`, `avx2`, `avx512`), or `torch-cpu` for
/// [`TorchCpu::detect`]; any other text is an [`UnknownName`](crate::UnknownName).
impl FromStr for TorchCpu {
    type Err = crate::names::UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "torch-cpu" {
            return Ok(TorchCpu::detect());
        }
        TorchCpu::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| {
                crate::names::UnknownName::new(
                    "sigmoid kernel",
                    s,
                    &["torch-cpu", "scalar", "avx2", "avx512"],
                )
            })
    }
}

/// How a preds tensor lies in memory, which decides the order in which torch's vector sigmoid
/// meets its elements ([`Logits::in_memory_order`]).
///
/// # Example
/// ```
/// use rankmetrics::torchmetrics::MemoryOrder;
/// assert_eq!("f".parse::<MemoryOrder>().unwrap(), MemoryOrder::ColumnMajor);
/// assert_eq!(MemoryOrder::default().name(), "c");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum MemoryOrder {
    /// C order (`"c"`): each row's labels side by side, rows one after another; how torch
    /// lays out a new tensor, and the default.
    #[default]
    RowMajor,
    /// Fortran order (`"f"`): each label's rows side by side (a transposed tensor's view, or
    /// a Fortran-ordered numpy array made a tensor).
    ColumnMajor,
    /// Each row's labels side by side, with gaps between rows (`"rows"`: a view such as
    /// `x[:, 1:]`): torch runs its vector blocks over each row on its own.
    Rows,
    /// Each label's rows side by side, with gaps between labels (`"columns"`: such a view of
    /// a Fortran-ordered tensor): the vector blocks run over each label on its own.
    Columns,
    /// Neither (`"strided"`): adjacent elements apart in both directions, such as
    /// `x[:, ::2]`, which torch's sigmoid computes one element at a time.
    Strided,
}

impl MemoryOrder {
    const NAMES: [&'static str; 5] = ["c", "f", "rows", "columns", "strided"];

    /// `c`, `f`, `rows`, `columns` or `strided`.
    pub const fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

impl FromStr for MemoryOrder {
    type Err = crate::names::UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let all = [
            Self::RowMajor,
            Self::ColumnMajor,
            Self::Rows,
            Self::Columns,
            Self::Strided,
        ];
        all.into_iter()
            .find(|o| o.name() == s)
            .ok_or_else(|| crate::names::UnknownName::new("memory order", s, &Self::NAMES))
    }
}

/// torch's grain: a tensor of at least this many elements is split among its threads.
const GRAIN: usize = 32_768;

/// Which elements of a tensor torch's sigmoid computes with its vector code: positions in
/// memory order, as [`TorchCpu`] and torch's threads split the work.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct VectorBlocks {
    /// Elements per vector step (0: none).
    block: usize,
    /// The elements of each thread's chunk (the last may be shorter).
    chunk: usize,
    len: usize,
}

impl VectorBlocks {
    fn new(cpu: TorchCpu, dtype: PredsDtype, threads: usize, len: usize) -> Self {
        // at::parallel_for: min(threads, ⌈len / grain⌉) chunks of ⌈len / chunks⌉ elements.
        let chunks = if len < GRAIN || threads <= 1 {
            1
        } else {
            threads.min(len.div_ceil(GRAIN))
        };
        VectorBlocks {
            block: cpu.block(dtype),
            chunk: len.div_ceil(chunks).max(1),
            len,
        }
    }

    /// Whether the element at `position` (in memory order) takes the vector code: it lies in
    /// the whole blocks at the start of its thread's chunk.
    #[cfg(test)]
    fn vectorised(&self, position: usize) -> bool {
        self.vectorised_in_runs(position, self.len)
    }

    /// As [`vectorised`](Self::vectorised), the elements in contiguous runs of `run` (the
    /// rows or columns of a view with gaps between them; the whole tensor when dense): the
    /// blocks start again at each run's start and at each thread's chunk's.
    fn vectorised_in_runs(&self, position: usize, run: usize) -> bool {
        if self.block == 0 || run == 0 {
            return false;
        }
        let (run_start, chunk_start) = (position / run * run, position / self.chunk * self.chunk);
        let start = run_start.max(chunk_start);
        let end = (run_start + run)
            .min(chunk_start + self.chunk)
            .min(self.len);
        position - start < (end - start) / self.block * self.block
    }
}

/// torchmetrics' score normalisation as a [`Matrix`] view: the sigmoid `1 / (1 + e^-x)` of
/// every score when some score lies outside [0, 1], the scores unchanged otherwise. Computed
/// on the fly; the caller's scores are not copied or modified.
///
/// torch computes in the tensor's dtype, and so does the view ([`PredsDtype`]):
/// * `float64` preds ([`Logits::new`] on `f64` scores): the sigmoid in `f64`.
/// * `float32` preds ([`Logits::new`] on `f32` scores, or [`Logits::float32`] on any): the
///   scores are the `float32` values (an `f64` is cast, one beyond `f32::MAX` giving
///   ±`f32::MAX`, which the sigmoid maps where torch maps ±inf), the test for [0, 1] reads
///   them, and the sigmoid is torch's `float32` arithmetic
///   ([`sigmoid_f32`](super::sigmoid_f32)): exactly 1.0
///   above about 16.6, exactly 0.0 below about -88.7, and logits closer than `float32`
///   resolution tie.
/// * `float16` and `bfloat16` preds ([`Logits::with_dtype`]): the scores cast to the half type,
///   and the `float32` sigmoid of each rounded to it, so that many more logits tie.
///
/// # Example
/// ```
/// use rankmetrics::{torchmetrics::Logits, Matrix};
/// let scores = [[40.0, 38.0, -1.0]];
/// let view = Logits::new(&scores).unwrap();
/// assert!(view.applies_sigmoid());
/// let mut row = Vec::new();
/// view.extend_rows(0..1, &mut row);
/// assert_eq!(row[0], row[1]); // both saturate to 1.0: a new tie
///
/// // float32 preds saturate much earlier: 20 and 18 are both 1.0.
/// let scores = [[20.0f32, 18.0]];
/// let mut row = Vec::new();
/// Logits::new(&scores).unwrap().extend_rows(0..1, &mut row);
/// assert_eq!(row, [1.0, 1.0]);
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Logits<'a, S: ?Sized> {
    scores: &'a S,
    sigmoid: bool,
    dtype: PredsDtype,
    blocks: VectorBlocks,
    order: MemoryOrder,
}

impl<'a, T: Score, S: Matrix<Elem = T> + ?Sized> Logits<'a, S> {
    /// Looks at every score once to decide whether the sigmoid applies; computes in the
    /// precision of `T` (`float32` for `f32` scores, `float64` for `f64`).
    ///
    /// # Errors
    /// [`Error::NonFiniteScore`] for the first NaN or infinite score, [`Error::RaggedRow`] for
    /// a ragged input.
    pub fn new(scores: &'a S) -> Result<Self, Error> {
        Self::with_dtype(scores, PredsDtype::Float64)
    }

    /// As [`new`](Self::new), but as torchmetrics computes on `float32` preds whatever `T` is:
    /// the scores are cast to `float32` first (so `f64` scores that hold `float32` values, as
    /// read from a `float32` file, give what `f32` scores give).
    ///
    /// # Errors
    /// As [`new`](Self::new).
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{torchmetrics::Logits, Matrix};
    /// let scores = [[-90.0, -100.0, 0.5]];
    /// let mut row = Vec::new();
    /// Logits::float32(&scores).unwrap().extend_rows(0..1, &mut row);
    /// assert_eq!(&row[..2], [0.0, 0.0]); // exp(90) overflows float32
    /// ```
    pub fn float32(scores: &'a S) -> Result<Self, Error> {
        Self::with_dtype(scores, PredsDtype::Float32)
    }

    /// As [`new`](Self::new), as torchmetrics computes on preds of `dtype`: the scores cast to
    /// it first. `f32` scores are at least `float32` preds (`Float64` gives `Float32`).
    ///
    /// # Errors
    /// As [`new`](Self::new).
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{torchmetrics::{Logits, PredsDtype}, Matrix};
    /// // 10 and 9 are distinct logits; their float16 sigmoids are both 1.0.
    /// let mut row = Vec::new();
    /// Logits::with_dtype(&[[10.0, 9.0]], PredsDtype::Float16).unwrap().extend_rows(0..1, &mut row);
    /// assert_eq!(row, [1.0, 1.0]);
    /// ```
    pub fn with_dtype(scores: &'a S, dtype: PredsDtype) -> Result<Self, Error> {
        let is_f32 = TypeId::of::<T>() == TypeId::of::<f32>();
        let dtype = match dtype {
            PredsDtype::Float64 if is_f32 => PredsDtype::Float32,
            d => d,
        };
        scores.check_shape()?;
        let mut reader = RowReader::new(scores, Input::Scores);
        let mut sigmoid = false;
        for i in 0..scores.nrows() {
            let row = reader.row(i)?;
            check_scores(row, i)?;
            sigmoid = sigmoid
                || match Self::cast_changes(dtype) {
                    // torch tests the cast tensor: 1 + 1e-12 is 1.0 in float32, inside [0, 1].
                    true => row
                        .iter()
                        .map(|s| dtype.cast(s.as_f64()))
                        .any(|s| !(0.0..=1.0).contains(&s)),
                    // No cast, or finite `f32` scores, which the cast leaves as they are:
                    // compared as they are, without a branch per score.
                    false => row
                        .iter()
                        .fold(false, |out, &s| out | (s < T::zero()) | (s > T::one())),
                };
        }
        Ok(Logits {
            scores,
            sigmoid,
            dtype,
            blocks: VectorBlocks::new(TorchCpu::Scalar, dtype, 1, 0),
            order: MemoryOrder::RowMajor,
        })
    }

    /// The same view with the sigmoid as torch's `cpu` kernel computes it on `threads` threads,
    /// the tensor in C order unless [`in_memory_order`](Self::in_memory_order) says otherwise.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{torchmetrics::{Logits, PredsDtype, TorchCpu}, Matrix};
    /// // Two logits one float32 step apart: the vector kernel gives both sigmoids the same value.
    /// let mut scores = [[-5.0f32; 16]; 2];
    /// scores[0][0] = -1.040_839_2;
    /// scores[0][1] = -1.040_839_1;
    /// let view = |cpu| {
    ///     let mut rows = Vec::new();
    ///     Logits::new(&scores).unwrap().on_cpu(cpu, 1).extend_rows(0..1, &mut rows);
    ///     rows[0] == rows[1]
    /// };
    /// assert!(view(TorchCpu::Avx512)); // all 32 in one vector block: tied
    /// assert!(!view(TorchCpu::Scalar));
    /// ```
    pub fn on_cpu(mut self, cpu: TorchCpu, threads: usize) -> Self {
        let len = self.scores.nrows().saturating_mul(self.scores.ncols());
        self.blocks = VectorBlocks::new(cpu, self.dtype, threads, len);
        self
    }

    /// The same view of a tensor that lies in memory in `order`: torch's vector sigmoid runs
    /// over the memory, so the element at row `i`, label `j` of an `n` × `L` tensor is the
    /// `i·L + j`-th it meets in C order and the `j·n + i`-th in Fortran order; in a view whose
    /// rows (or columns) are apart, the blocks start again at each row (column); a view whose
    /// adjacent elements are all apart takes the one-element formula everywhere.
    ///
    /// # Example
    /// ```
    /// use rankmetrics::{torchmetrics::{Logits, MemoryOrder, TorchCpu}, Matrix};
    /// // Two logits one float32 step apart, in row 0 of a 16 x 2 tensor of -5.
    /// let mut scores = [[-5.0f32; 2]; 16];
    /// scores[0] = [-1.040_839_2, -1.040_839_1];
    /// let tied = |order| {
    ///     let mut rows = Vec::new();
    ///     let view = Logits::new(&scores).unwrap().on_cpu(TorchCpu::Avx512, 1);
    ///     view.in_memory_order(order).extend_rows(0..1, &mut rows);
    ///     rows[0] == rows[1]
    /// };
    /// assert!(tied(MemoryOrder::RowMajor)); // both in the one block of 32
    /// assert!(!tied(MemoryOrder::Strided)); // both one at a time
    /// ```
    pub fn in_memory_order(mut self, order: MemoryOrder) -> Self {
        self.order = order;
        self
    }

    /// Whether torch's vector code computes the element at `row`, `column`: its position in
    /// the order torch meets the elements, and the runs the blocks restart in.
    fn vectorised(&self, row: usize, column: usize) -> bool {
        let (n, l) = (self.scores.nrows(), self.scores.ncols());
        let len = n.saturating_mul(l);
        let (by_row, by_column) = (
            row.saturating_mul(l).saturating_add(column),
            column.saturating_mul(n).saturating_add(row),
        );
        match self.order {
            MemoryOrder::RowMajor => self.blocks.vectorised_in_runs(by_row, len),
            MemoryOrder::ColumnMajor => self.blocks.vectorised_in_runs(by_column, len),
            MemoryOrder::Rows => self.blocks.vectorised_in_runs(by_row, l),
            MemoryOrder::Columns => self.blocks.vectorised_in_runs(by_column, n),
            MemoryOrder::Strided => false,
        }
    }

    /// Whether casting scores of type `T` to `dtype` may change them.
    fn cast_changes(dtype: PredsDtype) -> bool {
        match dtype {
            PredsDtype::Float64 => false,
            PredsDtype::Float32 => TypeId::of::<T>() != TypeId::of::<f32>(),
            PredsDtype::Float16 | PredsDtype::BFloat16 => true,
        }
    }

    /// Whether the scores go through the sigmoid.
    pub fn applies_sigmoid(&self) -> bool {
        self.sigmoid
    }

    /// Whether the view computes as torch does on `float32` preds.
    ///
    /// ```
    /// use rankmetrics::torchmetrics::Logits;
    /// assert!(Logits::new(&[[0.5f32, 2.0]]).unwrap().is_float32());
    /// assert!(!Logits::new(&[[0.5f64, 2.0]]).unwrap().is_float32());
    /// ```
    pub fn is_float32(&self) -> bool {
        self.dtype == PredsDtype::Float32
    }

    /// The dtype the view computes in.
    ///
    /// ```
    /// use rankmetrics::torchmetrics::{Logits, PredsDtype};
    /// assert_eq!(Logits::new(&[[0.5f32, 2.0]]).unwrap().dtype(), PredsDtype::Float32);
    /// ```
    pub fn dtype(&self) -> PredsDtype {
        self.dtype
    }

    /// Whether the scores are read as they are: without the sigmoid, a cast that leaves them
    /// unchanged (torchmetrics' usual input, probabilities as float32) lends their rows and
    /// columns in place, not copied.
    fn unchanged(&self) -> bool {
        !self.sigmoid && !Self::cast_changes(self.dtype)
    }
}

impl<T: Score, S: Matrix<Elem = T> + ?Sized> Matrix for Logits<'_, S> {
    type Elem = T;
    fn nrows(&self) -> usize {
        self.scores.nrows()
    }
    fn ncols(&self) -> usize {
        self.scores.ncols()
    }
    fn row(&self, i: usize) -> Option<&[T]> {
        self.unchanged().then(|| self.scores.row(i)).flatten()
    }
    fn column(&self, j: usize) -> Option<&[T]> {
        self.unchanged().then(|| self.scores.column(j)).flatten()
    }
    fn extend_rows(&self, rows: Range<usize>, out: &mut Vec<T>) {
        let (start, first_row) = (out.len(), rows.start);
        self.scores.extend_rows(rows, out);
        let Some(scores) = out.get_mut(start..) else {
            return;
        };
        let dtype = self.dtype;
        match (Self::cast_changes(dtype), self.sigmoid) {
            (_, true) => {
                let l = self.scores.ncols().max(1);
                for (k, s) in scores.iter_mut().enumerate() {
                    let vectorised = self.vectorised(first_row + k / l, k % l);
                    *s = T::from_f64(dtype.sigmoid(dtype.cast(s.as_f64()), vectorised));
                }
            }
            (true, false) => {
                for s in scores {
                    *s = T::from_f64(dtype.cast(s.as_f64()));
                }
            }
            (false, false) => {}
        }
    }
    fn check_shape(&self) -> Result<(), Error> {
        self.scores.check_shape()
    }
}

#[cfg(test)]
mod tests {
    use super::{Logits, PredsDtype};
    use crate::matrix::Matrix;

    /// Which elements torch's vector kernel takes, as measured on torch 2.15 (AVX-512): whole
    /// blocks from the start of each thread's chunk, the rest left over.
    #[test]
    fn vector_blocks_start_each_threads_chunk() {
        use super::{TorchCpu, VectorBlocks};
        let blocks =
            |n, threads| VectorBlocks::new(TorchCpu::Avx512, PredsDtype::Float32, threads, n);
        let vectorised = |b: VectorBlocks| (0..b.len).filter(|&p| b.vectorised(p)).count();
        assert_eq!(vectorised(blocks(31, 1)), 0);
        assert_eq!(vectorised(blocks(70, 1)), 64);
        // Below torch's grain of 32,768 one chunk, whatever the threads.
        assert_eq!(vectorised(blocks(32_767, 8)), 32_736);
        // 100,001 on 2 threads: chunks of 50,001 and 50,000; 49,984..50,001 left over.
        let two = blocks(100_001, 2);
        assert!(two.vectorised(49_983) && !two.vectorised(49_984) && !two.vectorised(50_000));
        assert!(two.vectorised(50_001) && !two.vectorised(100_000));
        assert!(blocks(100_001, 1).vectorised(49_984));
        let f64_avx2 = VectorBlocks::new(TorchCpu::Avx2, PredsDtype::Float64, 1, 20);
        assert_eq!(vectorised(f64_avx2), 16);
        let half = VectorBlocks::new(TorchCpu::Avx512, PredsDtype::Float16, 1, 64);
        assert_eq!(vectorised(half), 0);
    }

    /// torch 2.15's `sigmoid()` of these bfloat16 and float16 tensors, printed with `repr`.
    #[test]
    fn half_sigmoids_are_torchs() {
        let view = |scores: &[[f64; 4]], dtype| {
            let mut row = Vec::new();
            Logits::with_dtype(scores, dtype)
                .unwrap()
                .extend_rows(0..1, &mut row);
            row
        };
        let bf16 = view(&[[3.0, 3.015625, -2.0, 0.5]], PredsDtype::BFloat16);
        assert_eq!(bf16[..3], [0.953125, 0.953125, 0.119140625]);
        let f16 = view(&[[10.0, 9.0, -20.0, 0.3]], PredsDtype::Float16);
        assert_eq!(f16, [1.0, 1.0, 0.0, 0.57421875]);
    }
}
