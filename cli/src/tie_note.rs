//! The note `eval` prints on stderr when a value computed under a rank-sharing tie policy
//! (max, min, average: tied labels share one rank) lies outside [low, high], the range of the
//! values over every ordering of the ties. No ordering gives such a value: under rankmetrics'
//! default `max`, DCG, NDCG and nDCG@k give every tied relevant label the discount of the
//! group's last position, below what any ordering gives. `compare` flags the same values
//! with `*`; `eval` computes the interval's ends alongside (each a preset of its own, in the
//! same pass over the data) and says so once.

use rankmetrics::registry::{ParamValue, Preset};
use rankmetrics::{Error, TiePolicy};

use crate::compare::outside;

/// The ends of the interval of one requested preset.
#[derive(Debug, Clone)]
pub struct Ends {
    /// The requested preset's index.
    index: usize,
    /// Its tie policy (max, min or average).
    policy: TiePolicy,
    /// The same metric and parameters under the pessimistic and the optimistic policy.
    pub presets: [Preset; 2],
}

/// The rank-sharing tie policy a preset runs under, from its echoed `ties` parameter (set by
/// rankmetrics' own metrics and by `--ties`), if it has one.
fn shared_policy(preset: &Preset) -> Option<TiePolicy> {
    let ties = preset.params().iter().find_map(|(k, v)| match v {
        ParamValue::Str(s) if *k == "ties" => TiePolicy::parse(s),
        _ => None,
    })?;
    matches!(ties, TiePolicy::Max | TiePolicy::Min | TiePolicy::Average).then_some(ties)
}

/// The interval ends to compute for each preset under max, min or average whose metric has
/// proven ones on an input with sample weights (`weighted`) or without: where they are not
/// proven, a value outside them may lie inside the interval.
pub fn ends(presets: &[Preset], weighted: bool) -> Vec<Ends> {
    presets
        .iter()
        .enumerate()
        .filter_map(|(index, preset)| {
            let policy = shared_policy(preset)?;
            if preset.tie_analysis(weighted).ends_unproven.is_some() {
                return None;
            }
            let keys = Preset::param_keys(preset.convention(), preset.name());
            let params: Vec<(&str, String)> = preset
                .params()
                .iter()
                .filter(|(k, _)| keys.contains(k))
                .map(|(k, v)| (*k, v.to_string()))
                .collect();
            let end = |t| Preset::lookup(preset.convention(), preset.name(), &params, Some(t));
            Some(Ends {
                index,
                policy,
                presets: [
                    end(TiePolicy::Pessimistic).ok()?,
                    end(TiePolicy::Optimistic).ok()?,
                ],
            })
        })
        .collect()
}

/// The note (without the `rankmetrics: ` prefix) when some value of `values` lies outside its
/// interval; `end_values` holds the values of every [`Ends::presets`], in order.
pub fn note(
    presets: &[Preset], values: &[Result<f64, Error>], ends: &[Ends],
    end_values: &[Result<f64, Error>],
) -> Option<String> {
    let outside_values: Vec<String> = ends
        .iter()
        .zip(end_values.chunks_exact(2))
        .filter_map(|(e, pair)| {
            let v = *values.get(e.index)?.as_ref().ok()?;
            let (p, o) = (*pair[0].as_ref().ok()?, *pair[1].as_ref().ok()?);
            let interval = (p.min(o), p.max(o));
            if !v.is_finite() || !outside(v, interval) {
                return None;
            }
            let d = decimals(v, interval);
            Some(format!(
                "{} under {}: {v:.d$} outside [{:.d$}, {:.d$}]",
                presets.get(e.index)?.name(),
                e.policy,
                interval.0,
                interval.1
            ))
        })
        .collect();
    if outside_values.is_empty() {
        return None;
    }
    Some(format!(
        "note: {}, the range over every ordering of the tied scores: under max, min and average \
         tied labels share one rank, which no ordering gives; --ties expected gives the exact \
         mean over the orderings, --ties pessimistic the worst ordering's value",
        outside_values.join("; ")
    ))
}

/// Four decimals, or as many as it takes to tell `v` from the nearer end of the interval.
fn decimals(v: f64, (lo, hi): (f64, f64)) -> usize {
    let end = if v < lo { lo } else { hi };
    (4..=17)
        .find(|&d| format!("{v:.d$}") != format!("{end:.d$}"))
        .unwrap_or(17)
}
