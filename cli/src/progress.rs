//! A progress bar on stderr, shown only when stderr is a terminal and `--quiet` is not given.

use std::io::IsTerminal as _;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Progress of the stages of one run; does nothing when hidden.
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A bar on stderr if it is a terminal and `quiet` is false.
    pub fn new(quiet: bool) -> Progress {
        let shown = !quiet && std::io::stderr().is_terminal();
        Progress {
            bar: shown.then(|| ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr())),
        }
    }

    /// Starts a stage measured in bytes, e.g. reading a file of `total` bytes.
    pub fn bytes(&self, message: String, total: u64) {
        if let Some(bar) = &self.bar {
            bar.disable_steady_tick();
            bar.set_message(message);
            bar.set_style(
                ProgressStyle::with_template(
                    "{msg} [{bar:20}] {binary_bytes}/{binary_total_bytes} {eta}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
            );
            bar.set_length(total);
            bar.set_position(0);
        }
    }

    /// Advances a byte stage by `n`.
    pub fn advance(&self, n: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(n);
        }
    }

    /// Starts a stage of unknown length (the computation itself): a spinner with the time spent.
    pub fn spinner(&self, message: String) {
        if let Some(bar) = &self.bar {
            bar.set_style(
                ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            bar.set_message(message);
            bar.enable_steady_tick(Duration::from_millis(100));
        }
    }

    /// Removes the bar before the results are printed.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
