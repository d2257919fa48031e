//! Presets that reproduce each toolkit exactly, one module per toolkit, with the toolkit's own
//! names; and a [`registry`] that finds them by name.
//!
//! Each preset is an ordinary metric value with the toolkit's knobs set, so a reader sees at
//! once what the toolkit does: `sklearn::COVERAGE_ERROR` is
//! `Coverage::new(TiePolicy::Max).one_based(true)` plus scikit-learn's input checks.

/// Declares a toolkit's function under the toolkit's own name and argument order, generic over
/// the score type `T`, the labels `Y` and the scores `S` as every metric is, and returning the
/// value. Each toolkit module then shows only what differs: names, documentation and the preset
/// the function calls. `Error`, `Score`, `LabelMatrix` and `ScoreMatrix` are the calling
/// module's imports (its documentation links to them).
macro_rules! toolkit_fn {
    ($(#[$attr:meta])* pub fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $body:block) => {
        $(#[$attr])*
        pub fn $name<T, Y, S>($($arg: $ty),*) -> Result<f64, Error>
        where
            T: Score,
            Y: LabelMatrix + ?Sized,
            S: ScoreMatrix<T> + ?Sized,
        $body
    };
}

pub mod mldr;
pub mod mulan;
pub mod registry;
pub mod sklearn;
pub mod torchmetrics;
