//! Presets that reproduce each toolkit exactly, one module per toolkit, with the toolkit's own
//! names; and a [`registry`] that finds them by name.
//!
//! Each preset is an ordinary metric value with the toolkit's knobs set, so a reader sees at
//! once what the toolkit does: `sklearn::COVERAGE_ERROR` is
//! `Coverage::new(TiePolicy::Max).one_based(true)` plus scikit-learn's input checks.

pub mod mldr;
pub mod mulan;
pub mod registry;
pub mod sklearn;
pub mod torchmetrics;
