//! Times rankmetrics on the .npy inputs of benches/python/gen_data.py, metric by metric, as
//! sklearn_bench.py times scikit-learn: the median of `--repeats` calls after one warm-up.
//! benches/compare_sklearn.sh runs both and prints the ratios.
//!
//! ```text
//! cargo run --release --example bench_npy -- DIR SHAPE[,SHAPE] [--metrics a,b] [--repeats 3] [--threads N]
//!     [--baseline-loops] [--avx2-loops] [--with-relevant] [--small-pages] [--peak-memory]
//!     [--pool-cells N]
//! ```
//!
//! Prints one line per (shape, metric): `SHAPE METRIC MEDIAN_SECONDS VALUE`, then with
//! `--peak-memory` the most heap the metric's calls held above the inputs (`PEAK_MB` MB: every
//! allocation is counted). `--pool-cells N` sets the most cells the micro averages' pool holds
//! at once (`set_micro_pool_cells`). `read` is one pass
//! summing every score: the floor every metric reads through. `--baseline-loops` runs the
//! baseline-CPU loops where the CPU has wider ones (src/wide.rs), `--avx2-loops` the AVX2 ones
//! where it has AVX-512. `read_columns` reads every score and label as the label-wise metrics
//! read their columns out of row-major input, 8 columns at a time (`BENCH_COLUMNS=W` for W),
//! row after row: the floor of their column pass.
//! `--with-relevant` keeps only the rows that hold a relevant label, as
//! benches/python/peers_bench.py gives the retrieval peers.
//! `by_column:PRESET` times a preset on column-major copies of the inputs whose columns are
//! lent in place (as R's matrices, Fortran-order arrays and faer's are), `by_column_rows:PRESET`
//! on the same copies lending no column (blocks of rows only, the path before columns were lent).
//! The inputs are read into memory as numpy allocates an array (on Linux, advised onto huge
//! pages from 4 MiB), so that they lie as the Python peers' and the Python package's inputs
//! do; `--small-pages` leaves them on the allocator's default pages.
//! The peers' metrics: `ndcg_at_k@10`, `precision@5` and `average_precision` (tie policy Last,
//! trec_eval's), and torchmetrics' `tm_lrap`, `tm_coverage`, `tm_ranking_loss` on the float32
//! scores.
//!
//! Any preset of the registry, as `rankmetrics eval` runs it: `CONVENTION/NAME`, then
//! `:KEY=VALUE` for each parameter and `@POLICY` for `--ties` (for example
//! `sklearn/average_precision_score:average=micro@expected`, `mldr/macro_auc`,
//! `mulan/MacroAUCPR`); with `--threads`, through `registry::evaluate_all_parallel`, as the
//! command and the Python package run one metric on a pool. `ap_micro`, `ap_weighted`,
//! `ap_samples`, `roc_auc_weighted` and `roc_auc_samples` name scikit-learn's averages;
//! `iap_micro` is interpolated average precision over the pooled cells (10 levels, `First`, as
//! MULAN's macro presets take them), on one thread.

use std::alloc::{GlobalAlloc, Layout, System};
use std::error::Error;
use std::fs;
use std::hint::black_box;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use rankmetrics::registry::{Convention, Preset};
use rankmetrics::{
    sklearn, torchmetrics, Average, AveragePrecision, InterpolatedAveragePrecision, Label,
    LabelAveragePrecision, Matrix, NdcgAtK, OneError, PrecisionAtK, RankingMetric, RocAuc,
    RowMajor, RowMetric, Score, TiePolicy,
};

/// A 2-d C-order array read from a .npy file.
struct Array<T> {
    rows: usize,
    cols: usize,
    data: Vec<T>,
}

impl<T: Copy> Array<T> {
    /// The rows whose `keep` is true.
    fn keep_rows(self, keep: &[bool], pages: Pages) -> Self {
        let kept = keep.iter().filter(|&&k| k).count();
        let mut data = input_buffer(kept * self.cols, pages);
        let rows = self.data.chunks(self.cols).zip(keep).filter(|(_, &k)| k);
        data.extend(rows.flat_map(|(r, _)| r.iter().copied()));
        Array {
            rows: data.len() / self.cols.max(1),
            cols: self.cols,
            data,
        }
    }
}

/// A column-major copy of an input (element (i, j) at `data[j * rows + i]`), as R, Fortran-order
/// numpy arrays and faer hold a matrix.
struct ColumnMajor<T> {
    data: Vec<T>,
    rows: usize,
    cols: usize,
}

impl<T: Copy> ColumnMajor<T> {
    fn of(a: &Array<T>, pages: Pages) -> Self {
        let (rows, cols) = (a.rows, a.cols);
        let mut data = input_buffer(rows * cols, pages);
        data.extend((0..cols).flat_map(|j| (0..rows).map(move |i| a.data[i * cols + j])));
        ColumnMajor { data, rows, cols }
    }

    /// The matrix lending its columns in place (`lend`), or lending nothing and giving blocks
    /// of rows only (as a matrix type without `column`).
    fn lending(&self, lend: bool) -> ByColumn<'_, T> {
        ByColumn { of: self, lend }
    }
}

/// A [`ColumnMajor`] copy read as a `Matrix`.
struct ByColumn<'a, T> {
    of: &'a ColumnMajor<T>,
    lend: bool,
}

impl<T: Copy> Matrix for ByColumn<'_, T> {
    type Elem = T;
    fn nrows(&self) -> usize {
        self.of.rows
    }
    fn ncols(&self) -> usize {
        self.of.cols
    }
    fn column(&self, j: usize) -> Option<&[T]> {
        let ColumnMajor { data, rows, .. } = self.of;
        data.get(j * rows..(j + 1) * rows).filter(|_| self.lend)
    }
    fn extend_rows(&self, rows: std::ops::Range<usize>, out: &mut Vec<T>) {
        let ColumnMajor {
            data,
            rows: n,
            cols,
        } = self.of;
        let base = out.len();
        let Some(&first) = data.first() else {
            return;
        };
        out.resize(base + rows.len() * cols, first);
        for j in 0..*cols {
            let column = &data[j * n..][rows.clone()];
            for (k, &v) in column.iter().enumerate() {
                out[base + k * cols + j] = v;
            }
        }
    }
}

/// How the inputs' memory is paged.
#[derive(Clone, Copy, PartialEq)]
enum Pages {
    /// As numpy allocates an array of 4 MiB or more on Linux: advised (`madvise`) to lie on
    /// huge pages, which the kernel grants where transparent huge pages are `always` or
    /// `madvise` (the usual default). The Python peers' inputs lie so; timing ours alike keeps
    /// the comparison even.
    AsNumpy,
    /// Left to the allocator (`--small-pages`): 4 KiB pages unless the system makes every
    /// allocation huge.
    Default,
}

/// An empty vector with room for `len` elements, paged as `pages` says.
fn input_buffer<T>(len: usize, pages: Pages) -> Vec<T> {
    let mut data = Vec::with_capacity(len);
    let bytes = len * std::mem::size_of::<T>();
    // numpy's threshold (numpy/_core/src/multiarray/alloc.c): 4 MiB.
    #[cfg(target_os = "linux")]
    if pages == Pages::AsNumpy && bytes >= 1 << 22 {
        // The advice must come before the first write; it covers the whole pages inside the
        // buffer. Advice is a hint: its failure leaves the default pages.
        let start = (data.as_mut_ptr() as usize).next_multiple_of(4096);
        let end = (data.as_mut_ptr() as usize + bytes) & !4095;
        if end > start {
            // SAFETY: the range lies inside the vector's allocation, and advice does not
            // change its contents.
            unsafe { libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE) };
        }
    }
    let _ = (bytes, pages);
    data
}

/// Element types this reader takes, with their .npy `descr`.
trait NpyElem: Sized + Copy {
    const DESCR: &'static [&'static str];
    const SIZE: usize;
    fn from_le(bytes: &[u8]) -> Self;
}

impl NpyElem for u8 {
    const DESCR: &'static [&'static str] = &["|u1", "<u1"];
    const SIZE: usize = 1;
    fn from_le(b: &[u8]) -> Self {
        b[0]
    }
}

impl NpyElem for f64 {
    const DESCR: &'static [&'static str] = &["<f8"];
    const SIZE: usize = 8;
    fn from_le(b: &[u8]) -> Self {
        f64::from_le_bytes(b.try_into().expect("8 bytes"))
    }
}

impl NpyElem for f32 {
    const DESCR: &'static [&'static str] = &["<f4"];
    const SIZE: usize = 4;
    fn from_le(b: &[u8]) -> Self {
        f32::from_le_bytes(b.try_into().expect("4 bytes"))
    }
}

/// Reads a .npy file (format versions 1–3, C order, 2-d, little-endian).
fn read_npy<T: NpyElem>(path: &Path, pages: Pages) -> Result<Array<T>, Box<dyn Error>> {
    let bytes = fs::read(path)?;
    if bytes.get(..6) != Some(b"\x93NUMPY".as_slice()) {
        return Err(format!("{}: not a .npy file", path.display()).into());
    }
    let (header_len, body) = match bytes.get(6) {
        Some(1) => (usize::from(u16::from_le_bytes([bytes[8], bytes[9]])), 10),
        Some(2 | 3) => (u32::from_le_bytes(bytes[8..12].try_into()?) as usize, 12),
        _ => return Err(format!("{}: unknown .npy version", path.display()).into()),
    };
    let header = std::str::from_utf8(&bytes[body..body + header_len])?;
    let field = |name: &str| -> Option<&str> {
        let at = header.find(&format!("'{name}':"))? + name.len() + 3;
        Some(header[at..].trim_start())
    };
    let descr = field("descr")
        .and_then(|d| d.split('\'').nth(1))
        .unwrap_or("");
    if !T::DESCR.contains(&descr) {
        return Err(format!("{}: dtype {descr}, expected {:?}", path.display(), T::DESCR).into());
    }
    if field("fortran_order").is_some_and(|f| f.starts_with("True")) {
        return Err(format!("{}: Fortran order", path.display()).into());
    }
    let shape = field("shape").ok_or("no shape")?;
    let dims: Vec<usize> = shape[1..shape.find(')').ok_or("bad shape")?]
        .split(',')
        .filter(|d| !d.trim().is_empty())
        .map(|d| d.trim().parse())
        .collect::<Result<_, _>>()?;
    let [rows, cols] = dims[..] else {
        return Err(format!("{}: not 2-d", path.display()).into());
    };
    let cells = bytes[body + header_len..].chunks_exact(T::SIZE);
    let mut data = input_buffer(cells.len(), pages);
    data.extend(cells.map(T::from_le));
    if data.len() != rows * cols {
        return Err(format!("{}: truncated", path.display()).into());
    }
    Ok(Array { rows, cols, data })
}

/// A row-wise metric's value: with `--threads`, through `rankmetrics::parallel` on a pool
/// of that many threads.
fn row_metric<M, T, Y, S>(parallel: bool, m: &M, y: &Y, s: &S) -> f64
where
    M: RowMetric + Sync,
    T: Score,
    Y: Matrix + Sync + ?Sized,
    Y::Elem: Label,
    S: Matrix<Elem = T> + Sync + ?Sized,
{
    #[cfg(feature = "rayon")]
    if parallel {
        return rankmetrics::parallel::evaluate(m, y, s, None).expect("valid input");
    }
    let _ = parallel;
    m.evaluate(y, s, None).expect("valid input")
}

/// The preset named `CONVENTION/NAME[:KEY=VALUE]...[@POLICY]`, or one of scikit-learn's
/// averages by its sklearn_bench.py name.
fn preset(metric: &str) -> Option<Result<Preset, Box<dyn Error>>> {
    let spelled = match metric {
        "ap_micro" => "sklearn/average_precision_score:average=micro",
        "ap_weighted" => "sklearn/average_precision_score:average=weighted",
        "ap_samples" => "sklearn/average_precision_score:average=samples",
        "roc_auc_weighted" => "sklearn/roc_auc_score:average=weighted",
        "roc_auc_samples" => "sklearn/roc_auc_score:average=samples",
        other => other,
    };
    let (convention, rest) = spelled.split_once('/')?;
    let convention = Convention::parse(convention)?;
    Some((|| {
        let (rest, ties) = match rest.split_once('@') {
            Some((rest, t)) => (rest, Some(t.parse::<TiePolicy>()?)),
            None => (rest, None),
        };
        let mut parts = rest.split(':');
        let name = parts.next().unwrap_or_default();
        let params: Vec<(&str, &str)> = parts
            .map(|kv| {
                kv.split_once('=')
                    .ok_or(format!("{metric}: KEY=VALUE expected"))
            })
            .collect::<Result<_, _>>()?;
        Ok(Preset::lookup(convention, name, &params, ties)?)
    })())
}

/// A preset's value: with `--threads`, on the pool as the command runs one metric.
fn preset_value<Y, S>(parallel: bool, p: &Preset, y: &Y, s: &S) -> f64
where
    Y: rankmetrics::LabelMatrix + Sync + ?Sized,
    S: rankmetrics::ScoreMatrix<f64> + Sync + ?Sized,
{
    #[cfg(feature = "rayon")]
    if parallel {
        let all = rankmetrics::registry::evaluate_all_parallel(std::slice::from_ref(p), y, s, None);
        return all
            .into_iter()
            .next()
            .expect("one preset")
            .expect("valid input");
    }
    let _ = parallel;
    p.evaluate(y, s, None).expect("valid input")
}

/// Columns read at once by `read_columns`: `BENCH_COLUMNS`, else 8 (the label-wise blocks).
fn columns_at_once() -> usize {
    std::env::var("BENCH_COLUMNS")
        .ok()
        .and_then(|w| w.parse().ok())
        .unwrap_or(8)
}

/// Counts the bytes the process holds on the heap, and the most it held since
/// [`Heap::start_peak`], for `--peak-memory`.
struct Heap;

static HEAP_NOW: AtomicUsize = AtomicUsize::new(0);
static HEAP_PEAK: AtomicUsize = AtomicUsize::new(0);
/// The bytes held when the current peak was started, and the peak above them of the last
/// metric timed.
static HEAP_BASE: AtomicUsize = AtomicUsize::new(0);
static LAST_PEAK_ABOVE: AtomicUsize = AtomicUsize::new(0);

impl Heap {
    fn grew(bytes: usize) {
        let now = HEAP_NOW.fetch_add(bytes, Ordering::Relaxed) + bytes;
        HEAP_PEAK.fetch_max(now, Ordering::Relaxed);
    }

    /// Starts a new peak from what is held now (the inputs, read before).
    fn start_peak() {
        let now = HEAP_NOW.load(Ordering::Relaxed);
        HEAP_BASE.store(now, Ordering::Relaxed);
        HEAP_PEAK.store(now, Ordering::Relaxed);
    }

    /// The most held since [`start_peak`](Self::start_peak), above what was held then.
    fn peak_above_start() -> usize {
        HEAP_PEAK.load(Ordering::Relaxed) - HEAP_BASE.load(Ordering::Relaxed)
    }
}

// SAFETY: every call is the system allocator's, with the same arguments; the counts are
// bookkeeping only.
unsafe impl GlobalAlloc for Heap {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            Heap::grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            Heap::grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        System.dealloc(p, layout);
        HEAP_NOW.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let q = System.realloc(p, layout, new_size);
        if !q.is_null() {
            HEAP_NOW.fetch_sub(layout.size(), Ordering::Relaxed);
            Heap::grew(new_size);
        }
        q
    }
}

#[global_allocator]
static HEAP: Heap = Heap;

/// The median of `repeats` timed calls after one warm-up, and the value; the most heap the
/// calls held above what was held before them goes to `LAST_PEAK_ABOVE`.
fn time(repeats: usize, mut f: impl FnMut() -> f64) -> (f64, f64) {
    Heap::start_peak();
    let value = black_box(f());
    let mut times: Vec<f64> = (0..repeats)
        .map(|_| {
            let t = Instant::now();
            black_box(f());
            t.elapsed().as_secs_f64()
        })
        .collect();
    times.sort_by(f64::total_cmp);
    LAST_PEAK_ABOVE.store(Heap::peak_above_start(), Ordering::Relaxed);
    (times[times.len() / 2], value)
}

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let option = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1).cloned())
    };
    let dir = Path::new(
        args.first()
            .ok_or("usage: bench_npy DIR SHAPES [options]")?,
    );
    let shapes = args.get(1).ok_or("usage: bench_npy DIR SHAPES [options]")?;
    let repeats: usize = option("--repeats").map_or(Ok(3), |r| r.parse())?;
    let all = "read,coverage_error,lrap,label_ranking_loss,ndcg,ndcg@10,ndcg_ignore_ties,\
               roc_auc_macro,roc_auc_micro,ap_macro,lrap_f32,coverage_error_f32,one_error";
    let metrics = option("--metrics").unwrap_or_else(|| all.to_string());
    let threads = option("--threads");
    // The row pass's loops as compiled for the baseline CPU, or for AVX2, not the widest the
    // CPU runs (src/wide.rs).
    if args.iter().any(|a| a == "--baseline-loops") {
        rankmetrics::set_wide_loops(false);
    }
    if args.iter().any(|a| a == "--avx2-loops") {
        rankmetrics::set_avx512_loops(false);
    }
    let par = threads.is_some();
    let with_relevant = args.iter().any(|a| a == "--with-relevant");
    let peak_memory = args.iter().any(|a| a == "--peak-memory");
    // The most cells the micro averages' pool holds at once (`--pool-cells N`).
    if let Some(cells) = option("--pool-cells") {
        rankmetrics::set_micro_pool_cells(Some(cells.parse()?));
    }
    let pages = match args.iter().any(|a| a == "--small-pages") {
        true => Pages::Default,
        false => Pages::AsNumpy,
    };
    let lrap = sklearn::LABEL_RANKING_AVERAGE_PRECISION_SCORE;
    let run = || -> Result<(), Box<dyn Error>> {
        for shape in shapes.split(',') {
            let file = |key: &str| dir.join(format!("{shape}_{key}.npy"));
            let mut y = read_npy::<u8>(&file("y_true"), pages)?;
            let mut s = read_npy::<f64>(&file("y_score"), pages)?;
            let mut s32 = (metrics.contains("_f32") || metrics.contains("tm_"))
                .then(|| read_npy::<f32>(&file("y_score_f32"), pages))
                .transpose()?;
            if with_relevant {
                let keep: Vec<bool> = y.data.chunks(y.cols).map(|r| r.contains(&1)).collect();
                y = y.keep_rows(&keep, pages);
                s = s.keep_rows(&keep, pages);
                s32 = s32.map(|a| a.keep_rows(&keep, pages));
            }
            // Column-major copies, for the metrics named `by_column:PRESET` (columns lent in
            // place) and `by_column_rows:PRESET` (the same storage lending no column).
            let column_major = metrics
                .contains("by_column")
                .then(|| (ColumnMajor::of(&y, pages), ColumnMajor::of(&s, pages)));
            let y = RowMajor::new(&y.data, y.rows, y.cols)?;
            let (n, l) = (s.rows, s.cols);
            let s = RowMajor::new(&s.data, n, l)?;
            let s32 = match &s32 {
                Some(a) => Some(RowMajor::new(&a.data, a.rows, a.cols)?),
                None => None,
            };
            for metric in metrics.split(',') {
                let (median, value) = match metric {
                    "read" => time(repeats, || s.as_slice().iter().sum()),
                    // The scores and labels read as the label-wise metrics read their columns
                    // out of row-major input, `BENCH_COLUMNS` (default 8) at a time, row after
                    // row, and summed: what reading the columns costs before any ranking.
                    "read_columns" => time(repeats, || {
                        let width = columns_at_once().max(1);
                        let (scores, labels) = (s.as_slice(), y.as_slice());
                        let column_block = |j: usize| -> f64 {
                            (0..n)
                                .map(|i| {
                                    let cells = i * l + j..i * l + l.min(j + width);
                                    let labels = labels[cells.clone()].iter();
                                    scores[cells].iter().sum::<f64>()
                                        + labels.map(|&y| f64::from(y)).sum::<f64>()
                                })
                                .sum()
                        };
                        (0..l).step_by(width).map(column_block).sum()
                    }),
                    "coverage_error" => time(repeats, || {
                        row_metric(par, &sklearn::COVERAGE_ERROR, &y, &s)
                    }),
                    "coverage_error_f32" => time(repeats, || {
                        let s32 = s32.as_ref().expect("read above");
                        row_metric(par, &sklearn::COVERAGE_ERROR, &y, s32)
                    }),
                    "lrap" => time(repeats, || row_metric(par, &lrap, &y, &s)),
                    "lrap_f32" => time(repeats, || {
                        row_metric(par, &lrap, &y, s32.as_ref().expect("read above"))
                    }),
                    "label_ranking_loss" => time(repeats, || {
                        row_metric(par, &sklearn::LABEL_RANKING_LOSS, &y, &s)
                    }),
                    "one_error" => time(repeats, || {
                        row_metric(par, &OneError::new(TiePolicy::Max), &y, &s)
                    }),
                    "ndcg" => time(repeats, || row_metric(par, &sklearn::NDCG_SCORE, &y, &s)),
                    "ndcg@10" => time(repeats, || {
                        let m = sklearn::NDCG_SCORE.with_k(Some(10)).expect("k > 0");
                        row_metric(par, &m, &y, &s)
                    }),
                    "ndcg_ignore_ties" => time(repeats, || {
                        let m = sklearn::NDCG_SCORE.with_ties(TiePolicy::Last);
                        row_metric(par, &m, &y, &s)
                    }),
                    "roc_auc_macro" => time(repeats, || {
                        sklearn::ROC_AUC_SCORE
                            .evaluate(&y, &s, None)
                            .expect("valid input")
                    }),
                    "roc_auc_micro" => time(repeats, || {
                        let m: RocAuc = sklearn::ROC_AUC_SCORE.averaged(Average::Micro);
                        m.evaluate(&y, &s, None).expect("valid input")
                    }),
                    "iap_micro" => time(repeats, || {
                        let m =
                            InterpolatedAveragePrecision::new(Average::Micro, TiePolicy::First, 10);
                        m.evaluate(&y, &s, None).expect("valid input")
                    }),
                    "ap_macro" => time(repeats, || {
                        let m: LabelAveragePrecision = sklearn::AVERAGE_PRECISION_SCORE;
                        m.evaluate(&y, &s, None).expect("valid input")
                    }),
                    "ndcg_at_k@10" => time(repeats, || {
                        let m = NdcgAtK::new(TiePolicy::Last, 10).expect("k > 0");
                        row_metric(par, &m, &y, &s)
                    }),
                    "precision@5" => time(repeats, || {
                        let m = PrecisionAtK::new(TiePolicy::Last, 5).expect("k > 0");
                        row_metric(par, &m, &y, &s)
                    }),
                    "average_precision" => time(repeats, || {
                        row_metric(par, &AveragePrecision::new(TiePolicy::Last), &y, &s)
                    }),
                    "tm_lrap" => time(repeats, || {
                        let s32 = s32.as_ref().expect("read above");
                        torchmetrics::multilabel_ranking_average_precision(s32, &y)
                            .expect("valid input")
                    }),
                    "tm_coverage" => time(repeats, || {
                        let s32 = s32.as_ref().expect("read above");
                        torchmetrics::multilabel_coverage_error(s32, &y).expect("valid input")
                    }),
                    "tm_ranking_loss" => time(repeats, || {
                        let s32 = s32.as_ref().expect("read above");
                        torchmetrics::multilabel_ranking_loss(s32, &y).expect("valid input")
                    }),
                    other if other.starts_with("by_column") => {
                        let (name, lent) = match other.split_once(':') {
                            Some(("by_column", name)) => (name, true),
                            Some(("by_column_rows", name)) => (name, false),
                            _ => return Err(format!("unknown metric {other}").into()),
                        };
                        let p = preset(name).ok_or(format!("unknown metric {name}"))??;
                        let (yc, sc) = column_major.as_ref().expect("made above");
                        let (yc, sc) = (yc.lending(lent), sc.lending(lent));
                        time(repeats, || preset_value(par, &p, &yc, &sc))
                    }
                    other => {
                        let p = preset(other).ok_or(format!("unknown metric {other}"))??;
                        time(repeats, || preset_value(par, &p, &y, &s))
                    }
                };
                match peak_memory {
                    true => {
                        let peak = LAST_PEAK_ABOVE.load(Ordering::Relaxed) as f64 / 1e6;
                        println!("{shape} {metric} {median:.6} {value} {peak:.1}MB");
                    }
                    false => println!("{shape} {metric} {median:.6} {value}"),
                }
            }
        }
        Ok(())
    };
    match threads {
        None => run(),
        Some(t) => with_threads(t.parse()?, run),
    }
}

#[cfg(feature = "rayon")]
fn with_threads(
    threads: usize, run: impl FnOnce() -> Result<(), Box<dyn Error>> + Send,
) -> Result<(), Box<dyn Error>> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    pool.install(|| run().map_err(|e| e.to_string()))?;
    Ok(())
}

#[cfg(not(feature = "rayon"))]
fn with_threads(
    threads: usize, run: impl FnOnce() -> Result<(), Box<dyn Error>> + Send,
) -> Result<(), Box<dyn Error>> {
    if threads != 1 {
        return Err("--threads needs the rayon feature".into());
    }
    run()
}
