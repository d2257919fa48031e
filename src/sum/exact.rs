//! Exact sums of `f64` values ([`ExactSum`]): a fixed-point accumulator wide enough for every
//! finite `f64` and 2^64 of them, rounded once, to nearest (ties to even), when read; and
//! [`ProductSum`], as wide again, for products of a value and a weight of any magnitude
//! (from 2^-2148 to beyond 2^2047). The value depends only on the multiset of values added,
//! never on their order or on how partial sums were merged.

use core::fmt;

/// Bits per limb. Limbs are `i64`, so each has 32 bits of headroom for carries.
const LIMB_BITS: usize = 32;
/// Adds between carries: one add moves a limb by less than 2^32, so a limb stays below 2^62.
const CARRY_EVERY: u32 = 1 << 30;

/// Non-finite values added, kept apart: their IEEE sum does not depend on the order, once the
/// NaN's payload is fixed.
const POS_INF: u8 = 1;
const NEG_INF: u8 = 2;
const NAN: u8 = 4;

/// An exact sum of `f64` values, correctly rounded when read (`value`).
///
/// Bit `p` of the accumulator weighs 2^(p − 1074 − 32·LOW): `LOW` limbs lie below 2^-1074.
/// A NaN among the values, or both infinities, gives NaN (`f64::NAN`, whatever NaN was added);
/// an infinity gives that infinity; otherwise the exact sum of the finite values, rounded to
/// nearest with ties to even (±infinity when it rounds beyond `f64::MAX`; +0.0 when it is 0).
#[derive(Clone)]
pub(crate) struct FixedSum<const LIMBS: usize, const LOW: usize> {
    /// Boxed: 544 bytes would make every enum holding a sum that large.
    limbs: Box<[i64; LIMBS]>,
    /// Adds (and merged pending counts) since the last carry.
    pending: u32,
    /// Which non-finite values were added (`POS_INF`, `NEG_INF`, `NAN`).
    special: u8,
}

/// The sum of any finite `f64` values: a finite `f64` covers bits 0..2098 (2^-1074 to
/// 2^1024); 2^64 of them fit below bit 2162; 68 limbs hold bits 0..2176.
pub(crate) type ExactSum = FixedSum<68, 0>;

/// The sum of products `v·2^e` of a finite `f64` v and an exponent e in -1074..=1024 (a
/// value times a weight's power of two): 34 limbs below 2^-1074 take the lowest bit,
/// 2^(-1074 − 1074), and 134 limbs in all the highest, 2^(1024 + 1024), 2^64 times.
pub(crate) type ProductSum = FixedSum<134, 34>;

impl<const LIMBS: usize, const LOW: usize> Default for FixedSum<LIMBS, LOW> {
    fn default() -> Self {
        FixedSum {
            limbs: Box::new([0; LIMBS]),
            pending: 0,
            special: 0,
        }
    }
}

impl<const LIMBS: usize, const LOW: usize> FixedSum<LIMBS, LOW> {
    /// Adds `x` exactly.
    #[inline]
    pub(crate) fn add(&mut self, x: f64) {
        self.add_scaled(x, 0);
    }

    /// Adds `x·2^e` exactly; the type's width must hold it (every finite `x` with `e = 0`;
    /// `e` in -1074..=1024 for [`ProductSum`]).
    #[inline]
    pub(crate) fn add_scaled(&mut self, x: f64, e: i32) {
        let bits = x.to_bits();
        let biased = ((bits >> 52) & 0x7ff) as usize;
        let fraction = bits & ((1 << 52) - 1);
        if biased == 0x7ff {
            self.special |= match (fraction, x > 0.0) {
                (0, true) => POS_INF,
                (0, false) => NEG_INF,
                _ => NAN,
            };
            return;
        }
        // x·2^e = mantissa · 2^(position − 1074 − 32·LOW).
        let (mantissa, position) = match biased {
            0 => (fraction, 0),
            _ => (fraction | 1 << 52, biased - 1),
        };
        let position = (position + LOW * LIMB_BITS).wrapping_add_signed(e as isize);
        let shifted = u128::from(mantissa) << (position % LIMB_BITS);
        let parts = [
            (shifted & 0xffff_ffff) as i64,
            ((shifted >> 32) & 0xffff_ffff) as i64,
            (shifted >> 64) as i64,
        ];
        let first = position / LIMB_BITS;
        let limbs = self.limbs.get_mut(first..first + 3);
        debug_assert!(limbs.is_some(), "{x}·2^{e} is beyond the sum's width");
        if let Some(limbs) = limbs {
            if bits >> 63 == 0 {
                limbs.iter_mut().zip(parts).for_each(|(l, p)| *l += p);
            } else {
                limbs.iter_mut().zip(parts).for_each(|(l, p)| *l -= p);
            }
        }
        self.pending += 1;
        if self.pending >= CARRY_EVERY {
            self.carry();
        }
    }

    /// Adds everything `other` added.
    pub(crate) fn merge(&mut self, other: &Self) {
        let mut other = other.clone();
        other.carry();
        self.carry();
        for (l, o) in self.limbs.iter_mut().zip(other.limbs.iter()) {
            *l += o;
        }
        // Each carried limb is below 2^32: the sum is below two adds' worth.
        self.pending = 2;
        self.special |= other.special;
    }

    /// The sum, correctly rounded.
    pub(crate) fn value(&self) -> f64 {
        self.value_scaled(0)
    }

    /// The sum times 2^s, correctly rounded (once: the scaling is exact).
    pub(crate) fn value_scaled(&self, s: i32) -> f64 {
        if self.special & NAN != 0 || self.special == POS_INF | NEG_INF {
            return f64::NAN;
        }
        if self.special == POS_INF {
            return f64::INFINITY;
        }
        if self.special == NEG_INF {
            return f64::NEG_INFINITY;
        }
        let (negative, limbs) = self.magnitude();
        // The position of the bit that weighs 2^-1074 once scaled.
        let smallest = (LOW * LIMB_BITS) as i64 - i64::from(s);
        let magnitude = round_to_f64(&limbs[..], smallest);
        if negative {
            -magnitude
        } else {
            magnitude
        }
    }

    /// Whether the sum is a finite number of at least 0, as a sum of weights is.
    #[cfg(feature = "serde")]
    pub(crate) fn is_finite_non_negative(&self) -> bool {
        self.special == 0 && !self.magnitude().0
    }

    /// The exponent of the sum's magnitude, ⌊log₂ |sum|⌋ (the non-finite values added
    /// aside), or `None` when it is 0.
    pub(crate) fn exponent(&self) -> Option<i32> {
        let (_, limbs) = self.magnitude();
        let high = highest_bit(&limbs[..])?;
        Some((high as i64 - 1074 - (LOW * LIMB_BITS) as i64) as i32)
    }

    /// Whether the sum is negative, and its magnitude in carried limbs.
    fn magnitude(&self) -> (bool, [i64; LIMBS]) {
        let mut limbs = *self.limbs;
        carry(&mut limbs);
        let negative = limbs[LIMBS - 1] < 0;
        if negative {
            limbs.iter_mut().for_each(|l| *l = -*l);
            carry(&mut limbs);
        }
        (negative, limbs)
    }

    /// Propagates carries: every limb but the last in [0, 2^32), the last signed.
    fn carry(&mut self) {
        carry(&mut self.limbs[..]);
        self.pending = 0;
    }

    /// The limbs after carrying, the lowest non-zero one first: `(index of the first, limbs)`;
    /// `(0, [])` for zero.
    fn normalized(&self) -> (usize, Vec<i64>) {
        let mut limbs = *self.limbs;
        carry(&mut limbs);
        match limbs.iter().position(|&l| l != 0) {
            Some(first) => {
                let last = limbs.iter().rposition(|&l| l != 0).unwrap_or(first);
                (first, limbs[first..=last].to_vec())
            }
            None => (0, Vec::new()),
        }
    }
}

/// Propagates carries through `limbs`.
fn carry(limbs: &mut [i64]) {
    for i in 0..limbs.len() - 1 {
        let c = limbs[i] >> LIMB_BITS; // floor division: the remainder is in [0, 2^32)
        limbs[i] -= c << LIMB_BITS;
        limbs[i + 1] += c;
    }
}

/// The position of the highest set bit of carried, non-negative `limbs`; `None` for 0.
fn highest_bit(limbs: &[i64]) -> Option<usize> {
    let top = limbs.iter().rposition(|&l| l != 0)?;
    Some(top * LIMB_BITS + (63 - limbs[top].leading_zeros() as usize))
}

/// The non-negative number held in carried `limbs` (each in [0, 2^32)), bit `smallest`
/// weighing 2^-1074, rounded to nearest with ties to even.
fn round_to_f64(limbs: &[i64], smallest: i64) -> f64 {
    let Some(high) = highest_bit(limbs) else {
        return 0.0;
    };
    let high = high as i64;
    // The highest bit weighs 2^(high − smallest − 1074): 2^1024 or more is beyond f64::MAX.
    if high - smallest >= 1074 + 1024 {
        return f64::INFINITY;
    }
    // The lowest bit kept: 53 bits, or down to 2^-1074 (subnormals keep fewer).
    let low = (high - 52).max(smallest);
    if low > high + 1 {
        return 0.0; // below half of 2^-1074
    }
    let mut mantissa = match usize::try_from(low) {
        Ok(low) => bit_field(limbs, low),
        // Bits below the accumulator's are 0.
        Err(_) => bit_field(limbs, 0) << -low,
    };
    if low > 0 {
        let low = low as usize;
        let half = bit(limbs, low - 1);
        let sticky = any_below(limbs, low - 1);
        if half && (sticky || mantissa & 1 == 1) {
            mantissa += 1;
        }
    }
    // mantissa · 2^(rel − 1074), rel = low − smallest: for rel > 0 the mantissa has 53 bits
    // and the biased exponent is rel + 1; a rounding carry to 2^53 moves into the exponent (up
    // to infinity's bits); for rel = 0 the bits are the mantissa itself (subnormal, or the
    // smallest binade).
    f64::from_bits((((low - smallest) as u64) << 52) + mantissa)
}

/// Bits `low..low + 53` of carried `limbs`.
fn bit_field(limbs: &[i64], low: usize) -> u64 {
    let first = low / LIMB_BITS;
    let window = (first..(first + 3).min(limbs.len()))
        .rev()
        .fold(0u128, |w, i| (w << LIMB_BITS) | limbs[i] as u128);
    ((window >> (low % LIMB_BITS)) as u64) & ((1 << 53) - 1)
}

/// Bit `p` of carried `limbs`.
fn bit(limbs: &[i64], p: usize) -> bool {
    (limbs[p / LIMB_BITS] >> (p % LIMB_BITS)) & 1 == 1
}

/// Whether any bit below `p` is set.
fn any_below(limbs: &[i64], p: usize) -> bool {
    let (limb, offset) = (p / LIMB_BITS, p % LIMB_BITS);
    limbs[limb] & ((1 << offset) - 1) != 0 || limbs[..limb].iter().any(|&l| l != 0)
}

impl<const LIMBS: usize, const LOW: usize> PartialEq for FixedSum<LIMBS, LOW> {
    /// Equal when they hold the same exact sum and the same non-finite values.
    fn eq(&self, other: &Self) -> bool {
        let (mut a, mut b) = (*self.limbs, *other.limbs);
        carry(&mut a);
        carry(&mut b);
        a == b && self.special == other.special
    }
}

impl<const LIMBS: usize, const LOW: usize> fmt::Debug for FixedSum<LIMBS, LOW> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (first, limbs) = self.normalized();
        f.debug_struct("ExactSum")
            .field("value", &self.value())
            .field("first_limb", &(first as i64 - LOW as i64))
            .field("limbs", &limbs)
            .field("special", &self.special)
            .finish()
    }
}

#[cfg(feature = "serde")]
mod wire {
    //! The serialised form: the carried limbs from the lowest non-zero one, and the
    //! non-finite flags; integers only, so any format keeps it exactly.
    use super::{carry, FixedSum, LIMB_BITS, NAN, NEG_INF, POS_INF};

    #[derive(serde::Serialize, serde::Deserialize)]
    struct Wire {
        /// The index of the first limb stored, limb i weighing 2^(32·i − 1074) (negative
        /// below 2^-1074, which only a [`ProductSum`](super::ProductSum) reaches).
        first_limb: i64,
        /// Carried limbs: each in [0, 2^32) but the last of all, which is signed.
        limbs: Vec<i64>,
        /// Non-finite values added: 1 = +inf, 2 = −inf, 4 = NaN.
        special: u8,
    }

    impl<const LIMBS: usize, const LOW: usize> serde::Serialize for FixedSum<LIMBS, LOW> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let (first, limbs) = self.normalized();
            Wire {
                first_limb: first as i64 - LOW as i64,
                limbs,
                special: self.special,
            }
            .serialize(s)
        }
    }

    impl<'de, const LIMBS: usize, const LOW: usize> serde::Deserialize<'de> for FixedSum<LIMBS, LOW> {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            use serde::de::Error as _;
            let wire = Wire::deserialize(d)?;
            let first = wire
                .first_limb
                .checked_add(LOW as i64)
                .and_then(|f| usize::try_from(f).ok());
            let Some(first) = first.filter(|f| f.saturating_add(wire.limbs.len()) <= LIMBS) else {
                return Err(D::Error::custom(
                    "an exact sum's limbs lie beyond its width",
                ));
            };
            let in_range = wire.limbs.iter().enumerate().all(|(i, &l)| {
                let last = first + i == LIMBS - 1;
                last && l.unsigned_abs() < 1 << 40 || (0..1 << LIMB_BITS).contains(&l)
            });
            if !in_range || wire.special & !(POS_INF | NEG_INF | NAN) != 0 {
                return Err(D::Error::custom(
                    "an exact sum's limb or flag is out of range",
                ));
            }
            let mut sum = Self::default();
            sum.limbs[first..first + wire.limbs.len()].copy_from_slice(&wire.limbs);
            carry(&mut sum.limbs[..]);
            sum.special = wire.special;
            Ok(sum)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Shewchuk's algorithm as Python's `math.fsum` writes it: the reference for sums that
    /// do not overflow.
    fn fsum(values: &[f64]) -> f64 {
        let mut partials: Vec<f64> = Vec::new();
        for &v in values {
            let mut x = v;
            let mut i = 0;
            for j in 0..partials.len() {
                let mut y = partials[j];
                if x.abs() < y.abs() {
                    core::mem::swap(&mut x, &mut y);
                }
                let hi = x + y;
                let lo = y - (hi - x);
                if lo != 0.0 {
                    partials[i] = lo;
                    i += 1;
                }
                x = hi;
            }
            partials.truncate(i);
            if x != 0.0 {
                partials.push(x);
            }
        }
        // An exact zero is +0.0 (as a sum that starts from 0.0 gives).
        let Some(mut hi) = partials.pop() else {
            return 0.0;
        };
        let mut lo = 0.0;
        while let Some(y) = partials.pop() {
            let x = hi;
            hi = x + y;
            lo = y - (hi - x);
            if lo != 0.0 {
                break;
            }
        }
        if let Some(&next) = partials.last() {
            if (lo < 0.0 && next < 0.0) || (lo > 0.0 && next > 0.0) {
                let y = lo * 2.0;
                let x = hi + y;
                if y == x - hi {
                    hi = x;
                }
            }
        }
        hi
    }

    fn exact(values: &[f64]) -> f64 {
        let mut s = ExactSum::default();
        values.iter().for_each(|&v| s.add(v));
        s.value()
    }

    /// Random finite values: `value(lo, hi)` has a random biased exponent in `lo..hi` (0 for
    /// subnormals), a random mantissa and sign. SplitMix64 draws the bits.
    struct Draws(u64);
    impl Draws {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let z = (self.0 ^ (self.0 >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            let z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
        fn value(&mut self, lo: u64, hi: u64) -> f64 {
            let exponent = lo + self.next() % (hi - lo);
            f64::from_bits((self.next() & (1 << 63 | ((1 << 52) - 1))) | exponent << 52)
        }
    }

    #[test]
    fn exact_where_a_plain_sum_loses_everything() {
        assert_eq!(exact(&[1e16, 1.0, -1e16, 1.0]), 2.0);
        assert_eq!(exact(&[1e308, 1e308, -1e308]), 1e308); // no intermediate overflow
        assert_eq!(exact(&[f64::MAX, f64::MAX]), f64::INFINITY);
        assert_eq!(exact(&[-f64::MAX, -f64::MAX]), f64::NEG_INFINITY);
        assert_eq!(exact(&[f64::MAX, f64::MAX, -f64::MAX]), f64::MAX);
        assert_eq!(exact(&[]).to_bits(), 0.0f64.to_bits());
        assert_eq!(exact(&[-0.0, -0.0]).to_bits(), 0.0f64.to_bits());
        assert_eq!(exact(&[0.1, 0.2, 0.3]), 0.6);
        assert_eq!(exact(&[1e-20, 1.0, -1.0]), 1e-20);
        assert_eq!(fsum(&[1e-20, 1.0, -1.0]), 1e-20);
        // Ties to even: 1 + 2^-53 is halfway between 1 and 1 + 2^-52.
        assert_eq!(exact(&[1.0, 2f64.powi(-53)]), 1.0);
        assert_eq!(
            exact(&[1.0, 2f64.powi(-53), 2f64.powi(-100)]),
            1.0 + 2f64.powi(-52)
        );
        assert_eq!(
            exact(&[1.0 + 2f64.powi(-52), 2f64.powi(-53)]),
            1.0 + 2f64.powi(-51)
        );
        // Subnormals are exact.
        let tiny = f64::from_bits(1);
        assert_eq!(exact(&[tiny, tiny, tiny]), f64::from_bits(3));
        assert_eq!(
            exact(&[f64::MIN_POSITIVE, -tiny]),
            f64::from_bits((1 << 52) - 1)
        );
        // A sum just below the overflow threshold rounds to MAX; at it, to infinity.
        let half_ulp = 2f64.powi(970);
        assert_eq!(exact(&[f64::MAX, half_ulp, -tiny]), f64::MAX);
        assert_eq!(exact(&[f64::MAX, half_ulp]), f64::INFINITY);
    }

    #[test]
    fn non_finite_values_give_what_ieee_addition_gives() {
        assert_eq!(exact(&[1.0, f64::INFINITY, -5.0]), f64::INFINITY);
        assert_eq!(exact(&[f64::NEG_INFINITY, 1e300]), f64::NEG_INFINITY);
        assert!(exact(&[f64::INFINITY, f64::NEG_INFINITY]).is_nan());
        let odd_nan = f64::from_bits(0xfff8_0000_0000_0001);
        assert_eq!(exact(&[1.0, odd_nan]).to_bits(), f64::NAN.to_bits());
    }

    #[test]
    fn agrees_with_fsum_in_any_order_and_grouping() {
        let mut rng = Draws(0x5EED_0000_0000_0001);
        for round in 0..3000 {
            let n = 1 + (rng.next() % 60) as usize;
            let (lo, hi) = match round % 4 {
                0 => (1020, 1026),
                1 => (960, 1080),
                2 => (0, 60),
                _ => (0, 2040),
            };
            let mut values: Vec<f64> = (0..n).map(|_| rng.value(lo, hi)).collect();
            if round % 3 == 0 {
                // Cancellations: the negations of some of the values.
                let negated: Vec<f64> = values.iter().step_by(2).map(|v| -v).collect();
                values.extend(negated);
            }
            let n = values.len();
            let reference = fsum(&values);
            assert_eq!(exact(&values).to_bits(), reference.to_bits(), "{values:?}");
            let mut reversed = values.clone();
            reversed.reverse();
            assert_eq!(exact(&reversed).to_bits(), reference.to_bits());
            // Split at a random point, summed apart and merged either way.
            let cut = (rng.next() % (n as u64 + 1)) as usize;
            let (mut a, mut b) = (ExactSum::default(), ExactSum::default());
            values[..cut].iter().for_each(|&v| a.add(v));
            values[cut..].iter().for_each(|&v| b.add(v));
            let (mut ab, mut ba) = (a.clone(), b.clone());
            ab.merge(&b);
            ba.merge(&a);
            assert_eq!(ab.value().to_bits(), reference.to_bits());
            assert_eq!(ba.value().to_bits(), reference.to_bits());
            assert_eq!(ab, ba);
        }
    }

    #[test]
    fn products_sum_exactly_at_any_scale_and_read_rounded_once() {
        let pow2 = |k: i64| f64::from_bits(((1023 + k) as u64) << 52);
        let mut rng = Draws(0x5EED_0000_0000_0002);
        for _ in 0..3000 {
            // One product read alone: x·2^(e + s) rounded once, as one multiplication rounds it
            // (subnormal, or beyond f64::MAX, alike).
            let x = rng.value(1, 2046);
            let e = (rng.next() % 2099) as i32 - 1074;
            let mut one = ProductSum::default();
            one.add_scaled(x, e);
            let s = (rng.next() % 2045) as i32 - 1022 - e;
            if (-1022..=1023).contains(&(e + s)) {
                let expected = x * pow2(i64::from(e + s));
                assert_eq!(
                    one.value_scaled(s).to_bits(),
                    expected.to_bits(),
                    "{x}·2^{e}·2^{s}"
                );
            }
            // Many products around one exponent b: their sum read at 2^-b is the exact sum of
            // the values at their offsets.
            let b = (rng.next() % 2099) as i32 - 1074;
            let (mut sum, mut shifted) = (ProductSum::default(), ExactSum::default());
            for _ in 0..1 + rng.next() % 20 {
                let x = rng.value(823, 1223);
                let d = (rng.next() % 201) as i32 - 100;
                sum.add_scaled(x, b + d);
                shifted.add(x * pow2(i64::from(d)));
            }
            assert_eq!(sum.value_scaled(-b).to_bits(), shifted.value().to_bits());
            assert_eq!(sum.exponent().map(|e| e - b), shifted.exponent());
        }
        assert_eq!(ProductSum::default().exponent(), None);
        let mut tiny = ProductSum::default();
        tiny.add_scaled(5e-324, -1074); // 2^-2148, the lowest bit
        assert_eq!(tiny.exponent(), Some(-2148));
        assert_eq!(tiny.value(), 0.0);
        assert_eq!(tiny.value_scaled(1074), 5e-324);
    }

    #[test]
    fn carries_keep_long_sums_exact() {
        let mut s = ExactSum {
            pending: CARRY_EVERY - 3,
            ..ExactSum::default()
        };
        for _ in 0..10 {
            s.add(0.1);
        }
        let mut other = ExactSum {
            pending: CARRY_EVERY - 1,
            ..ExactSum::default()
        };
        other.add(0.1);
        s.merge(&other);
        assert_eq!(s.value(), fsum(&[0.1; 11]));
        assert!(s.pending < CARRY_EVERY);
    }
}
