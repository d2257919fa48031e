//! Buffers as large as the input, allocated so that a refusal is an error, not an abort: the
//! allocator's failure would otherwise end the whole process (an R session, a notebook kernel),
//! where a caller can free memory or pass smaller batches.

use crate::error::Error;

/// The bytes `len` values of `T` take (saturated: a size no allocator grants).
fn bytes_of<T>(len: usize) -> usize {
    len.saturating_mul(core::mem::size_of::<T>())
}

/// Makes room for `more` values beyond `v`'s length, or reports the bytes asked for. Growth is
/// amortised as `Vec`'s own (an accumulator fed many small batches copies its rows a bounded
/// number of times); an empty vector gets exactly `more`.
pub(crate) fn reserve<T>(v: &mut Vec<T>, more: usize) -> Result<(), Error> {
    v.try_reserve(more).map_err(|_| Error::OutOfMemory {
        bytes: bytes_of::<T>(v.len().saturating_add(more)),
    })
}

/// An empty vector with room for `len` values.
pub(crate) fn with_room<T>(len: usize) -> Result<Vec<T>, Error> {
    let mut v = Vec::new();
    reserve(&mut v, len)?;
    Ok(v)
}

/// `len` copies of `value`.
pub(crate) fn filled<T: Clone>(value: T, len: usize) -> Result<Vec<T>, Error> {
    let mut v = with_room(len)?;
    v.resize(len, value);
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_allocation_is_an_error_with_its_size() {
        let err = filled(0u64, usize::MAX / 4).unwrap_err();
        assert_eq!(err, Error::OutOfMemory { bytes: usize::MAX });
        assert_eq!(filled(7u8, 3).unwrap(), vec![7, 7, 7]);
        assert!(with_room::<f64>(5).unwrap().capacity() >= 5);
        // Many small batches: capacity grows geometrically, not by each batch's size.
        let mut v: Vec<u8> = Vec::new();
        let mut grew = 0;
        for _ in 0..1000 {
            let before = v.capacity();
            reserve(&mut v, 3).unwrap();
            v.extend([1, 2, 3]);
            grew += usize::from(v.capacity() != before);
        }
        assert!(grew < 20, "{grew} reallocations for 1000 batches");
    }
}
